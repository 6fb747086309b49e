// The ids keys stand for never change: an order's id is its key's (keyId), so a retry after an
// upgrade must land on the stream its first run wrote.
import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { keyId, keyStream } from '../../../write-side/kernel/idempotency.js';

const KEY_NAMESPACE = '1b671a64-40d5-491e-99b0-da01ff1e3171';

describe('keyId', () => {
  it('is the version 5 UUID of [principal, key] in the key namespace, as uuid makes it', () => {
    const names: Array<[string, string]> = [
      ['user-1', 'order-key-1'],
      ['cus_ü', 'clé-é-😀'],
      ['', '!'],
      ['svc:bench', '~'.repeat(255)],
      ...Array.from({ length: 200 }, (): [string, string] => [`sub-${randomUUID()}`, randomUUID()]),
    ];
    for (const [principal, key] of names) expect(keyId(principal, key)).toBe(uuidv5(JSON.stringify([principal, key]), KEY_NAMESPACE));
  });

  it('keeps the ids already written (pinned)', () => {
    expect(keyId('user-1', 'order-key-1')).toBe('f8ca8be7-e51e-5106-b3cd-d99fd2573279');
    expect(keyId('cus_ü', 'clé-é-😀')).toBe('314290ae-bc8f-543a-ae00-f69f71a6fe1d');
    expect(keyStream('user-1', 'order-key-1')).toBe('idempotency-f8ca8be7-e51e-5106-b3cd-d99fd2573279');
  });
});
