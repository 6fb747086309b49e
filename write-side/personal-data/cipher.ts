// Sealing of personal data: AES-256-GCM (authenticated) with a key of the data's subject (its
// customer), a random 96-bit IV per value, and the place the value belongs to (stream and field)
// as additional authenticated data, so that a sealed value cannot be moved to another order or
// field unnoticed. A sealed value names its subject, so that whoever reads it knows which key opens it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { JsonValue } from '../kernel/event-store.js';

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';

/** A personal value as stored: only its subject is in clear. */
export interface Sealed {
  readonly sealed: typeof ALGORITHM;
  /** Whose data it is: the customer id whose key seals it. */
  readonly subject: string;
  /** Base64 of the IV. */
  readonly iv: string;
  /** Base64 of the ciphertext followed by the GCM tag. */
  readonly data: string;
}

export function isSealed(value: unknown): value is Sealed {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.sealed === ALGORITHM && typeof v.subject === 'string' && typeof v.iv === 'string' && typeof v.data === 'string';
}

/**
 * IVs are taken from random bytes drawn IV_POOL of them at a time: one draw from the system's
 * generator costs about as much as sealing a value, and each placement seals one. Each IV is
 * handed out once; a draw is a new buffer, so no IV handed out is ever written over.
 */
const IV_POOL = 256;
let ivs = Buffer.alloc(0);
let nextIv = 0;

/** A fresh random IV, never handed out before. */
export function freshIv(): Buffer {
  if (nextIv + IV_BYTES > ivs.length) {
    ivs = randomBytes(IV_BYTES * IV_POOL);
    nextIv = 0;
  }
  const iv = ivs.subarray(nextIv, nextIv + IV_BYTES);
  nextIv += IV_BYTES;
  return iv;
}

export function seal(key: Buffer, subject: string, place: string, value: JsonValue): Sealed {
  const iv = freshIv();
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(place));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { sealed: ALGORITHM, subject, iv: iv.toString('base64'), data: body.toString('base64') };
}

/** The value, or undefined when this key does not open it here (another key, another place, altered bytes); never throws. */
export function open(key: Buffer, sealed: Sealed, place: string): JsonValue | undefined {
  try {
    const body = Buffer.from(sealed.data, 'base64');
    const end = body.length - TAG_BYTES;
    if (end < 0) return undefined;
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, 'base64'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(place));
    decipher.setAuthTag(body.subarray(end));
    const text = decipher.update(body.subarray(0, end));
    // final() checks the tag (it throws on a mismatch) and, GCM being a stream mode, adds no bytes.
    const rest = decipher.final();
    return JSON.parse((rest.length === 0 ? text : Buffer.concat([text, rest])).toString('utf8')) as JsonValue;
  } catch {
    return undefined;
  }
}

export function newKey(): Buffer {
  return randomBytes(KEY_BYTES);
}
