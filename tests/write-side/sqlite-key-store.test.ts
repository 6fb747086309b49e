// The embedded key store forgets on disk: a destroyed key's bytes are in no file of its folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../write-side/adapters/sqlite-key-store.js';
import { tempDir } from '../support/event-stores.js';

const dirs: Array<{ remove(): void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function foundIn(dir: string, bytes: Buffer): string[] {
  return readdirSync(dir).filter((name) => readFileSync(join(dir, name)).includes(bytes));
}

describe('embedded key store on disk', () => {
  it('leaves no byte of a destroyed key in any file, while the other keys stay', async () => {
    const dir = tempDir('keys-disk-');
    dirs.push(dir);
    const store = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
    const keys = new Map<string, Buffer>();
    for (let i = 0; i < 60; i++) {
      const state = await store.createOrGet(`cus_${i}`);
      if ('key' in state) keys.set(`cus_${i}`, state.key);
    }
    const doomed = keys.get('cus_30')!;
    expect(foundIn(dir.path, doomed)).toEqual(['keys.sqlite3']); // the scan can see a key
    await store.destroy('cus_30', new Date());
    const kept = keys.get('cus_31')!;
    await store.close();
    expect(foundIn(dir.path, doomed)).toEqual([]);
    expect(foundIn(dir.path, kept)).toEqual(['keys.sqlite3']);
  });
});
