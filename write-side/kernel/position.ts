// Positions are two unsigned 64-bit numbers (EventStoreDB's commit and prepare positions;
// the embedded store uses its sequence number for both) written as fixed-width hex, so
// that comparing the strings compares the positions.
import type { Position } from './event-store.js';

const WIDTH = 16;
const MAX = (1n << 64n) - 1n;
const PATTERN = /^[0-9a-f]{32}$/;

/** The embedded store's positions: one sequence number, well inside the safe integers. */
export function encodeSequence(sequence: number): Position {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError('position out of range');
  const hex = sequence.toString(16).padStart(WIDTH, '0');
  return (hex + hex) as Position;
}

export function encodePosition(commit: bigint, prepare: bigint = commit): Position {
  if (commit < 0n || commit > MAX || prepare < 0n || prepare > MAX) {
    throw new RangeError('position out of range');
  }
  return (commit.toString(16).padStart(WIDTH, '0') + prepare.toString(16).padStart(WIDTH, '0')) as Position;
}

export function decodePosition(position: Position): { commit: bigint; prepare: bigint } {
  return { commit: BigInt('0x' + position.slice(0, WIDTH)), prepare: BigInt('0x' + position.slice(WIDTH)) };
}

/** Parses untrusted text (a checkpoint, a token from a client); null when it is not a position. */
export function parsePosition(text: string): Position | null {
  return PATTERN.test(text) ? (text as Position) : null;
}

/**
 * EventStoreDB keeps log positions as signed 64-bit numbers, and the embedded store's are far
 * smaller: a position with a half above this is no place in either log, and cannot be read from.
 * (It still compares, so a far-future Consistency-Token is only waited for.)
 */
const MAX_LOG_POSITION = (1n << 63n) - 1n;

export function isLogPosition(position: Position): boolean {
  const { commit, prepare } = decodePosition(position);
  return commit <= MAX_LOG_POSITION && prepare <= MAX_LOG_POSITION;
}

export function comparePositions(a: Position, b: Position): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How far `position` is from the start of the log towards `head`, from 0 to 1 (for progress reports). */
export function fractionOf(position: Position, head: Position): number {
  const at = decodePosition(position).commit;
  const end = decodePosition(head).commit;
  return end === 0n ? 1 : Math.min(1, Number(at) / Number(end));
}

/** The least position after `position`: the views include something after it once they reach this one. */
export function successorOf(position: Position): Position {
  const { commit, prepare } = decodePosition(position);
  return prepare < MAX ? encodePosition(commit, prepare + 1n) : encodePosition(commit + 1n, 0n);
}
