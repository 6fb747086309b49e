// Order events, commands and state: readonly data, unions on `type` and `status`.
import type { Address, AddressPatch, ErasedAddress } from '../kernel/address.js';
import type { CommandMetadata } from '../kernel/write-context.js';

export type { Address, AddressPatch, ErasedAddress } from '../kernel/address.js';
export type { CommandMetadata } from '../kernel/write-context.js';

export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'cancelled';

/** An order line as a client sends it: the price, when sent, must be the catalogue's. */
export interface LineInput {
  readonly sku: string;
  readonly quantity: number;
  /** Integer minor units (1999 = 19.99). */
  readonly unitPrice?: number;
}

/** A line with its product's name and unit price, as the catalogue had them when the order was placed. */
export interface CataloguedLine {
  readonly sku: string;
  readonly name: string;
  readonly quantity: number;
  readonly unitPrice: number;
}

export interface OrderLine {
  readonly sku: string;
  /** Null on orders placed before the catalogue (OrderPlaced version 1 recorded no name). */
  readonly name: string | null;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly lineTotal: number;
}

// ---- events (past tense; schemaVersion changes when `data` changes shape) ----

/**
 * Version 2 added each line's `name`, taken from the catalogue with its price. Version 1 events
 * are upcast on read (orders/codec.ts) with name null: nobody recorded one.
 */
export type OrderPlaced = {
  readonly type: 'OrderPlaced';
  readonly schemaVersion: 2;
  readonly data: {
    readonly orderId: string;
    readonly customerId: string;
    readonly currency: string;
    readonly lines: readonly OrderLine[];
    readonly total: number;
    /** Erased when read back after its customer's erasure; a decided event always holds an Address. */
    readonly address: Address | ErasedAddress;
    readonly placedAt: string;
  };
};

export type OrderAddressChanged = {
  readonly type: 'OrderAddressChanged';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly address: Address | ErasedAddress; readonly changedAt: string };
};

export type PaymentMethod = 'card' | 'bank-transfer' | 'wallet' | 'unknown';

/**
 * Version 2 added `method`. Version 1 events are upcast on read (orders/codec.ts) with
 * method `unknown`, which is what they were: nobody recorded how the order was paid.
 */
export type PaymentRecorded = {
  readonly type: 'PaymentRecorded';
  readonly schemaVersion: 2;
  readonly data: {
    readonly orderId: string;
    readonly paymentId: string;
    readonly amount: number;
    readonly reference: string;
    readonly method: PaymentMethod;
    readonly recordedAt: string;
  };
};

export type ShipmentCreated = {
  readonly type: 'ShipmentCreated';
  readonly schemaVersion: 1;
  readonly data: {
    readonly orderId: string;
    readonly shipmentId: string;
    readonly carrier: string;
    readonly trackingNumber: string;
    readonly createdAt: string;
  };
};

export type OrderCancelled = {
  readonly type: 'OrderCancelled';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly reason: string | null; readonly cancelledAt: string };
};

/**
 * Written by the service, never by a client: a placement that reserved stock but never appended
 * its order (the process died between) is given up. Appended with no_stream, it makes a late
 * OrderPlaced of that placement fail, so the reservations can be released safely. Only ever an
 * order stream's first and only event; the order reads as unknown.
 */
export type OrderPlacementAbandoned = {
  readonly type: 'OrderPlacementAbandoned';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly abandonedAt: string };
};

export type OrderEvent = OrderPlaced | OrderAddressChanged | PaymentRecorded | ShipmentCreated | OrderCancelled | OrderPlacementAbandoned;
export type OrderEventType = OrderEvent['type'];

// ---- commands (imperative; the clock and ids arrive inside them) ----


export type PlaceOrder = {
  readonly type: 'PlaceOrder';
  readonly data: {
    readonly orderId: string;
    readonly customerId: string;
    readonly currency: string;
    readonly lines: readonly CataloguedLine[];
    readonly address: Address;
  };
  readonly metadata: CommandMetadata;
};

export type ChangeAddress = {
  readonly type: 'ChangeAddress';
  /** The patch is applied to the address as it is when the command is decided, not as a caller last read it. */
  readonly data: { readonly orderId: string; readonly patch: AddressPatch };
  readonly metadata: CommandMetadata;
};

export type RecordPayment = {
  readonly type: 'RecordPayment';
  readonly data: { readonly orderId: string; readonly paymentId: string; readonly amount: number; readonly reference: string; readonly method: PaymentMethod };
  readonly metadata: CommandMetadata;
};

export type CreateShipment = {
  readonly type: 'CreateShipment';
  readonly data: { readonly orderId: string; readonly shipmentId: string; readonly carrier: string; readonly trackingNumber: string };
  readonly metadata: CommandMetadata;
};

export type CancelOrder = {
  readonly type: 'CancelOrder';
  readonly data: { readonly orderId: string; readonly reason: string | null };
  readonly metadata: CommandMetadata;
};

/** The service cancels an order left unpaid too long; anything but a pending order is left as it is. */
export type ExpirePendingOrder = {
  readonly type: 'ExpirePendingOrder';
  readonly data: { readonly orderId: string };
  readonly metadata: CommandMetadata;
};

/** The service gives up a placement whose order was never appended (see OrderPlacementAbandoned). */
export type AbandonPlacement = {
  readonly type: 'AbandonPlacement';
  readonly data: { readonly orderId: string };
  readonly metadata: CommandMetadata;
};

export type OrderCommand = PlaceOrder | ChangeAddress | RecordPayment | CreateShipment | CancelOrder | ExpirePendingOrder | AbandonPlacement;

// ---- state ----

export interface Payment {
  readonly id: string;
  readonly amount: number;
  readonly reference: string;
  readonly method: PaymentMethod;
  readonly createdAt: string;
}

export interface Shipment {
  readonly id: string;
  readonly carrier: string;
  readonly trackingNumber: string;
  readonly createdAt: string;
}

export interface PlacedOrder {
  readonly status: OrderStatus;
  readonly id: string;
  readonly customerId: string;
  readonly currency: string;
  readonly lines: readonly OrderLine[];
  readonly total: number;
  readonly address: Address | ErasedAddress;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly payment: Payment | null;
  readonly shipment: Shipment | null;
  readonly cancellationReason: string | null;
}

/** `abandoned`: the placement was given up (OrderPlacementAbandoned); it can never be placed. */
export type Order = { readonly status: 'absent'; readonly abandoned?: true } | PlacedOrder;
