// Personal data on the write side: sealed in the event log, opened by the order service, erased
// in every process once the key is destroyed, and old events written in clear still read.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';
import { SqliteKeyStore } from '../../write-side/adapters/sqlite-key-store.js';
import { serviceViewer } from '../../write-side/kernel/access.js';
import { orderStream } from '../../write-side/orders/codec.js';
import { OrderService } from '../../write-side/orders/service.js';
import { isSealed, newKey, open, seal } from '../../write-side/personal-data/cipher.js';
import { KEY_CACHE_TTL_MS, Keyring } from '../../write-side/personal-data/keyring.js';
import { ERASED_ADDRESS, orderPersonalData } from '../../write-side/orders/personal-data.js';
import { PersonalData } from '../../write-side/personal-data/personal-data.js';
import { SealingEventStore } from '../../write-side/personal-data/sealing-event-store.js';
import { defineProducts } from '../support/catalogue.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';
import { tempDir } from '../support/event-stores.js';
import { inMemoryPersonalData } from '../support/personal-data.js';
import { PERSONAL_DATA } from '../../write-side/areas.js';
import { customerStream } from '../../write-side/customers/codec.js';
import { CustomerService } from '../../write-side/customers/service.js';
import { CustomerErasure } from '../../write-side/personal-data/erasure.js';

const address = { name: 'Grace Hopper', line1: '7 Navy Yard', line2: null, city: 'Arlington', postalCode: '22202', region: null, country: 'US' };
const lines = [{ sku: 'A', quantity: 1, unitPrice: 500 }];
const staff = serviceViewer('test');
const keyed = (key: string) => ({ correlationId: 'c', idempotency: { key, fingerprint: key } });

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One process: its own connections to the shared files, its own keyring and clock. */
function openProcess(dir: string, now?: () => number) {
  const events = new SqliteEventStore({ file: join(dir, 'events.sqlite3') });
  const keys = new SqliteKeyStore(join(dir, 'keys.sqlite3'));
  const keyring = new Keyring(keys, now ? { now } : {});
  const sealed = new SealingEventStore(events, new PersonalData(keyring), [orderPersonalData]);
  cleanups.push(() => keys.close(), () => events.close());
  return {
    ready: Promise.all([defineProducts(events), receiveStock(events, TEST_SKUS)]), events, keyring, orders: new OrderService(sealed, { keys: keyring }) };
}

/** A keyring on a key store of its own (its reads and erasure checks counted), on a clock moved by hand, and another process's connection to the same store that erases. */
function countedKeyring() {
  const dir = tempDir('personal-');
  cleanups.push(() => dir.remove());
  const clock = { now: 1_000_000 };
  const keys = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
  const eraser = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
  cleanups.push(() => keys.close(), () => eraser.close());
  const asked = { read: 0, erasuresSince: 0 };
  const counted = Object.assign(Object.create(keys) as SqliteKeyStore, {
    read: (subjects: readonly string[]) => (asked.read++, keys.read(subjects)),
    erasuresSince: (since: Date, limit: number) => (asked.erasuresSince++, keys.erasuresSince(since, limit)),
  });
  return { clock, eraser, asked, keyring: new Keyring(counted, { now: () => clock.now }) };
}

describe('the seal', () => {
  it('gives every sealed value an IV of its own, across many draws of random bytes, and each opens', () => {
    const key = newKey();
    const sealed = Array.from({ length: 2000 }, (_, i) => seal(key, 'cus_iv', `order-${i}/address`, { n: i }));
    // 2,000 values take several draws of IVs: none is handed out twice, within a draw or across draws.
    expect(new Set(sealed.map((value) => value.iv)).size).toBe(sealed.length);
    sealed.forEach((value) => expect(Buffer.from(value.iv, 'base64')).toHaveLength(12));
    sealed.forEach((value, i) => expect(open(key, value, `order-${i}/address`)).toEqual({ n: i }));
  });
});

describe('personal data on the write side', () => {
  it('writes the address sealed, bound to its order: the log holds no clear text, and another order cannot open it', async () => {
    const dir = tempDir('personal-');
    cleanups.push(() => dir.remove());
    const { events, orders, ready } = openProcess(dir.path);
    await ready;
    const placed = await orders.place(staff, { customerId: 'cus_g', currency: 'EUR', lines, address }, keyed('a'));
    const id = (placed.state as { id: string }).id;
    const [stored] = await events.readStream(orderStream(id));
    expect(isSealed(stored!.data.address)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('Grace');
    expect((await orders.get(staff, id))!.order.address).toEqual(address);

    // The same sealed bytes copied into another order's stream open as nothing.
    const other = await orders.place(staff, { customerId: 'cus_g', currency: 'EUR', lines, address }, keyed('b'));
    const otherId = (other.state as { id: string }).id;
    await events.appendToStream(orderStream(otherId), [{ type: 'OrderAddressChanged', data: { orderId: otherId, address: stored!.data.address!, changedAt: new Date().toISOString() }, metadata: { ...stored!.metadata, schemaVersion: 1 } }], 0);
    expect((await orders.get(staff, otherId))!.order.address).toEqual(ERASED_ADDRESS);
  });

  it('forgets an order kept opened in the erasing process at once', async () => {
    const dir = tempDir('personal-');
    cleanups.push(() => dir.remove());
    const { keyring, orders, ready } = openProcess(dir.path);
    await ready;
    const placed = await orders.place(staff, { customerId: 'cus_one', currency: 'EUR', lines, address }, keyed('k'));
    const id = (placed.state as { id: string }).id;
    expect((await orders.get(staff, id))!.order.address).toEqual(address);
    expect(orders.foldedKept.orders).toBe(1); // kept, its address opened

    await keyring.destroy('cus_one', new Date());
    const after = (await orders.get(staff, id))!.order;
    expect(after.address).toEqual(ERASED_ADDRESS);
    expect(after).toMatchObject({ status: 'pending', total: 500 });
  });

  it("reaches another process's kept orders within the key cache's lifetime, which is under 5 s", async () => {
    expect(KEY_CACHE_TTL_MS).toBeLessThan(5000);
    const dir = tempDir('personal-');
    cleanups.push(() => dir.remove());
    let clock = 1_000_000;
    const reader = openProcess(dir.path, () => clock);
    const eraser = openProcess(dir.path);
    await Promise.all([reader.ready, eraser.ready]);
    const placed = await reader.orders.place(staff, { customerId: 'cus_two', currency: 'EUR', lines, address }, keyed('k'));
    const id = (placed.state as { id: string }).id;
    expect((await reader.orders.get(staff, id))!.order.address).toEqual(address); // now kept, opened

    await eraser.keyring.destroy('cus_two', new Date());
    expect((await eraser.orders.get(staff, id))!.order.address).toEqual(ERASED_ADDRESS);
    clock += KEY_CACHE_TTL_MS + 1;
    const after = (await reader.orders.get(staff, id))!.order;
    expect(after.address).toEqual(ERASED_ADDRESS);
    expect(after).toMatchObject({ status: 'pending', total: 500, lines: [{ sku: 'A', quantity: 1, unitPrice: 500, lineTotal: 500 }] });
  });

  it('reads orders written in clear before sealing began, as they were', async () => {
    const dir = tempDir('personal-');
    cleanups.push(() => dir.remove());
    const { events, orders, ready } = openProcess(dir.path);
    await ready;
    const placedAt = new Date().toISOString();
    // As version 1 recorded it, before sealing began.
    const data = { orderId: 'legacy-1', customerId: 'cus_old', currency: 'EUR', lines: [{ ...lines[0]!, lineTotal: 500 }], total: 500, address, placedAt };
    await events.appendToStream(orderStream('legacy-1'), [{ type: 'OrderPlaced', data, metadata: { schemaVersion: 1, correlationId: 'c', causationId: null, principal: 'p' } }], 'no_stream');
    expect((await orders.get(staff, 'legacy-1'))!.order.address).toEqual(address);
    const changed = await orders.changeAddress(staff, 'legacy-1', { city: 'Boston' }, { correlationId: 'c' });
    expect(changed.state).toMatchObject({ address: { ...address, city: 'Boston' } });
    const [, stored] = await events.readStream(orderStream('legacy-1'));
    expect(isSealed(stored!.data.address)).toBe(true);
  });

  it("learns another process's erasures with one query of the erasures per cache lifetime, not a key read per customer", async () => {
    const { clock, eraser, asked, keyring } = countedKeyring();
    const customers = ['cus_1', 'cus_2', 'cus_3'];
    for (const customer of customers) await keyring.sealingKey(customer);
    const known = await keyring.openingKeys(customers);

    await eraser.destroy('cus_2', new Date());
    clock.now += KEY_CACHE_TTL_MS;
    expect(customers.map((customer) => keyring.current(customer))).toEqual([false, false, false]); // to be checked again first
    const after = await keyring.openingKeys(customers);
    expect([...after.values()]).toEqual([known.get('cus_1'), null, known.get('cus_3')]);
    expect(await keyring.erased('cus_2')).toBe(true);
    expect(customers.map((customer) => keyring.current(customer))).toEqual([true, false, true]);
    expect(asked).toEqual({ read: 0, erasuresSince: 1 });
  });

  it('checks the erasures again in the background once asked past half the cache lifetime, so that what it knows stays current while used, and still learns them in time', async () => {
    const { clock, eraser, asked, keyring } = countedKeyring();
    await keyring.sealingKey('cus_1');
    await keyring.sealingKey('cus_2');

    clock.now += KEY_CACHE_TTL_MS * 0.4;
    expect(keyring.current('cus_1')).toBe(true);
    expect(asked.erasuresSince).toBe(0); // not yet half its lifetime
    await eraser.destroy('cus_2', new Date());
    clock.now += KEY_CACHE_TTL_MS * 0.2;
    expect(keyring.current('cus_1')).toBe(true); // answered at once; the check runs meanwhile
    await vi.waitFor(() => expect(keyring.current('cus_2')).toBe(false)); // the erasure, learnt by it
    expect(asked.erasuresSince).toBe(1);
    // A whole lifetime after the first check, but only 0.4 of one after the second: still current.
    clock.now += KEY_CACHE_TTL_MS * 0.4;
    expect(keyring.current('cus_1')).toBe(true);
  });

  it("tells what holds opened data of each erasure it learns, once, whether made here or by another process", async () => {
    const dir = tempDir('personal-');
    cleanups.push(() => dir.remove());
    let clock = 1_000_000;
    const keys = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
    const other = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
    cleanups.push(() => keys.close(), () => other.close());
    const keyring = new Keyring(keys, { now: () => clock });
    const learnt: Array<string | null> = [];
    keyring.onErased((subject) => learnt.push(subject));
    await keyring.openingKeys(['cus_1', 'cus_2']);

    await keyring.destroy('cus_1', new Date());
    await other.destroy('cus_2', new Date());
    for (let check = 0; check < 2; check++) {
      clock += KEY_CACHE_TTL_MS;
      await keyring.openingKeys(['cus_1', 'cus_2']);
    }
    expect(learnt).toEqual(['cus_1', 'cus_2']);
  });

  it('opens nothing of a customer whose erasure is learnt while its values wait to be opened, and the others as asked', async () => {
    const { keys, keyring, personal } = inMemoryPersonalData();
    cleanups.push(() => keys.close());
    const value = async (customer: string, place: string) => ({ value: seal(await keyring.sealingKey(customer), customer, place, address), place, erased: ERASED_ADDRESS });
    const asked = [await value('cus_gone', 'order-1#address'), await value('cus_kept', 'order-2#address')];

    const reading = personal.open(asked);
    await keyring.destroy('cus_gone', new Date());
    expect(await reading).toEqual([ERASED_ADDRESS, address]);
    expect(await personal.open(asked)).toEqual([ERASED_ADDRESS, address]);
  });

  it('answers every read of one turn, each with its own values, sealed or in clear', async () => {
    const { keys, keyring, personal } = inMemoryPersonalData();
    cleanups.push(() => keys.close());
    const other = { ...address, name: 'Ada Lovelace' };
    const sealedFor = async (customer: string, place: string, data: typeof address) => ({ value: seal(await keyring.sealingKey(customer), customer, place, data), place, erased: ERASED_ADDRESS });
    const reads = await Promise.all([
      personal.open([await sealedFor('cus_a', 'order-a#address', address)]),
      personal.open([await sealedFor('cus_b', 'order-b#address', other), { value: address, place: 'order-c#address', erased: ERASED_ADDRESS }]),
      // Sealed for another place: it does not open here.
      personal.open([{ ...(await sealedFor('cus_a', 'order-d#address', other)), place: 'order-e#address' }]),
    ]);
    expect(reads).toEqual([[address], [other, address], [ERASED_ADDRESS]]);
  });
});

describe("a customer's standing, for placement", () => {
  it('is folded from the sealed records: active, erased or absent as through the seal, with none of the personal data opened', async () => {
    const dir = tempDir('personal-');
    cleanups.push(() => dir.remove());
    const events = new SqliteEventStore({ file: join(dir.path, 'events.sqlite3') });
    const { keys, keyring, personal } = inMemoryPersonalData();
    cleanups.push(() => keys.close(), () => events.close());
    const sealed = new SealingEventStore(events, personal, PERSONAL_DATA);
    const customers = new CustomerService(sealed, { erasure: new CustomerErasure(keyring), sealedRecords: events });
    const register = async (email: string) =>
      ((await customers.register(staff, { email, name: 'Grace Hopper', phone: '+1 555 0100', defaultAddress: address }, keyed(email))).state as { id: string }).id;
    const kept = await register('grace@example.com');
    const erased = await register('ada@example.com');
    await customers.change(staff, kept, { name: 'Grace B. Hopper' }, { correlationId: 'c' });
    await customers.erase(staff, erased, { correlationId: 'c' });
    // Its records hold personal data sealed: through the seal they open.
    const [registered] = await events.readStream(customerStream(kept));
    expect(isSealed(registered!.data.email)).toBe(true);
    expect((await customers.get(staff, kept))!.customer).toMatchObject({ status: 'active', name: 'Grace B. Hopper', email: 'grace@example.com' });

    const opened = vi.spyOn(personal, 'open');
    expect(await customers.standing(kept)).toBe('active');
    expect(await customers.standing(erased)).toBe('erased');
    expect(await customers.standing('cus_nobody')).toBe('absent');
    expect(opened).not.toHaveBeenCalled();
    // The same standings through the seal, which opens them.
    const throughSeal = new CustomerService(sealed);
    expect([await throughSeal.standing(kept), await throughSeal.standing(erased), await throughSeal.standing('cus_nobody')]).toEqual(['active', 'erased', 'absent']);
    expect(opened).toHaveBeenCalled();
  });
});
