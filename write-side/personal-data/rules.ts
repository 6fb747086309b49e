// Which members of which events are personal data, and whose: the rules the sealing store follows.
// A rule covers the streams of one prefix; a stream holds the personal data of one subject.
import type { JsonObject, JsonValue } from '../kernel/event-store.js';

export interface PersonalField {
  readonly name: string;
  /** What the member reads as once its subject was erased. */
  readonly erased: JsonValue;
}

export interface PersonalDataRule {
  readonly streamPrefix: string;
  /** The personal members of an event's data, by event type; a type not named holds none. */
  readonly fields: { readonly [eventType: string]: readonly PersonalField[] };
  /** Whose data the stream holds, from its name or from its first event (read only when needed). */
  subject(stream: string, first: () => Promise<{ readonly data: JsonObject } | undefined>): Promise<string | null>;
}

/** Where a value lives, bound into its seal: a sealed value opens only in its own stream and member. */
export const placeOf = (stream: string, field: string): string => `${stream}#${field}`;
