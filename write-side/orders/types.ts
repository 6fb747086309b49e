// Order events, commands and state: readonly data, unions on `type` and `status`.
import type { Address, AddressPatch, ErasedAddress } from '../kernel/address.js';
import type { CommandMetadata } from '../kernel/write-context.js';

export type { Address, AddressPatch, ErasedAddress } from '../kernel/address.js';
export type { CommandMetadata } from '../kernel/write-context.js';

/**
 * `partially_shipped` (since 2027-01-01): paid, part of it shipped, the rest still to ship.
 * Clients of earlier API versions read it as `paid` (api/orders/).
 */
export type OrderStatus = 'pending' | 'paid' | 'partially_shipped' | 'shipped' | 'cancelled';

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
  /**
   * The product's low-stock threshold as the same read of the catalogue found it (0: none): what
   * the line's reservation carries to the stock decider, so that a placement reads no product
   * twice. Never recorded on the order.
   */
  readonly lowStockThreshold?: number;
}

export interface OrderLine {
  readonly sku: string;
  /** Null on orders placed before the catalogue (OrderPlaced version 1 recorded no name). */
  readonly name: string | null;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly lineTotal: number;
}

/** A SKU and a quantity of it: what a shipment, a return or an edit names. */
export interface SkuQuantity {
  readonly sku: string;
  readonly quantity: number;
}

/** A line of a return's receipt: `restock` units go back on hand, the others (damaged) do not. */
export interface ReceivedLine extends SkuQuantity {
  readonly restock: boolean;
}

/** An order line as the order holds it now: what of it has shipped, was cancelled and came back. */
export interface LineState extends OrderLine {
  readonly shipped: number;
  readonly cancelled: number;
  readonly returned: number;
}

/**
 * The order's money, in minor units (HTTP-CONTRACT "Orders after payment"):
 * charged = Σ unitPrice × (quantity − cancelled − returned); due = charged − paid + refunded.
 */
export interface Balance {
  readonly charged: number;
  readonly paid: number;
  readonly refunded: number;
  readonly due: number;
}

export type RefundReason = 'return' | 'cancellation' | 'goodwill' | 'other';
export const REFUND_REASONS: readonly RefundReason[] = ['return', 'cancellation', 'goodwill', 'other'];

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

/**
 * Version 2 added `lines`, what the shipment holds. A version 1 shipment shipped everything that
 * remained, which is what its upcast `lines: null` says (the decider's evolve knows what remained).
 */
export type ShipmentCreated = {
  readonly type: 'ShipmentCreated';
  readonly schemaVersion: 2;
  readonly data: {
    readonly orderId: string;
    readonly shipmentId: string;
    readonly carrier: string;
    readonly trackingNumber: string;
    readonly lines: readonly SkuQuantity[] | null;
    readonly createdAt: string;
  };
};

export type ReturnRequested = {
  readonly type: 'ReturnRequested';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly returnId: string; readonly lines: readonly SkuQuantity[]; readonly reason: string; readonly requestedAt: string };
};

export type ReturnReceived = {
  readonly type: 'ReturnReceived';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly returnId: string; readonly lines: readonly ReceivedLine[]; readonly receivedAt: string };
};

export type ReturnCancelled = {
  readonly type: 'ReturnCancelled';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly returnId: string; readonly cancelledAt: string };
};

export type RefundRecorded = {
  readonly type: 'RefundRecorded';
  readonly schemaVersion: 1;
  readonly data: { readonly orderId: string; readonly refundId: string; readonly amount: number; readonly reason: RefundReason; readonly note: string | null; readonly recordedAt: string };
};

/** The order's lines replaced by a complete new set: kept SKUs keep their price, new ones took the catalogue's. */
export type OrderEdited = {
  readonly type: 'OrderEdited';
  readonly schemaVersion: 1;
  readonly data: {
    readonly orderId: string;
    readonly editId: string;
    readonly before: readonly OrderLine[];
    readonly after: readonly OrderLine[];
    readonly total: number;
    readonly editedAt: string;
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

export type OrderEvent =
  | OrderPlaced
  | OrderAddressChanged
  | PaymentRecorded
  | ShipmentCreated
  | OrderCancelled
  | OrderPlacementAbandoned
  | ReturnRequested
  | ReturnReceived
  | ReturnCancelled
  | RefundRecorded
  | OrderEdited;
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

/** Without `lines`, ships everything that remains. */
export type CreateShipment = {
  readonly type: 'CreateShipment';
  readonly data: { readonly orderId: string; readonly shipmentId: string; readonly carrier: string; readonly trackingNumber: string; readonly lines?: readonly SkuQuantity[] };
  readonly metadata: CommandMetadata;
};

export type RequestReturn = {
  readonly type: 'RequestReturn';
  readonly data: { readonly orderId: string; readonly returnId: string; readonly lines: readonly SkuQuantity[]; readonly reason: string };
  readonly metadata: CommandMetadata;
};

export type ReceiveReturn = {
  readonly type: 'ReceiveReturn';
  readonly data: { readonly orderId: string; readonly returnId: string; readonly lines: readonly ReceivedLine[] };
  readonly metadata: CommandMetadata;
};

export type CancelReturn = {
  readonly type: 'CancelReturn';
  readonly data: { readonly orderId: string; readonly returnId: string };
  readonly metadata: CommandMetadata;
};

export type RecordRefund = {
  readonly type: 'RecordRefund';
  readonly data: { readonly orderId: string; readonly refundId: string; readonly amount: number; readonly reason: RefundReason; readonly note: string | null };
  readonly metadata: CommandMetadata;
};

/**
 * The order's complete new set of lines. `prices` holds today's catalogue line (name and price)
 * of every SKU the order does not hold yet: kept SKUs keep the line they were placed with.
 */
export type EditOrder = {
  readonly type: 'EditOrder';
  readonly data: { readonly orderId: string; readonly editId: string; readonly lines: readonly SkuQuantity[]; readonly prices: readonly CataloguedLine[] };
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

export type OrderCommand =
  | PlaceOrder
  | ChangeAddress
  | RecordPayment
  | CreateShipment
  | CancelOrder
  | ExpirePendingOrder
  | AbandonPlacement
  | RequestReturn
  | ReceiveReturn
  | CancelReturn
  | RecordRefund
  | EditOrder;

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
  /** What it shipped of each SKU. */
  readonly lines: readonly SkuQuantity[];
  readonly createdAt: string;
}

export type ReturnStatus = 'requested' | 'received' | 'cancelled';

export interface Return {
  readonly id: string;
  readonly status: ReturnStatus;
  /** What was asked to come back. */
  readonly lines: readonly SkuQuantity[];
  readonly reason: string;
  /** What came back, once received. */
  readonly received: readonly ReceivedLine[] | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Refund {
  readonly id: string;
  readonly amount: number;
  readonly reason: RefundReason;
  readonly note: string | null;
  readonly createdAt: string;
}

export interface PlacedOrder {
  readonly status: OrderStatus;
  readonly id: string;
  readonly customerId: string;
  readonly currency: string;
  readonly lines: readonly LineState[];
  readonly total: number;
  readonly address: Address | ErasedAddress;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly payment: Payment | null;
  /** Oldest first. */
  readonly shipments: readonly Shipment[];
  readonly returns: readonly Return[];
  readonly refunds: readonly Refund[];
  readonly balance: Balance;
  readonly cancellationReason: string | null;
}

/** `abandoned`: the placement was given up (OrderPlacementAbandoned); it can never be placed. */
export type Order = { readonly status: 'absent'; readonly abandoned?: true } | PlacedOrder;
