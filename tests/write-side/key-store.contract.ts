// The contract every KeyStore adapter passes: one key per subject, kept until destroyed, and
// never made again once destroyed.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../write-side/personal-data/key-store.js';

export interface KeyStoreFixture {
  readonly store: KeyStore;
  /** Opens the same keys again (a restart, or another process). */
  reopen(): Promise<KeyStore>;
  dispose(): Promise<void>;
}

export function keyStoreContract(name: string, open: () => Promise<KeyStoreFixture>): void {
  describe(`KeyStore contract: ${name}`, () => {
    let fixture: KeyStoreFixture;
    let store: KeyStore;
    const subject = () => `cus_${randomUUID()}`;
    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('makes a 256-bit key on first use and gives the same one afterwards, after a restart too', async () => {
      const s = subject();
      const first = await store.createOrGet(s);
      if (!('key' in first)) throw new Error('no key made');
      expect(first.key).toHaveLength(32);
      const again = await store.createOrGet(s);
      expect('key' in again && again.key.equals(first.key)).toBe(true);
      const reopened = await fixture.reopen();
      const read = (await reopened.read([s])).get(s);
      expect(read && 'key' in read && read.key.equals(first.key)).toBe(true);
    });

    it('gives every subject a key of its own', async () => {
      const [a, b] = [subject(), subject()];
      const [ka, kb] = [await store.createOrGet(a), await store.createOrGet(b)];
      expect('key' in ka && 'key' in kb && !ka.key.equals(kb.key)).toBe(true);
    });

    it('reads only the subjects that have or had a key', async () => {
      const [made, never] = [subject(), subject()];
      await store.createOrGet(made);
      const states = await store.read([made, never, made]);
      expect([...states.keys()]).toEqual([made]);
    });

    it('agrees on one key when many ask for a new subject at once', async () => {
      const s = subject();
      const states = await Promise.all(Array.from({ length: 20 }, () => store.createOrGet(s)));
      const keys = new Set(states.map((state) => ('key' in state ? state.key.toString('hex') : 'none')));
      expect(keys.size).toBe(1);
      expect(keys.has('none')).toBe(false);
    });

    it('destroys a key for good: read as erased, and never made again', async () => {
      const s = subject();
      await store.createOrGet(s);
      const at = new Date(Date.UTC(2026, 10, 1, 12));
      const erasure = await store.destroy(s, at);
      expect(erasure).toEqual({ subject: s, erasedAt: at });
      expect((await store.read([s])).get(s)).toEqual({ erasedAt: at });
      expect(await store.createOrGet(s)).toEqual({ erasedAt: at });
      const reopened = await fixture.reopen();
      expect((await reopened.read([s])).get(s)).toEqual({ erasedAt: at });
    });

    it('records an erasure once, also for a subject that never had a key', async () => {
      const s = subject();
      const first = new Date(Date.UTC(2026, 10, 1, 12));
      await store.destroy(s, first);
      expect(await store.destroy(s, new Date(Date.UTC(2026, 10, 2)))).toEqual({ subject: s, erasedAt: first });
      expect(await store.createOrGet(s)).toEqual({ erasedAt: first });
    });

    it('lists erasures from a time on, oldest first', async () => {
      const base = Date.UTC(2030, 0, 1) + Math.floor(Math.random() * 1e9) * 1000;
      const [a, b, c] = [subject(), subject(), subject()];
      await store.destroy(b, new Date(base + 2000));
      await store.destroy(a, new Date(base + 1000));
      await store.destroy(c, new Date(base + 3000));
      const listed = await store.erasuresSince(new Date(base + 1500), 10);
      expect(listed.filter((e) => [a, b, c].includes(e.subject))).toEqual([
        { subject: b, erasedAt: new Date(base + 2000) },
        { subject: c, erasedAt: new Date(base + 3000) },
      ]);
      expect(await store.erasuresSince(new Date(base + 1000), 1)).toEqual([{ subject: a, erasedAt: new Date(base + 1000) }]);
    });
  });
}
