// What every command carries besides its data: the request it belongs to, and its clock and principal.

/** The request a command belongs to; who asks is the viewer, passed beside it. */
export interface WriteContext {
  readonly correlationId: string;
  readonly causationId?: string | null;
}

export interface CommandMetadata {
  /** ISO 8601 instant supplied by the caller; the decider reads no clock. */
  readonly now: string;
  readonly principal: string;
}
