// Accounts and sign-in (HTTP-CONTRACT "Accounts and login"). POST /auth/login is public: it
// checks an email and a password and answers an OAuth 2.0 access token (RFC 6749 §5.1). The
// account routes need a token: the administrators' with accounts:admin, and /accounts/me (and
// its password) the caller's own, which only a token the service issued to an account has.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { AccountQueries } from '../../read-side/accounts/queries.js';
import { accountRepresentation } from '../../read-side/views.js';
import type { Role } from '../../write-side/kernel/access.js';
import type { AccountResult, AccountService } from '../../write-side/accounts/service.js';
import type { Account } from '../../write-side/accounts/types.js';
import { AccountNotFound } from '../../write-side/kernel/errors.js';
import type { WriteContext } from '../../write-side/kernel/write-context.js';
import { readJson } from '../body.js';
import { fingerprint, idempotencyKey, type InFlight } from '../idempotency.js';
import { requireScope } from '../middleware/auth.js';
import { validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN } from '../schemas.js';
import { bodyValidator, queryValidator } from '../validation.js';
import { holdingSlotIf, type WaitingRequests } from '../waiting.js';

/** What a sign-in answers: an access token for the account (made by bootstrap/, which holds the signing key). */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly scope: string;
}

export interface AccountRoutesDeps {
  readonly accounts: AccountService;
  readonly queries: AccountQueries;
  issueToken(account: Account): Promise<IssuedToken>;
}

type NewAccount = { email: string; password: string; role: Role; customerId?: string };
const validNewAccount = bodyValidator<NewAccount>('NewAccount');
const validPatch = bodyValidator<{ role?: Role; disabled?: boolean }>('AccountPatch');
const validPasswordChange = bodyValidator<{ currentPassword: string; newPassword: string }>('PasswordChange');
const validSignIn = bodyValidator<{ email: string; password: string }>('SignIn');
const validPageQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const ACCOUNT_ID = new RegExp(ORDER_ID_PATTERN);
const JSON_TYPES = ['application/json'];
const MERGE_PATCH = 'application/merge-patch+json';

/** POST /auth/login: no token needed. */
export function signInRoutes(deps: Pick<AccountRoutesDeps, 'accounts' | 'issueToken'>): Router {
  const router = new Router();
  router.post('/auth/login', async (ctx) => {
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
    const input = validSignIn(body);
    const { account } = await deps.accounts.signIn(input, writeContext(ctx));
    const token = await deps.issueToken(account);
    // RFC 6749 §5.1: a token answer is never cached.
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    ctx.body = { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope };
  });
  return router;
}

export function accountRoutes(deps: AccountRoutesDeps & { inFlight: InFlight; waiting: WaitingRequests }): Router {
  const { accounts, queries, inFlight, waiting } = deps;
  const router = new Router();

  router.post('/accounts', requireScope('accounts:admin'), async (ctx) => {
    const key = idempotencyKey(ctx);
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
    const input = validNewAccount(body);
    const { principal } = ctx.state;
    // The password stays out of the fingerprint, which is stored with the key: a retry is the same request whatever password it sends.
    const { password: _password, ...identity } = input;
    const print = fingerprint('POST', '/accounts', identity);
    const result = await inFlight.run(principal.sub, key, () =>
      accounts.create(principal, { ...input, customerId: input.customerId ?? null }, { ...writeContext(ctx), idempotency: { key, fingerprint: print } }),
    );
    const account = existing(result);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.set('Location', `/accounts/${account.id}`);
    sendAccount(ctx, 201, account, result);
  });

  router.get('/accounts', requireScope('accounts:admin'), async (ctx) => {
    const query = validPageQuery(ctx.query);
    const consistencyToken = ctx.get('Consistency-Token');
    const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
      queries.list(ctx.state.principal, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}), consistencyToken }),
    );
    if (page.nextCursor) ctx.set('Link', `</accounts?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
    ctx.set('Consistency-Token', page.reflects);
    ctx.body = { items: page.items, nextCursor: page.nextCursor };
  });

  // Before /accounts/:id, which would take `me` for an id.
  router.get('/accounts/me', async (ctx) => {
    const { account, revision } = await accounts.me(ctx.state.principal);
    ctx.body = accountRepresentation(account, revision);
  });

  router.post('/accounts/me/password', async (ctx) => {
    const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
    const input = validPasswordChange(body);
    const result = await accounts.changePassword(ctx.state.principal, input, writeContext(ctx));
    if (result.position) ctx.set('Consistency-Token', result.position);
    ctx.status = 204;
  });

  router.get('/accounts/:id', requireScope('accounts:admin'), async (ctx) => {
    const id = accountIdOf(ctx);
    const found = await accounts.get(ctx.state.principal, id);
    if (!found) throw new AccountNotFound(id);
    sendAccount(ctx, 200, found.account, found);
  });

  router.patch('/accounts/:id', requireScope('accounts:admin'), async (ctx) => {
    const body = await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } });
    const patch = validPatch(body);
    const result = await accounts.update(ctx.state.principal, accountIdOf(ctx), patch, writeContext(ctx));
    sendAccount(ctx, 200, existing(result), result);
  });

  return router;
}

function accountIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!ACCOUNT_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be an account id (a UUID)' }]);
  return id;
}

function writeContext(ctx: Context): WriteContext {
  return { correlationId: ctx.state.correlationId, causationId: ctx.state.correlationId };
}

function existing(result: AccountResult): Account {
  if (result.state.status === 'absent') throw new Error('command left no account');
  return result.state;
}

function sendAccount(ctx: Context, status: number, account: Account, at: { revision: number | null; position?: string | null }): void {
  ctx.status = status;
  if (at.position) ctx.set('Consistency-Token', at.position);
  ctx.body = accountRepresentation(account, at.revision ?? 0);
}
