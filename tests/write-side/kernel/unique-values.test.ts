// One value, one owner, across streams: races, crashed claimants and the fencing of slow ones,
// on every event store available (the embedded one always, EventStoreDB with EVENTSTORE_URL).
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandHandler, type Decider } from '../../../write-side/kernel/command-handler.js';
import { EmailInUse } from '../../../write-side/kernel/errors.js';
import { RevisionConflict, type EventStore, type RecordedEvent } from '../../../write-side/kernel/event-store.js';
import {
  CLAIM_FENCED,
  claimStream,
  guardUnique,
  isClaimFenced,
  normalizeValue,
  UniqueValues,
  type UniqueValueSet,
} from '../../../write-side/kernel/unique-values.js';
import { availableStores, type StoreFixture } from '../../support/event-stores.js';

const context = { principal: 'unique-tester', correlationId: 'corr-unique', causationId: null };

// A tiny owner: a profile that registers with an email and may change it.
type ProfileEvent = { type: 'Registered' | 'EmailChanged'; data: { email: string } } | { type: 'Fenced'; data: Record<string, never> };
type Profile = { email: string | null };
const profileDecider: Decider<Profile, { email: string }, ProfileEvent> = {
  initialState: () => ({ email: null }),
  evolve: (state, event) => (event.type === 'Fenced' ? state : { email: event.data.email }),
  decide: (command, state) => [{ type: state.email === null ? 'Registered' : 'EmailChanged', data: { email: command.email } }],
};
const profileCodec = {
  encode: (event: ProfileEvent, metadata: Omit<RecordedEvent['metadata'], 'schemaVersion'>) => ({ type: event.type, data: event.data, metadata: { schemaVersion: 1, ...metadata } }),
  decode: (recorded: RecordedEvent): ProfileEvent =>
    isClaimFenced(recorded) ? { type: 'Fenced', data: {} } : ({ type: recorded.type, data: { email: String(recorded.data.email) } } as ProfileEvent),
};
const profileOf = (events: readonly RecordedEvent[]) => events.map(profileCodec.decode).reduce(profileDecider.evolve, profileDecider.initialState());

for (const [name, open] of availableStores) {
  describe(`unique values: ${name}`, () => {
    let fixture: StoreFixture;
    let store: EventStore;
    let set: UniqueValueSet;
    let now: number;
    let unique: UniqueValues;
    const owner = () => `owner${randomUUID()}`;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
      set = {
        name: `test-${randomUUID()}`,
        holds: (events, value) => {
          const { email } = profileOf(events);
          return email !== null && normalizeValue(email) === value;
        },
        taken: () => new EmailInUse(),
      };
      now = Date.now();
      unique = new UniqueValues(store, set, { graceMs: 30_000, clock: () => new Date(now) });
    });
    afterEach(async () => fixture.dispose());

    const register = (stream: string, email: string) =>
      store.appendToStream(stream, [profileCodec.encode({ type: 'Registered', data: { email } }, context)], 'no_stream');

    it('gives a free value to its first claimant and refuses it to another, whatever the case', async () => {
      const [a, b] = [owner(), owner()];
      await unique.claim('Ada@Example.org', a, context);
      await register(a, 'Ada@Example.org');
      await expect(unique.claim('ada@EXAMPLE.org', b, context)).rejects.toBeInstanceOf(EmailInUse);
      expect(await unique.holder('ADA@example.ORG')).toBe(a);
    });

    it('names the claim stream by the set and a hash of the lowercased value, never the value itself', () => {
      const stream = claimStream(set.name, 'Ada@Example.org');
      expect(stream).toBe(claimStream(set.name, 'ada@example.org'));
      expect(stream).toMatch(new RegExp(`^unique-${set.name}-[0-9a-f]{64}$`));
      // The value's non-hex parts cannot appear in it ('ada' alone could, by chance, in the
      // random set name or the digest: it did once in CI).
      expect(stream.toLowerCase()).not.toMatch(/@|example|\.org/);
    });

    it('lets exactly one of many racing claimants in different case have the value', async () => {
      const owners = Array.from({ length: 20 }, owner);
      const outcomes = await Promise.allSettled(owners.map((o, i) => unique.claim(i % 2 ? 'RACE@example.org' : 'race@Example.org', o, context)));
      const won = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [owners[i]] : []));
      expect(won).toHaveLength(1);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(EmailInUse);
      expect(await unique.holder('race@example.org')).toBe(won[0]);
    });

    it('answers its holder again that it holds the value', async () => {
      const a = owner();
      await unique.claim('again@example.org', a, context);
      await unique.claim('AGAIN@example.org', a, context);
      expect(await store.readStream(claimStream(set.name, 'again@example.org'))).toHaveLength(1);
    });

    it('frees a released value for the next claimant; a release by another owner changes nothing', async () => {
      const [a, b] = [owner(), owner()];
      await unique.claim('free@example.org', a, context);
      await unique.release('free@example.org', b, context);
      expect(await unique.holder('free@example.org')).toBe(a);
      await unique.release('FREE@example.org', a, context);
      expect(await unique.holder('free@example.org')).toBeNull();
      await unique.claim('free@example.org', b, context);
      expect(await unique.holder('free@example.org')).toBe(b);
    });

    it('keeps a claim whose owner does not exist yet for the grace period', async () => {
      const [a, b] = [owner(), owner()];
      await unique.claim('slow@example.org', a, context);
      now += 29_000;
      await expect(unique.claim('slow@example.org', b, context)).rejects.toBeInstanceOf(EmailInUse);
      expect(await store.readStream(a)).toEqual([]);
    });

    it('takes over a claim whose owner never appeared after the grace period, fencing the owner first', async () => {
      const [a, b] = [owner(), owner()];
      await unique.claim('crashed@example.org', a, context);
      now += 31_000;
      await unique.claim('crashed@example.org', b, context);
      expect(await unique.holder('crashed@example.org')).toBe(b);
      now -= 31_000; // back to the present: b's claim is fresh
      // The old claimant, slow rather than dead, now appends its registration: its check fails.
      const late = await register(a, 'crashed@example.org').catch((e: unknown) => e);
      expect(late).toBeInstanceOf(RevisionConflict);
      const fenced = await store.readStream(a);
      expect(fenced.map((e) => e.type)).toEqual([CLAIM_FENCED]);
      // Starting over, it finds its claim taken.
      await expect(unique.claim('crashed@example.org', a, context)).rejects.toBeInstanceOf(EmailInUse);
    });

    it('never takes a value from an owner that holds it by its events, however old the claim', async () => {
      const [a, b] = [owner(), owner()];
      await unique.claim('kept@example.org', a, context);
      await register(a, 'KEPT@example.org');
      now += 3_600_000;
      await expect(unique.claim('kept@example.org', b, context)).rejects.toBeInstanceOf(EmailInUse);
      expect((await store.readStream(a)).map((e) => e.type)).toEqual(['Registered']);
    });

    it('takes over the old value of an owner that changed its email and died before releasing it', async () => {
      const [a, b] = [owner(), owner()];
      await unique.claim('old@example.org', a, context);
      await register(a, 'old@example.org');
      await unique.claim('new@example.org', a, context);
      await store.appendToStream(a, [profileCodec.encode({ type: 'EmailChanged', data: { email: 'new@example.org' } }, context)], 0);
      now += 31_000;
      await unique.claim('old@example.org', b, context);
      expect(await unique.holder('old@example.org')).toBe(b);
      expect(profileOf(await store.readStream(a)).email).toBe('new@example.org');
    });

    it('frees a fenced claim whose taker died before taking it, for its former holder too', async () => {
      const a = owner();
      await unique.claim('fenced@example.org', a, context);
      const stream = claimStream(set.name, 'fenced@example.org');
      // What a taker leaves when it dies between the fence and its claim.
      await store.appendToStream(a, [{ type: CLAIM_FENCED, data: { claim: stream, claimRevision: 0 }, metadata: { schemaVersion: 1, ...context } }], 'no_stream');
      await unique.claim('fenced@example.org', a, context);
      expect((await store.readStream(stream)).map((e) => [e.revision, e.data.owner])).toEqual([
        [0, a],
        [1, a],
      ]);
    });

    it('makes a slow writer fenced between its claim and its append start over and answer taken', async () => {
      const [a, b] = [owner(), owner()];
      const handler = new CommandHandler(store, profileDecider, profileCodec);
      const guard = guardUnique<Profile, ProfileEvent>(unique, a, (state) => state.email, context);
      let paused!: () => void;
      const claimed = new Promise<void>((resolve) => (paused = resolve));
      let resume!: () => void;
      const resumed = new Promise<void>((resolve) => (resume = resolve));
      let first = true;
      const slow = handler.handle(a, { email: 'fence@example.org' }, context, undefined, {
        async beforeAppend(change) {
          await guard.beforeAppend(change);
          if (first) {
            first = false;
            paused();
            await resumed;
          }
        },
        afterAppend: guard.afterAppend,
      });
      await claimed;
      now += 31_000;
      await unique.claim('fence@example.org', b, context);
      now -= 31_000; // back to the present: b's claim is fresh
      resume();
      await expect(slow).rejects.toBeInstanceOf(EmailInUse);
      expect(await unique.holder('fence@example.org')).toBe(b);
      expect(profileOf(await store.readStream(a)).email).toBeNull();
    });

    it('claims the new value before an email change and releases the old one after it', async () => {
      const a = owner();
      const handler = new CommandHandler(store, profileDecider, profileCodec);
      const guard = guardUnique<Profile, ProfileEvent>(unique, a, (state) => state.email, context);
      await handler.handle(a, { email: 'first@example.org' }, context, undefined, guard);
      expect(await unique.holder('first@example.org')).toBe(a);
      await handler.handle(a, { email: 'Second@example.org' }, context, undefined, guard);
      expect(await unique.holder('second@example.org')).toBe(a);
      expect(await unique.holder('first@example.org')).toBeNull();
      // A change of case only is the same value: nothing claimed, nothing released.
      await handler.handle(a, { email: 'SECOND@example.org' }, context, undefined, guard);
      expect(await store.readStream(claimStream(set.name, 'second@example.org'))).toHaveLength(1);
    });
  });
}
