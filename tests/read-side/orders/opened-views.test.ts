// Order views answered as JSON text: each address opened in place, the rest of the text as stored.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenedViews } from '../../../read-side/orders/opened-views.js';
import type { OrderView } from '../../../read-side/orders/views.js';
import { SqliteKeyStore } from '../../../write-side/adapters/sqlite-key-store.js';
import { KEY_CACHE_TTL_MS, Keyring } from '../../../write-side/personal-data/keyring.js';
import { ERASED_ADDRESS, orderAddressPlace } from '../../../write-side/orders/personal-data.js';
import { PersonalData } from '../../../write-side/personal-data/personal-data.js';
import { tempDir } from '../../support/event-stores.js';
import { inMemoryPersonalData } from '../../support/personal-data.js';

const address = { name: 'Ada Lovelace', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', region: null, country: 'DE' };
const opened: Array<ReturnType<typeof inMemoryPersonalData>> = [];
afterEach(async () => {
  for (const { keys } of opened.splice(0)) await keys.close();
});

function personalData() {
  const data = inMemoryPersonalData();
  opened.push(data);
  return data;
}

function view(id: string, customerId: string, stored: unknown, lineName = 'Blue mug'): OrderView {
  return {
    id, customerId, status: 'paid', currency: 'EUR', lines: [{ sku: 'SKU-1', name: lineName, quantity: 2, unitPrice: 1999, lineTotal: 3998, shipped: 0, cancelled: 0, returned: 0 }], total: 3998, balance: { charged: 3998, paid: 3998, refunded: 0, due: 0 },
    address: stored as OrderView['address'], createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:05:00.000Z', revision: 1,
  };
}

const row = (v: OrderView) => ({ id: v.id, createdAt: v.createdAt, total: v.total, json: JSON.stringify(v) });

describe('OpenedViews.orderJson', () => {
  it('answers each stored view as the text of the view with its address opened, erased, or in clear as stored', async () => {
    const { personal, keyring } = personalData();
    const seal = async (customerId: string, orderId: string, value: object) => (await personal.sealer(customerId))(orderAddressPlace(orderId), value as never);
    const views = [
      view('o-1', 'cus_1', await seal('cus_1', 'o-1', address)),
      // Text that looks like an address member, and braces, inside strings.
      view('o-2', 'cus_2', await seal('cus_2', 'o-2', { ...address, line1: 'Flat "}" {2}' }), '"address":{"sealed":"x"}'),
      view('o-3', 'cus_3', await seal('cus_3', 'o-3', address)),
      // In clear, written before sealing began, with a brace in it.
      view('o-4', 'cus_4', { ...address, city: 'Bra}ces' }),
    ];
    await keyring.destroy('cus_3', new Date());

    const answered = await new OpenedViews(personal).orderJson(views.map(row));

    expect(answered.map((r) => r.json)).toEqual([
      JSON.stringify({ ...views[0], address }),
      JSON.stringify({ ...views[1], address: { ...address, line1: 'Flat "}" {2}' } }),
      JSON.stringify({ ...views[2], address: ERASED_ADDRESS }),
      JSON.stringify(views[3]),
    ]);
    expect(answered.map(({ id, createdAt }) => ({ id, createdAt }))).toEqual(views.map(({ id, createdAt }) => ({ id, createdAt })));
  });

  it('does not open an address sealed for another order', async () => {
    const { personal } = personalData();
    const moved = (await personal.sealer('cus_1'))(orderAddressPlace('o-1'), address as never);
    const [answered] = await new OpenedViews(personal).orderJson([row(view('o-2', 'cus_1', moved))]);
    expect(JSON.parse(answered!.json).address).toEqual(ERASED_ADDRESS);
  });

  it('keeps opened addresses for the next page while their keys stand; an erasure hides them, here at once and in another process within the key cache lifetime', async () => {
    const dir = tempDir('opened-views-');
    let clock = 1_000_000;
    const keys = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
    const otherKeys = new SqliteKeyStore(join(dir.path, 'keys.sqlite3'));
    const personal = new PersonalData(new Keyring(keys, { now: () => clock }));
    const eraser = new Keyring(otherKeys);
    let opened = 0;
    const counting = Object.assign(Object.create(personal) as PersonalData, {
      open: (...args: Parameters<PersonalData['open']>) => ((opened += args[0].length), personal.open(...args)),
    });
    const views = new OpenedViews(counting);
    try {
      const seal = async (customerId: string, orderId: string) => (await personal.sealer(customerId))(orderAddressPlace(orderId), address as never);
      const rows = [row(view('o-1', 'cus_1', await seal('cus_1', 'o-1'))), row(view('o-2', 'cus_2', await seal('cus_2', 'o-2')))];
      const addresses = async (options = {}) => (await views.orderJson(rows, options)).map((r) => JSON.parse(r.json).address);

      expect(await addresses()).toEqual([address, address]);
      expect(opened).toBe(2);
      expect(await addresses()).toEqual([address, address]);
      expect(opened).toBe(2); // kept
      await addresses({ fresh: true });
      expect(opened).toBe(4); // fresh: opened again

      await personal.keyring.destroy('cus_1', new Date());
      expect(await addresses()).toEqual([ERASED_ADDRESS, address]);
      await eraser.destroy('cus_2', new Date());
      clock += KEY_CACHE_TTL_MS;
      expect(await addresses()).toEqual([ERASED_ADDRESS, ERASED_ADDRESS]);
    } finally {
      await keys.close();
      await otherKeys.close();
      dir.remove();
    }
  });
});
