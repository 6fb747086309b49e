// Accounts and sign-in (HTTP-CONTRACT "Accounts and login"). POST /auth/login is public: it
// checks an email and a password and answers an OAuth 2.0 access token (RFC 6749 §5.1). The
// account routes need a token: the administrators' with accounts:admin, and /accounts/me (and
// its password) the caller's own, which only a token the service issued to an account has.
import type { Context } from 'koa';
import type { AccountQueries } from '../../read-side/accounts/queries.js';
import { accountRepresentation } from '../../read-side/accounts/views.js';
import type { Role } from '../../write-side/kernel/access.js';
import type { AccountResult, AccountService } from '../../write-side/accounts/service.js';
import { SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS } from '../../write-side/accounts/sign-in-failures.js';
import type { Account } from '../../write-side/accounts/types.js';
import { AccountNotFound } from '../../write-side/kernel/errors.js';
import { readJson } from '../body.js';
import { keyedPost } from '../idempotency.js';
import { writeContext } from '../middleware/context.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, everyRequest, header, headerRef, idempotencyKey, json, mergePatchOnly, problem, queryParameters, rateLimitHeaders, ref, responseRef, retryAfter } from '../openapi-parts.js';
import { validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { accountSchemas } from './schemas.js';
import { holdingSlotIf } from '../waiting.js';

/** What a sign-in answers: an access token for the account (made by bootstrap/, which holds the signing key). */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly scope: string;
}

export interface AccountDeps {
  readonly accounts: AccountService;
  readonly queries: AccountQueries;
  issueToken(account: Account): Promise<IssuedToken>;
}
type Deps = AccountDeps & Shared;

type NewAccount = { email: string; password: string; role: Role; customerId?: string };
const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...accountSchemas });
const validNewAccount = bodyValidator<NewAccount>('NewAccount');
const validPatch = bodyValidator<{ role?: Role; disabled?: boolean }>('AccountPatch');
const validPasswordChange = bodyValidator<{ currentPassword: string; newPassword: string }>('PasswordChange');
const validSignIn = bodyValidator<{ email: string; password: string }>('SignIn');
const validPageQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const ACCOUNT_ID = new RegExp(ORDER_ID_PATTERN);
const JSON_TYPES = ['application/json'];
const MERGE_PATCH = 'application/merge-patch+json';
const accountId = { $ref: '#/components/parameters/AccountId' };

const operations: Operation<Deps>[] = [
  {
    method: 'post',
    path: '/auth/login',
    access: 'no-token',
    operationId: 'signIn',
    tags: ['accounts'],
    summary: 'Sign in: an access token for an email and a password',
    description:
      'No token needed. Answers RFC 6749 §5.1\'s fields: a bearer token signed like every token the service issues (sub = the account id, the role\'s scopes, customer_id for a customer account, account_version), lasting TOKEN_TTL_SECONDS. ' +
      'An unknown email, a wrong password and a disabled account get the same 401 invalid-credentials after the same work. ' +
      `After ${SIGN_IN_FAILURE_LIMIT} failures for one email within ${SIGN_IN_WINDOW_MS / 60_000} minutes, that email is answered 429 rate-limited (Retry-After: until the oldest of them is ${SIGN_IN_WINDOW_MS / 60_000} minutes old), whatever the password, while other emails still sign in. ` +
      'The failures are kept in the event store, so the limit holds across every API process and restart.',
    requestBody: { required: true, content: json(ref('SignIn')) },
    responses: {
      '200': {
        description: 'Signed in.',
        headers: { ...commonHeaders, 'Cache-Control': header('no-store (RFC 6749 §5.1)', { type: 'string', const: 'no-store' }, true), Pragma: header('no-cache (RFC 6749 §5.1)', { type: 'string', const: 'no-cache' }, true) },
        content: json(ref('AccessToken')),
      },
      '400': problem('malformed-json or validation-failed (with errors); and, on any request, token-in-query, unsupported-api-version or malformed-request.', 400, ['malformed-json', 'validation-failed', 'token-in-query', 'unsupported-api-version', 'malformed-request']),
      '401': problem('invalid-credentials: an unknown email, a wrong password or a disabled account (one answer for all).', 401, ['invalid-credentials'], { 'WWW-Authenticate': header('Bearer realm="orders"', { type: 'string', pattern: '^Bearer' }, true) }),
      ...everyRequest,
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '429': problem(`rate-limited: ${SIGN_IN_FAILURE_LIMIT} failed sign-ins for this email within ${SIGN_IN_WINDOW_MS / 60_000} minutes; Retry-After says when it may try again.`, 429, ['rate-limited'], { 'Retry-After': retryAfter(true) }),
      '503': responseRef('Unavailable'),
    },
    async handle(ctx, { accounts, issueToken }) {
      const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
      const input = validSignIn(body);
      const { account } = await accounts.signIn(input, writeContext(ctx));
      const token = await issueToken(account);
      // RFC 6749 §5.1: a token answer is never cached.
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Pragma', 'no-cache');
      ctx.body = { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn, scope: token.scope };
    },
  },
  {
    method: 'post',
    path: '/accounts',
    access: { scope: 'accounts:admin' },
    operationId: 'createAccount',
    tags: ['accounts'],
    summary: 'Create an account',
    description:
      'Needs accounts:admin and a token that is not a customer\'s. One account per email, whatever its case (409 email-in-use). A customer account names its customer (customerId: one that exists and was not erased, else 422 unknown-customer), the other roles none. ' +
      'A retry with the same Idempotency-Key and the same email, role and customer returns the first response with Idempotent-Replayed: true (the password is not part of what is compared, since it is never stored).',
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewAccount')) },
    responses: {
      '201': {
        description: 'The account was created (or this is a replay of the request that created it).',
        headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/accounts/{id}', { type: 'string' }, true), 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('Account')),
      },
      ...authProblems,
      '409': problem('email-in-use: another account has this email; or idempotency-key-in-use: the first request with this key is still running (with Retry-After).', 409, ['email-in-use', 'idempotency-key-in-use'], { 'Retry-After': retryAfter(false) }),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': problem(
        'idempotency-key-reused: the key was used with a different request; or unknown-customer: the customer account names a customer that does not exist or was erased (errors point at /customerId).',
        422,
        ['idempotency-key-reused', 'unknown-customer'],
      ),
    },
    async handle(ctx, { accounts, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validNewAccount,
        target: () => null,
        path: () => '/accounts',
        // The password stays out of the fingerprint, which is stored with the key: a retry is the same request whatever password it sends.
        fingerprinted: ({ password: _password, ...identity }) => identity,
        run: (input, _, context) => accounts.create(ctx.state.principal, { ...input, customerId: input.customerId ?? null }, context),
        location: (created) => `/accounts/${existing(created).id}`,
      });
      sendAccount(ctx, 201, existing(result), result);
    },
  },
  {
    method: 'get',
    path: '/accounts',
    access: { scope: 'accounts:admin' },
    operationId: 'listAccounts',
    tags: ['accounts'],
    summary: 'List accounts, newest first',
    description: 'Needs accounts:admin and a token that is not a customer\'s. From the accounts projection; the same paging and Consistency-Token rules as GET /orders.',
    parameters: [
      ...queryParameters('PageQuery', ['limit', 'cursor']),
      consistencyToken,
    ],
    responses: {
      '200': { description: 'A page of accounts.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') }, content: json(ref('AccountPage')) },
      ...authProblems,
    },
    async handle(ctx, { queries, waiting }) {
      const query = validPageQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        queries.list(ctx.state.principal, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}), consistencyToken }),
      );
      if (page.nextCursor) ctx.set('Link', `</accounts?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
  // Before /accounts/{id}, which would take `me` for an id.
  {
    method: 'get',
    path: '/accounts/me',
    access: 'any-token',
    operationId: 'getMyAccount',
    tags: ['accounts'],
    summary: 'The caller\'s own account',
    description: 'Any token the service issued (POST /auth/login); no scope needed. A token the service did not issue to an account (npm run token, an identity provider\'s) names no account: 404 not-found.',
    responses: {
      '200': { description: 'The account.', headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref('Account')) },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { accounts }) {
      const { account, revision } = await accounts.me(ctx.state.principal);
      ctx.body = accountRepresentation(account, revision);
    },
  },
  {
    method: 'post',
    path: '/accounts/me/password',
    access: 'any-token',
    operationId: 'changeMyPassword',
    tags: ['accounts'],
    summary: 'Change the caller\'s password',
    description:
      'Any token the service issued; no scope needed (404 for a token that names no account). The current password must be given: a wrong one is 401 invalid-credentials and counts as a failed sign-in of the account\'s email (429 after the limit). ' +
      'Afterwards every token issued to the account before is refused (401) within 5 s in every API process: sign in again.',
    requestBody: { required: true, content: json(ref('PasswordChange')) },
    responses: {
      '204': { description: 'The password was changed.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
      ...authProblems,
      '401': problem('unauthenticated: the token (see components/responses/Unauthenticated); or invalid-credentials: the current password is wrong.', 401, ['unauthenticated', 'invalid-credentials'], { 'WWW-Authenticate': header('Bearer realm="orders"', { type: 'string', pattern: '^Bearer' }, true) }),
      '404': responseRef('NotFound'),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
    },
    async handle(ctx, { accounts }) {
      const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
      const input = validPasswordChange(body);
      const result = await accounts.changePassword(ctx.state.principal, input, writeContext(ctx));
      if (result.position) ctx.set('Consistency-Token', result.position);
      ctx.status = 204;
    },
  },
  {
    method: 'get',
    path: '/accounts/{id}',
    pathParameters: [accountId],
    access: { scope: 'accounts:admin' },
    operationId: 'getAccount',
    tags: ['accounts'],
    summary: 'Read an account',
    description: 'Needs accounts:admin. Always current (folded from the account\'s history). A customer token reads only its own account (403 for any other).',
    responses: {
      '200': { description: 'The account.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Account')) },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { accounts }) {
      const id = accountIdOf(ctx);
      const found = await accounts.get(ctx.state.principal, id);
      if (!found) throw new AccountNotFound(id);
      sendAccount(ctx, 200, found.account, found);
    },
  },
  {
    method: 'patch',
    path: '/accounts/{id}',
    pathParameters: [accountId],
    access: { scope: 'accounts:admin' },
    operationId: 'changeAccount',
    tags: ['accounts'],
    summary: 'Change the role, disable or enable an account (JSON Merge Patch)',
    description:
      'Needs accounts:admin and a token that is not a customer\'s. Only `role` and `disabled` may appear; the customer role is given only at creation and never taken away (400 validation-failed). ' +
      'Disabling an account, or changing its role, refuses every token issued to it before (401) within 5 s in every API process; a disabled account cannot sign in.',
    requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('AccountPatch') } } },
    responses: {
      '200': { description: 'The account.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Account')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '413': responseRef('PayloadTooLarge'),
      '415': mergePatchOnly(),
    },
    async handle(ctx, { accounts }) {
      const body = await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } });
      const patch = validPatch(body);
      const result = await accounts.update(ctx.state.principal, accountIdOf(ctx), patch, writeContext(ctx));
      sendAccount(ctx, 200, existing(result), result);
    },
  },
];

export const accountsArea = area<AccountDeps, Deps, typeof accountSchemas>({
  schemas: accountSchemas,
  tags: [{ name: 'accounts', description: 'Accounts and sign-in' }],
  operations,
  deps: ({ inFlight, waiting }, own) => own && { ...own, inFlight, waiting },
  standings: (own) => own.accounts,
});

function accountIdOf(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!ACCOUNT_ID.test(id)) throw validationFailed([{ pointer: '/path/id', message: 'must be an account id (a UUID)' }]);
  return id;
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
