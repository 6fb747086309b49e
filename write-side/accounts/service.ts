// Accounts on the write side: creating and changing them (the administrator's use cases), a
// person's own account and password, signing in, and whether a token issued to an account
// still stands. Every use case takes the viewer and confines itself: accounts belong to no
// single customer, so a customer's token may read and change only its own.
import { LRUCache } from 'lru-cache';
import { v4 as uuidv4 } from 'uuid';
import { isStaff, type Role, type Viewer } from '../kernel/access.js';
import { accountStream, decodeAccountEvent, encodeAccountEvent, ACCOUNT_STREAM_PREFIX } from './codec.js';
import { accountDecider } from './decider.js';
import type { Account, AccountCommand, AccountEvent, AccountEventType, AccountState } from './types.js';
import { CommandHandler, type AppendGuard, type CommandResult } from '../kernel/command-handler.js';
import { AccountNotFound, EmailInUse, Forbidden, InvalidCredentials, SignInThrottled, UnknownCustomer } from '../kernel/errors.js';
import type { EventStore } from '../kernel/event-store.js';
import { keyId, type IdempotencyRequest } from '../kernel/idempotency.js';
import type { WriteContext } from '../kernel/write-context.js';
import { checkPassword, type PasswordHasher } from './passwords.js';
import { SignInFailures } from './sign-in-failures.js';
import { CLAIM_FENCED, guardUnique, normalizeValue, UniqueValues, type UniqueValueSet, type UniqueValuesOptions } from '../kernel/unique-values.js';

export type AccountResult = CommandResult<AccountState, AccountEvent>;

/** Whether an account's tokens still stand: the version they must carry, and whether it is disabled. */
export interface TokenStanding {
  readonly tokenVersion: number;
  readonly disabled: boolean;
}

export interface AccountServiceOptions {
  readonly clock?: () => Date;
  readonly newId?: () => string;
  /**
   * How long an account's standing is kept before the stream is read again. A disabled account
   * or a changed password refuses earlier tokens at most this long after, in every process.
   */
  readonly standingTtlMs?: number;
  /** The email claims' grace period and clock. */
  readonly claims?: UniqueValuesOptions;
  /** The customers: a `customer` account must name one that exists and was not erased. */
  readonly customers?: { standing(customerId: string): Promise<'active' | 'absent' | 'erased'> };
}

export interface NewAccount {
  readonly email: string;
  readonly password: string;
  readonly role: Role;
  readonly customerId?: string | null;
}

/** An email as accounts keep and compare it: one spelling, whatever its case. */
export const normaliseEmail = (email: string): string => normalizeValue(email.trim());

/** The fence marker the accounts' codec names by its text: the same type, or this does not compile. */
const fenceMarker: Extract<AccountEventType, 'UniqueValueClaimFenced'> = CLAIM_FENCED;
void fenceMarker;

const ACCOUNT_EMAILS: UniqueValueSet = {
  name: 'account-email',
  holds: (events, email) => {
    const state = events.reduce((s, r) => accountDecider.evolve(s, decodeAccountEvent(r)), accountDecider.initialState());
    return state.status !== 'absent' && state.email === email;
  },
  taken: () => new EmailInUse(),
};

export class AccountService {
  private readonly handler: CommandHandler<AccountState, AccountCommand, AccountEvent>;
  private readonly clock: () => Date;
  private readonly newId: () => string;
  private readonly failures: SignInFailures;
  private readonly standings: LRUCache<string, TokenStanding | 'none'>;
  /** One account per email (unique-values.ts: the same set validation as customers'). */
  private readonly emails: UniqueValues;
  /** Checked against for an unknown email, so that it costs what a wrong password costs. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly passwords: PasswordHasher,
    private readonly options: AccountServiceOptions = {},
  ) {
    this.handler = new CommandHandler(store, accountDecider, { encode: encodeAccountEvent, decode: decodeAccountEvent });
    this.clock = options.clock ?? (() => new Date());
    this.newId = options.newId ?? uuidv4;
    this.failures = new SignInFailures(store, this.clock);
    this.standings = new LRUCache({ max: 100_000, ttl: options.standingTtlMs ?? 2000 });
    this.emails = new UniqueValues(store, ACCOUNT_EMAILS, options.claims);
  }

  /**
   * The account's id is the key's id, so a retried creation lands on the same stream. The email
   * is claimed for it first: another account's email is refused before anything of the account is written.
   */
  async create(viewer: Viewer, input: NewAccount, context: WriteContext & { idempotency?: IdempotencyRequest }): Promise<AccountResult> {
    if (!isStaff(viewer)) throw new Forbidden('Accounts belong to no single customer: a customer token cannot create one.');
    checkPassword(input.password, '/password');
    const email = normaliseEmail(input.email);
    const customerId = input.customerId ?? null;
    if (customerId !== null && input.role === 'customer' && this.options.customers) {
      const standing = await this.options.customers.standing(customerId);
      if (standing !== 'active') throw new UnknownCustomer(customerId, standing);
    }
    const accountId = context.idempotency ? keyId(viewer.sub, context.idempotency.key) : this.newId();
    const passwordHash = await this.passwords.hash(input.password);
    const command: AccountCommand = { type: 'CreateAccount', data: { accountId, email, role: input.role, customerId, passwordHash }, metadata: this.meta() };
    // The email is claimed just before the account's append, and after a key another request holds was refused.
    const claim = { principal: viewer.sub, correlationId: context.correlationId, causationId: context.causationId ?? null };
    const guard = guardUnique<AccountState, AccountEvent>(this.emails, accountStream(accountId), (state) => (state.status === 'absent' ? null : state.email), claim);
    return this.run(viewer, accountId, command, context, guard);
  }

  /** Role and disabled, as a merge patch gives them; the account's earlier tokens are refused after either changes. */
  async update(viewer: Viewer, accountId: string, patch: { role?: Role; disabled?: boolean }, context: WriteContext): Promise<AccountResult> {
    if (!isStaff(viewer)) throw new Forbidden('Accounts belong to no single customer: a customer token cannot change one.');
    const result = await this.run(viewer, accountId, { type: 'UpdateAccount', data: { accountId, ...patch }, metadata: this.meta() }, context);
    this.standings.delete(accountId);
    return result;
  }

  /** The account, current (folded from its stream); a customer's token sees only its own. Null when unknown or not the viewer's. */
  async get(viewer: Viewer, accountId: string): Promise<{ account: Account; revision: number } | null> {
    if (!isStaff(viewer) && viewer.sub !== accountId) throw new Forbidden('Accounts belong to no single customer: a customer token reads only its own.');
    return this.load(accountId);
  }

  /** The viewer's own account; AccountNotFound for a token that names no account (one the service did not issue). */
  async me(viewer: Viewer): Promise<{ account: Account; revision: number }> {
    const found = await this.load(viewer.sub);
    if (!found) throw new AccountNotFound(viewer.sub);
    return found;
  }

  /**
   * The viewer's own password. The current one must be given, and a wrong one counts as a failed
   * sign-in of the account's email. The account's earlier tokens are refused afterwards.
   */
  async changePassword(viewer: Viewer, input: { currentPassword: string; newPassword: string }, context: WriteContext): Promise<AccountResult> {
    const found = await this.me(viewer);
    const { email } = found.account;
    const wait = await this.failures.retryAfterSeconds(email);
    if (wait !== null) throw new SignInThrottled(wait);
    if (!(await this.passwords.verify(found.account.passwordHash, input.currentPassword))) {
      await this.failures.record(email, context);
      throw new InvalidCredentials();
    }
    checkPassword(input.newPassword, '/newPassword');
    const passwordHash = await this.passwords.hash(input.newPassword);
    const result = await this.run(viewer, found.account.id, { type: 'ChangePassword', data: { accountId: found.account.id, passwordHash }, metadata: this.meta() }, context);
    this.standings.delete(found.account.id);
    return result;
  }

  /**
   * The account whose email and password these are. An unknown email, a wrong password and a
   * disabled account fail alike, after the same work: a password is checked against a hash in
   * every case. An email with too many recent failures is refused without checking anything.
   */
  async signIn(input: { email: string; password: string }, context: WriteContext): Promise<{ account: Account; revision: number }> {
    const email = normaliseEmail(input.email);
    const wait = await this.failures.retryAfterSeconds(email);
    if (wait !== null) throw new SignInThrottled(wait);
    const holder = await this.emails.holder(email);
    const held = holder?.startsWith(ACCOUNT_STREAM_PREFIX) ? await this.load(holder.slice(ACCOUNT_STREAM_PREFIX.length)) : null;
    // A claim whose account was never written (its creation died) holds no account.
    const found = held?.account.email === email ? held : null;
    const hash = found?.account.passwordHash ?? (await this.dummy());
    const matches = await this.passwords.verify(hash, input.password);
    if (!found || !matches || found.account.status === 'disabled') {
      await this.failures.record(email, context);
      throw new InvalidCredentials();
    }
    return found;
  }

  /**
   * Whether tokens issued to the account still stand, as of at most `standingTtlMs` ago (and at
   * once after a change made through this process). `undefined`: not known here now, ask `standing`.
   */
  knownStanding(accountId: string): TokenStanding | null | undefined {
    const kept = this.standings.get(accountId);
    return kept === 'none' ? null : kept;
  }

  async standing(accountId: string): Promise<TokenStanding | null> {
    const kept = this.knownStanding(accountId);
    if (kept !== undefined) return kept;
    const found = await this.load(accountId);
    const standing = found ? { tokenVersion: found.account.tokenVersion, disabled: found.account.status === 'disabled' } : null;
    this.standings.set(accountId, standing ?? 'none');
    return standing;
  }

  /** Whether any account exists at all (the first start creates the first administrator). */
  async anyAccount(): Promise<boolean> {
    return (await this.store.readAll({ maxCount: 1, streamPrefixes: [ACCOUNT_STREAM_PREFIX] })).length > 0;
  }

  private async load(accountId: string): Promise<{ account: Account; revision: number } | null> {
    const recorded = await this.store.readStream(accountStream(accountId));
    const state = recorded.reduce((s, r) => accountDecider.evolve(s, decodeAccountEvent(r)), accountDecider.initialState());
    return state.status === 'absent' ? null : { account: state, revision: recorded.at(-1)!.revision };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.passwords.hash(`not a password ${this.newId()}`);
    return this.dummyHash;
  }

  private run(
    viewer: Viewer,
    accountId: string,
    command: AccountCommand,
    context: WriteContext & { idempotency?: IdempotencyRequest },
    guard?: AppendGuard<AccountState, AccountEvent>,
  ) {
    const handlerContext = {
      principal: viewer.sub,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      ...(context.idempotency ? { idempotency: context.idempotency } : {}),
    };
    return this.handler.handle(accountStream(accountId), command, handlerContext, undefined, guard);
  }

  private meta() {
    return { now: this.clock().toISOString() };
  }
}
