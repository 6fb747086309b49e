// The customers' use cases: register, change and erase a customer, read one. Every one takes the
// viewer: a customer's token reads and changes only its own record (another reads as unknown),
// and registering or erasing customers is staff work. One email, one customer: the command
// handler claims a new email before the customer's event that takes it up and releases the old
// one after (unique-values.ts), so the rule holds across processes on both event stores.
import { isStaff, sees, type Viewer } from '../kernel/access.js';
import { CommandHandler, type CommandContext, type CommandResult } from '../kernel/command-handler.js';
import { decodeCustomerEvent, encodeCustomerEvent, customerStream } from './codec.js';
import { customerDecider } from './decider.js';
import type { Customer, CustomerClaimFenced, CustomerCommand, CustomerEvent, CustomerPatch, CustomerProfile } from './types.js';
import { CustomerNotFound, EmailInUse, Forbidden } from '../kernel/errors.js';
import type { EventStore, Position, RecordedEvent } from '../kernel/event-store.js';
import { keyId } from '../kernel/idempotency.js';
import type { CustomerErasure } from '../personal-data/erasure.js';
import type { Idempotent } from '../kernel/idempotency.js';
import type { WriteContext } from '../kernel/write-context.js';
import { CLAIM_FENCED, guardUnique, normalizeValue, UniqueValues, type UniqueValueSet, type UniqueValuesOptions } from '../kernel/unique-values.js';

// The customer's codec and decider know the fence marker by its name; it must stay unique-values.ts's.
const fenceMarker: CustomerClaimFenced['type'] = CLAIM_FENCED;
void fenceMarker;

export type CustomerResult = CommandResult<Customer, CustomerEvent>;

export interface CustomerSnapshot {
  readonly customer: Exclude<Customer, { status: 'absent' }>;
  readonly revision: number;
  readonly position: Position;
}

/** Whether an order may name the customer: a record that is active, none at all (a guest), or an erased one. */
export type CustomerStanding = 'active' | 'absent' | 'erased';

export interface CustomerServiceOptions {
  readonly clock?: () => Date;
  /** The email claims' grace period and clock (unique-values.ts). */
  readonly uniqueness?: UniqueValuesOptions;
  /** Destroys the key of the customer's personal data (personal-data/erasure.ts) before the erasure is recorded. */
  readonly erasure?: Pick<CustomerErasure, 'eraseCustomerData'>;
  /**
   * The same streams as written, personal data sealed (the store the sealing one wraps): where
   * `standing` reads, since a customer's status follows from its events' types alone, so that a
   * placement opens none of the customer's personal data. `store` by default.
   */
  readonly sealedRecords?: EventStore;
}

/** The prefix of the ids the service gives customers; guest ids on orders may be anything well-formed. */
export const CUSTOMER_ID_PREFIX = 'cus_';

/** The id a registration with this key gets: a retry lands on the same stream. */
export const customerIdFor = (principal: string, key: string): string => CUSTOMER_ID_PREFIX + keyId(principal, key).replaceAll('-', '');

function fold(events: readonly RecordedEvent[]): Customer {
  return events.reduce((state, recorded) => customerDecider.evolve(state, decodeCustomerEvent(recorded)), customerDecider.initialState());
}

/** The set of customers' emails: a customer holds its email while it is active with that email. */
export const CUSTOMER_EMAILS: UniqueValueSet = {
  name: 'customer-email',
  holds(events, value) {
    const customer = fold(events);
    return customer.status === 'active' && normalizeValue(customer.email) === value;
  },
  taken: () => new EmailInUse(),
};

export class CustomerService {
  private readonly handler: CommandHandler<Customer, CustomerCommand, CustomerEvent>;
  private readonly emails: UniqueValues;
  private readonly clock: () => Date;
  private readonly erasure: Pick<CustomerErasure, 'eraseCustomerData'> | null;
  private readonly sealedRecords: EventStore;

  constructor(
    private readonly store: EventStore,
    options: CustomerServiceOptions = {},
  ) {
    this.handler = new CommandHandler(store, customerDecider, { encode: encodeCustomerEvent, decode: decodeCustomerEvent });
    this.emails = new UniqueValues(store, CUSTOMER_EMAILS, options.uniqueness);
    this.clock = options.clock ?? (() => new Date());
    this.erasure = options.erasure ?? null;
    this.sealedRecords = options.sealedRecords ?? store;
  }

  /** Staff only. The id is the key's, so a retried registration lands on the same stream. */
  register(viewer: Viewer, profile: CustomerProfile, context: WriteContext & Idempotent): Promise<CustomerResult> {
    if (!isStaff(viewer)) throw new Forbidden('A customer token cannot create customers.');
    const customerId = customerIdFor(viewer.sub, context.idempotency.key);
    return this.run(viewer, customerId, { type: 'RegisterCustomer', data: { customerId, ...profile }, metadata: this.meta(viewer) }, context);
  }

  /** The merge patch applied to the customer as it is; a revision conflict decides again, unless the caller pinned one. */
  change(viewer: Viewer, customerId: string, patch: CustomerPatch, context: WriteContext & { expectedRevision?: number }): Promise<CustomerResult> {
    if (!sees(viewer, customerId)) throw new CustomerNotFound(customerId);
    return this.run(viewer, customerId, { type: 'ChangeCustomer', data: { customerId, patch }, metadata: this.meta(viewer) }, context);
  }

  /**
   * Staff only. Records the erasure (a guest customer's too) and frees the email; erasing an
   * erased customer changes nothing.
   */
  async erase(viewer: Viewer, customerId: string, context: WriteContext): Promise<CustomerResult> {
    if (!isStaff(viewer)) throw new Forbidden('A customer token cannot erase customers.');
    // Recorded first, while the email can still be read to free its claim; then the key goes. A
    // failure in between fails the request, and its retry (erasing again records nothing) destroys it.
    const result = await this.run(viewer, customerId, { type: 'EraseCustomer', data: { customerId }, metadata: this.meta(viewer) }, context);
    await this.erasure?.eraseCustomerData(viewer, customerId);
    return result;
  }

  /** The customer as the viewer may see it: null when it has no record or is not the viewer's. */
  async get(viewer: Viewer, customerId: string): Promise<CustomerSnapshot | null> {
    if (!sees(viewer, customerId)) return null;
    const events = await this.store.readStream(customerStream(customerId));
    const customer = fold(events);
    const last = events.at(-1);
    if (customer.status === 'absent' || !last) return null;
    return { customer, revision: last.revision, position: last.position };
  }

  /**
   * For order placement: whether the customer has an active record, none, or an erased one. The
   * fold's status never depends on a personal member, so it is folded from the sealed records.
   */
  async standing(customerId: string): Promise<CustomerStanding> {
    return fold(await this.sealedRecords.readStream(customerStream(customerId))).status;
  }

  private run(viewer: Viewer, customerId: string, command: CustomerCommand, context: WriteContext & Partial<Idempotent> & { expectedRevision?: number }) {
    const handlerContext: CommandContext = {
      principal: viewer.sub,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      ...(context.expectedRevision === undefined ? {} : { expectedRevision: context.expectedRevision }),
      ...(context.idempotency ? { idempotency: context.idempotency } : {}),
    };
    const stream = customerStream(customerId);
    const guard = guardUnique<Customer, CustomerEvent>(this.emails, stream, (state) => (state.status === 'active' ? state.email : null), handlerContext);
    return this.handler.handle(stream, command, handlerContext, undefined, guard);
  }

  private meta(viewer: Viewer) {
    return { now: this.clock().toISOString(), principal: viewer.sub };
  }
}
