// Webhook subscriptions (HTTP-CONTRACT "Webhooks"): writes go to the write side's webhook service
// (admins only: webhooks:admin, and never a customer's token, which the service refuses itself),
// single reads fold the subscription's stream (always current), the collection comes from the
// webhook-subscriptions read model. The secret is answered by the creation and by a rotation alone.
// A subscription's deliveries come from the webhook-deliveries read model; a retry is recorded in
// its delivery log (WebhookDeliveryService), which the delivery worker reads. A replay is a job
// (GET /jobs/{id}), which the delivery worker runs.
// The messages sent to the subscribed URLs are declared in messages.ts (the document's webhooks).
import type { Context } from 'koa';
import type { DeliveryListRequest, WebhookDeliveryQueries, WebhookSubscriptionQueries } from '../../read-side/webhooks/queries.js';
import { subscriptionRepresentation } from '../../read-side/webhooks/views.js';
import { SubscriptionNotFound } from '../../write-side/webhooks/rules.js';
import type { WebhookDeliveryService } from '../../write-side/webhooks/deliveries.js';
import type { NewSubscription, ReplayRange, SubscriptionSnapshot, SubscriptionWithSecret, WebhookService } from '../../write-side/webhooks/service.js';
import type { SubscriptionPatch } from '../../write-side/webhooks/types.js';
import { readJson } from '../body.js';
import { keyedPost } from '../idempotency.js';
import { writeContext } from '../middleware/context.js';
import { area, type Operation, type Shared } from '../operation.js';
import { authProblems, commonHeaders, consistencyToken, header, headerRef, idempotencyKey, json, mergePatchOnly, problem, queryParameters, rateLimitHeaders, ref, responseRef, retryAfter } from '../openapi-parts.js';
import { ifMatchRevision, matchesNoneMatch } from '../preconditions.js';
import { validationFailed } from '../problem.js';
import { ORDER_ID_PATTERN, sharedSchemas } from '../schemas.js';
import { validators } from '../validation.js';
import { holdingSlotIf } from '../waiting.js';
import { replayRepresentation } from '../jobs/representation.js';
import { messageWebhooks, webhookMessageSchemas } from './messages.js';
import { webhookSchemas } from './schemas.js';

export interface WebhookDeps {
  readonly webhooks: WebhookService;
  readonly subscriptionQueries: WebhookSubscriptionQueries;
  readonly deliveries: WebhookDeliveryService;
  readonly deliveryQueries: WebhookDeliveryQueries;
}
type Deps = WebhookDeps & Shared;

const { bodyValidator, queryValidator } = validators({ ...sharedSchemas, ...webhookSchemas });
const validNew = bodyValidator<NewSubscription>('NewWebhookSubscription');
const validPatch = bodyValidator<SubscriptionPatch>('WebhookSubscriptionPatch');
const validReplay = bodyValidator<ReplayRange>('NewWebhookReplay');
const validPageQuery = queryValidator<{ limit: number; cursor?: string }>('PageQuery');
const validDeliveryQuery = queryValidator<Omit<DeliveryListRequest, 'consistencyToken'>>('WebhookDeliveryQuery');
const SUBSCRIPTION_ID = new RegExp(ORDER_ID_PATTERN);
const MERGE_PATCH = 'application/merge-patch+json';
const subscriptionId = { name: 'id', in: 'path', required: true, description: 'The subscription id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } };
const deliveryId = { name: 'deliveryId', in: 'path', required: true, description: 'The delivery id, a UUID (as the delivery page shows it).', schema: { type: 'string', pattern: ORDER_ID_PATTERN } };
const ifMatch = { name: 'If-Match', in: 'header', required: false, description: 'An ETag of this subscription; 412 when it has moved on.', schema: { type: 'string' } };
/** A single subscription's answer: its revision, and the log position it reflects. */
const subscriptionHeaders = { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') };
/** An answer that shows a secret is never stored by a cache. */
const noStore = { 'Cache-Control': header('no-store: the answer holds a secret', { type: 'string', const: 'no-store' }, true) };
const ADMINS_ONLY = 'Needs webhooks:admin (the admin role has it) and a token that is not a customer\'s (403 otherwise, whatever its scopes).';
const GONE = 'An unknown or deleted subscription is 404.';

const operations: Operation<Deps>[] = [
  {
    method: 'post',
    path: '/webhook-subscriptions',
    access: { scope: 'webhooks:admin' },
    operationId: 'createWebhookSubscription',
    tags: ['webhooks'],
    summary: 'Subscribe a URL to events',
    description:
      `${ADMINS_ONLY} The subscription starts active, with a new signing secret that this answer alone shows (a retry with the same Idempotency-Key shows the same one again). ` +
      'A URL that is not https, carries credentials, or names a non-public host that WEBHOOK_ALLOWED_HOSTS does not list is 422 webhook-url-refused, and nothing is created. ' +
      'An event type that is not one of the contract\'s, or "*" beside another, is 400 validation-failed. The id is a UUID derived from the Idempotency-Key, so a retry lands on the same subscription. ' +
      'Served under every API version (the API has no per-version routes); apiVersion chooses the representation the messages carry.',
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewWebhookSubscription')) },
    responses: {
      '201': {
        description: 'The subscription was created (or this is a replay of the request that created it), with its secret.',
        headers: { ...subscriptionHeaders, ...noStore, Location: header('/webhook-subscriptions/{id}', { type: 'string' }, true), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('WebhookSubscriptionWithSecret')),
      },
      ...authProblems,
      '409': problem('idempotency-key-in-use: the first request with this key is still running (with Retry-After).', 409, ['idempotency-key-in-use'], { 'Retry-After': retryAfter(false) }),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': problem(
        'webhook-url-refused: the URL may not receive messages (detail says why; errors point at /url); or idempotency-key-reused: the key was used with a different request.',
        422,
        ['webhook-url-refused', 'idempotency-key-reused'],
      ),
    },
    async handle(ctx, { webhooks, inFlight }) {
      const result = await keyedPost(ctx, inFlight, {
        validate: validNew,
        target: () => null,
        path: () => '/webhook-subscriptions',
        run: (input, _, context) => webhooks.create(ctx.state.principal, input, context),
        location: (created) => `/webhook-subscriptions/${created.subscription.id}`,
      });
      sendWithSecret(ctx, 201, result);
    },
  },
  {
    method: 'get',
    path: '/webhook-subscriptions',
    access: { scope: 'webhooks:admin' },
    operationId: 'listWebhookSubscriptions',
    tags: ['webhooks'],
    summary: 'List webhook subscriptions, newest first',
    description: `${ADMINS_ONLY} Deleted subscriptions are left out; no secret is shown. From the webhook-subscriptions projection: the same paging and Consistency-Token rules as GET /orders.`,
    parameters: [...queryParameters('PageQuery', ['limit', 'cursor']), consistencyToken],
    responses: {
      '200': {
        description: 'One page of subscriptions.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('WebhookSubscriptionPage')),
      },
      ...authProblems,
    },
    async handle(ctx, { subscriptionQueries, waiting }) {
      const query = validPageQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () =>
        subscriptionQueries.list(ctx.state.principal, { limit: query.limit, ...(query.cursor === undefined ? {} : { cursor: query.cursor }), consistencyToken }),
      );
      if (page.nextCursor) ctx.set('Link', `</webhook-subscriptions?${new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })}>; rel="next"`);
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
  {
    method: 'get',
    path: '/webhook-subscriptions/{id}',
    pathParameters: [subscriptionId],
    access: { scope: 'webhooks:admin' },
    operationId: 'getWebhookSubscription',
    tags: ['webhooks'],
    summary: 'Read a webhook subscription',
    description: `${ADMINS_ONLY} Always current: folded from the subscription's history. No secret is shown. ${GONE}`,
    parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this subscription; 304 when one is current.', schema: { type: 'string' } }],
    responses: {
      '200': { description: 'The subscription.', headers: subscriptionHeaders, content: json(ref('WebhookSubscription')) },
      '304': { description: 'The subscription still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { webhooks }) {
      const id = subscriptionIdOf(ctx);
      const found = await webhooks.get(ctx.state.principal, id);
      if (!found) throw new SubscriptionNotFound(id);
      const etag = `"${found.revision}"`;
      if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
        ctx.status = 304;
        ctx.set('ETag', etag);
        return;
      }
      send(ctx, 200, found);
    },
  },
  {
    method: 'patch',
    path: '/webhook-subscriptions/{id}',
    pathParameters: [subscriptionId],
    access: { scope: 'webhooks:admin' },
    operationId: 'changeWebhookSubscription',
    tags: ['webhooks'],
    summary: 'Change a webhook subscription (JSON Merge Patch)',
    description:
      `${ADMINS_ONLY} url, events, status and description may appear. status may be set to active or paused: paused stops the messages until it is active again; ` +
      'a subscription the service disabled (every delivery failed for 3 days) is re-enabled by an admin setting it active (or paused), which clears disabledReason. ' +
      `A new URL is checked as at the creation (422 webhook-url-refused, nothing changed). ${GONE}`,
    parameters: [ifMatch],
    requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('WebhookSubscriptionPatch') } } },
    responses: {
      '200': { description: 'The changed subscription.', headers: subscriptionHeaders, content: json(ref('WebhookSubscription')) },
      ...authProblems,
      '404': responseRef('NotFound'),
      '412': responseRef('PreconditionFailed'),
      '413': responseRef('PayloadTooLarge'),
      '415': mergePatchOnly(),
      '422': problem('webhook-url-refused: the new URL may not receive messages (detail says why; errors point at /url).', 422, ['webhook-url-refused']),
    },
    async handle(ctx, { webhooks }) {
      const id = subscriptionIdOf(ctx);
      const patch = validPatch(await readJson(ctx, { mediaTypes: [MERGE_PATCH], unsupportedHeaders: { 'Accept-Patch': MERGE_PATCH } }));
      send(ctx, 200, await webhooks.change(ctx.state.principal, id, patch, pinnedContext(ctx)));
    },
  },
  {
    method: 'delete',
    path: '/webhook-subscriptions/{id}',
    pathParameters: [subscriptionId],
    access: { scope: 'webhooks:admin' },
    operationId: 'deleteWebhookSubscription',
    tags: ['webhooks'],
    summary: 'Delete a webhook subscription',
    description: `${ADMINS_ONLY} Nothing more is sent to it. Afterwards every other operation on it answers 404; deleting it again is 204 too (a retried DELETE). A subscription that never existed is 404.`,
    parameters: [ifMatch],
    responses: {
      '204': { description: 'The subscription is deleted (now or before).', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
      ...authProblems,
      '404': responseRef('NotFound'),
      '412': responseRef('PreconditionFailed'),
    },
    async handle(ctx, { webhooks }) {
      const result = await webhooks.delete(ctx.state.principal, subscriptionIdOf(ctx), pinnedContext(ctx));
      if (result.position) ctx.set('Consistency-Token', result.position);
      ctx.status = 204;
    },
  },
  {
    method: 'post',
    path: '/webhook-subscriptions/{id}/secret-rotation',
    pathParameters: [subscriptionId],
    access: { scope: 'webhooks:admin' },
    operationId: 'rotateWebhookSecret',
    tags: ['webhooks'],
    summary: 'Rotate a webhook subscription\'s signing secret',
    description:
      `${ADMINS_ONLY} Answers the subscription with its new secret, which this answer alone shows. For 24 h every message also carries a signature with the secret it replaced, so the receiver can switch in its own time; ` +
      `a second rotation within those 24 h ends the oldest secret at once. No body, no Idempotency-Key: a retried rotation rotates again. ${GONE}`,
    responses: {
      '200': { description: 'The subscription with its new secret.', headers: { ...subscriptionHeaders, ...noStore }, content: json(ref('WebhookSubscriptionWithSecret')) },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { webhooks }) {
      sendWithSecret(ctx, 200, await webhooks.rotateSecret(ctx.state.principal, subscriptionIdOf(ctx), writeContext(ctx)));
    },
  },
  {
    method: 'get',
    path: '/webhook-subscriptions/{id}/deliveries',
    pathParameters: [subscriptionId],
    access: { scope: 'webhooks:admin' },
    operationId: 'listWebhookDeliveries',
    tags: ['webhooks'],
    summary: 'List a webhook subscription\'s deliveries, newest first',
    description:
      `${ADMINS_ONLY} One delivery per event sent to the subscription, newest first (by its first attempt), with its latest attempts; status keeps those of one status. ` +
      `From the webhook-deliveries projection: the same paging and Consistency-Token rules as GET /orders. ${GONE}`,
    parameters: [...queryParameters('WebhookDeliveryQuery', Object.keys(webhookSchemas.WebhookDeliveryQuery.properties)), consistencyToken],
    responses: {
      '200': {
        description: 'One page of deliveries.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
        content: json(ref('WebhookDeliveryPage')),
      },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { deliveryQueries, waiting }) {
      const id = subscriptionIdOf(ctx);
      const query = validDeliveryQuery(ctx.query);
      const consistencyToken = ctx.get('Consistency-Token');
      const page = await holdingSlotIf(waiting, ctx.state.principal, consistencyToken !== '', () => deliveryQueries.list(ctx.state.principal, id, { ...query, consistencyToken }));
      if (page.nextCursor) {
        const next = new URLSearchParams({
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(query.jobId === undefined ? {} : { jobId: query.jobId }),
          limit: String(query.limit),
          cursor: page.nextCursor,
        });
        ctx.set('Link', `</webhook-subscriptions/${id}/deliveries?${next}>; rel="next"`);
      }
      ctx.set('Consistency-Token', page.reflects);
      ctx.body = { items: page.items, nextCursor: page.nextCursor };
    },
  },
  {
    method: 'post',
    path: '/webhook-subscriptions/{id}/deliveries/{deliveryId}/retry',
    pathParameters: [subscriptionId, deliveryId],
    access: { scope: 'webhooks:admin' },
    operationId: 'retryWebhookDelivery',
    tags: ['webhooks'],
    summary: 'Attempt a webhook delivery again at once',
    description:
      `${ADMINS_ONLY} Records the request in the subscription's delivery log; the delivery worker attempts the delivery again at once, whatever its status (a pending one now, not at nextAttemptAt; a failed one gets a new round of attempts). ` +
      'No body, no Idempotency-Key: a retried request asks for another attempt. An unknown or deleted subscription, and a delivery that the deliveries page does not show under this subscription, are 404, and nothing is recorded.',
    responses: {
      '202': {
        description: 'The retry is recorded; the delivery shows pending, nextAttemptAt the request\'s instant, until the attempt is made.',
        headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') },
        content: json(ref('WebhookDeliveryRetry')),
      },
      ...authProblems,
      '404': responseRef('NotFound'),
    },
    async handle(ctx, { deliveries }) {
      const delivery = uuidOf(ctx, 'deliveryId');
      const recorded = await deliveries.requestRetry(ctx.state.principal, subscriptionIdOf(ctx), delivery, writeContext(ctx));
      ctx.set('Consistency-Token', recorded.position);
      ctx.status = 202;
      ctx.body = { deliveryId: delivery, requestedAt: recorded.requestedAt };
    },
  },
  {
    method: 'post',
    path: '/webhook-subscriptions/{id}/replays',
    pathParameters: [subscriptionId],
    access: { scope: 'webhooks:admin' },
    operationId: 'replayWebhookEvents',
    tags: ['webhooks'],
    summary: 'Send a range of the log again',
    description:
      `${ADMINS_ONLY} Starts a job (followed with GET /jobs/{id}, as an export) that sends again every event of the range that the subscription selects now, each with its original webhook-id, signed as any message, in log order per resource, retried on the same schedule; each send is a delivery of its own, with the job's id as jobId. ` +
      'from and to are log positions (a message\'s position) or RFC 3339 instants, both inclusive; to defaults to the log\'s head now, so the range is fixed when asked for. A position the log has not reached, or a range that ends before it begins, is 400. ' +
      'The delivery worker runs one replay of a subscription at a time, oldest first, while the subscription is active; a replay is not ordered against the live deliveries (its events are repeats, which receivers drop by webhook-id). ' +
      `A retry with the same Idempotency-Key and body returns the same job. ${GONE}`,
    parameters: [idempotencyKey],
    requestBody: { required: true, content: json(ref('NewWebhookReplay')) },
    responses: {
      '202': {
        description: 'The replay was accepted: its job.',
        headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/jobs/{id}', { type: 'string' }, true), 'Retry-After': retryAfter(true), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
        content: json(ref('ReplayJob')),
      },
      ...authProblems,
      '404': responseRef('NotFound'),
      '409': problem('idempotency-key-in-use: the first request with this key is still running (with Retry-After).', 409, ['idempotency-key-in-use'], { 'Retry-After': retryAfter(false) }),
      '413': responseRef('PayloadTooLarge'),
      '415': responseRef('UnsupportedMediaType'),
      '422': responseRef('IdempotencyKeyReused'),
    },
    async handle(ctx, { webhooks, inFlight }) {
      const id = subscriptionIdOf(ctx);
      const result = await keyedPost(ctx, inFlight, {
        validate: validReplay,
        target: () => id,
        path: (target) => `/webhook-subscriptions/${target}/replays`,
        run: (range, target, context) => webhooks.requestReplay(ctx.state.principal, target, range, context),
        location: (requested) => `/jobs/${requested.job.id}`,
      });
      ctx.status = 202;
      ctx.set('Retry-After', '1');
      ctx.body = replayRepresentation(result.job);
    },
  },
];

export const webhooksArea = area<WebhookDeps, Deps, typeof webhookSchemas & typeof webhookMessageSchemas>({
  schemas: { ...webhookSchemas, ...webhookMessageSchemas },
  tags: [
    {
      name: 'webhooks',
      description:
        'Webhook subscriptions: partner endpoints that receive the store\'s events, signed; and their deliveries. The messages themselves are under webhooks, one per event type.',
    },
  ],
  operations,
  webhooks: messageWebhooks,
  deps: ({ inFlight, waiting }, own) => own && { ...own, inFlight, waiting },
  problems: { 'webhook-url-refused': { status: 422, title: 'Webhook URL refused' } },
});

/** The subscription id of the path; 400 when it cannot be one. */
function subscriptionIdOf(ctx: Context): string {
  return uuidOf(ctx, 'id');
}

/** A UUID of the path (a subscription's or a delivery's id); 400 when it cannot be one. */
function uuidOf(ctx: Context, name: 'id' | 'deliveryId'): string {
  const id = ctx.params[name] ?? '';
  if (!SUBSCRIPTION_ID.test(id)) throw validationFailed([{ pointer: `/path/${name}`, message: `must match ${ORDER_ID_PATTERN}` }]);
  return id;
}

/** The request's context, with the revision If-Match pins. */
function pinnedContext(ctx: Context) {
  const pinned = ifMatchRevision(ctx.get('If-Match'));
  return { ...writeContext(ctx), ...(pinned === undefined ? {} : { expectedRevision: pinned }) };
}

function send(ctx: Context, status: number, { subscription, revision, position }: SubscriptionSnapshot): void {
  ctx.status = status;
  ctx.set('ETag', `"${revision}"`);
  ctx.set('Consistency-Token', position);
  ctx.body = subscriptionRepresentation(subscription, revision);
}

function sendWithSecret(ctx: Context, status: number, result: SubscriptionWithSecret): void {
  send(ctx, status, result);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { ...subscriptionRepresentation(result.subscription, result.revision), secret: result.secret };
}
