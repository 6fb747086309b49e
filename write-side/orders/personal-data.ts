// The personal data of orders: the address (the name is in it), sealed with the key of the
// order's customer. The events as the projections store them keep the seal: the read models
// never hold an address in clear, and a query opens it when it answers (read-side/).
import type { JsonObject } from '../kernel/event-store.js';
import type { RecordedEvent } from '../kernel/event-store.js';
import { decodeOrderEvent, ORDER_STREAM_PREFIX, orderStream } from './codec.js';
import type { Address, ErasedAddress, OrderEvent } from './types.js';
import type { Sealed } from '../personal-data/cipher.js';
import { placeOf, type PersonalDataRule } from '../personal-data/rules.js';

export const ERASED_ADDRESS: ErasedAddress = { name: null, line1: null, line2: null, city: null, postalCode: null, region: null, country: null };

const address = [{ name: 'address', erased: ERASED_ADDRESS }];

export const orderPersonalData: PersonalDataRule = {
  streamPrefix: ORDER_STREAM_PREFIX,
  fields: { OrderPlaced: address, OrderAddressChanged: address },
  // The customer is named by OrderPlaced, the first event of every order.
  subject: async (_stream, first) => {
    const customerId = (await first())?.data.customerId;
    return typeof customerId === 'string' ? customerId : null;
  },
};

/** Where an order's address is sealed: what opens it. */
export const orderAddressPlace = (orderId: string): string => placeOf(orderStream(orderId), 'address');

/** An address as events and views store it: sealed, or in clear when written before sealing began. */
export type StoredAddress = Address | Sealed;

type WithStoredAddress<E> = E extends { readonly data: { readonly address: unknown } }
  ? Omit<E, 'data'> & { readonly data: Omit<E['data'], 'address'> & { readonly address: StoredAddress } }
  : E;

/** An order event as stored, its address still sealed: what the projections read. */
export type StoredOrderEvent = WithStoredAddress<OrderEvent>;

/** Decodes (and upcasts) an order event as stored, without opening its address. */
export const decodeStoredOrderEvent = (recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): StoredOrderEvent =>
  decodeOrderEvent(recorded) as unknown as StoredOrderEvent;

export type { JsonObject };
