// The OpenAPI 3.1 document served at /openapi.json, built from the same JSON Schemas that
// validate requests. The decisions HTTP-CONTRACT.md leaves open are written down here.
import { EXPORT_LIMIT_RETRY_AFTER_SECONDS, PROBLEM_BASE } from './problem.js';
import { MAX_ACTIVE_EXPORTS } from '../write-side/jobs/service.js';
import { SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS } from '../write-side/accounts/sign-in-failures.js';
import { CUSTOMER_ID_PATTERN, ORDER_ID_PATTERN, SKU_PATTERN, schemas } from './schemas.js';
import { CURRENT_API_VERSION, DEFAULT_API_VERSION, DEPRECATED_API_VERSION, SUPPORTED_API_VERSIONS, VERSION_HEADERS } from './versions.js';
import type { ProblemCode } from './problem.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const header = (description: string, schema: object = { type: 'string' }, required = false) => ({ description, required, schema });
/** On every response. */
const commonHeaders = {
  'X-Correlation-Id': headerRef('X-Correlation-Id'),
  'Api-Version': headerRef('Api-Version'),
  Deprecation: headerRef('Deprecation'),
  Sunset: headerRef('Sunset'),
};
/** On every response the rate limit has seen (all but the operations routes, and failed token checks). */
const rateLimitHeaders = {
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
};
const json = (schema: object) => ({ 'application/json': { schema } });
/** A problem+json response whose `type` ends in one of `codes`. */
const problem = (description: string, status: number, codes: readonly ProblemCode[], extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...commonHeaders, ...rateLimitHeaders, ...extraHeaders },
  content: {
    'application/problem+json': {
      schema: { allOf: [ref('Problem')], properties: { type: { enum: codes.map((code) => PROBLEM_BASE + code) }, status: { const: status } } },
    },
  },
});
/** What any request can be answered, before a route runs: by the HTTP server, the request front, or a failure. */
const everyRequest = {
  '408': responseRef('RequestTimeout'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('Internal'),
};
/** The answers of every operation behind the token check, the rate limit, the request timeout and load shedding. */
const authProblems = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthenticated'),
  '403': responseRef('Forbidden'),
  ...everyRequest,
  '429': responseRef('RateLimited'),
  '503': responseRef('Unavailable'),
};
/** The answers of the operations routes besides their own: they need no token and are never shed. */
const operationsProblems = { '400': responseRef('RequestRefused'), ...everyRequest };
const orderId = { $ref: '#/components/parameters/OrderId' };
const jobId = { $ref: '#/components/parameters/JobId' };
const sku = { $ref: '#/components/parameters/Sku' };
/** A single product's answer: its revision, and the log position it reflects. */
const productHeaders = { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') };
const customerId = { $ref: '#/components/parameters/CustomerId' };
const idempotencyKey = { $ref: '#/components/parameters/Idempotency-Key' };
// A bearer scheme names no scopes in OpenAPI; the scope each operation needs is in x-required-scope.
const security = (scope: string) => ({ security: [{ bearer: [] }], 'x-required-scope': scope });

export function openApiDocument() {
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Order service',
      version: CURRENT_API_VERSION,
      description:
        `Event-sourced order API. The version is carried in the Api-Version request header, never in the URL: ${SUPPORTED_API_VERSIONS.join(' or ')}; a request without it is served under ${DEFAULT_API_VERSION} (deprecated, with Deprecation and Sunset headers, until its sunset). Changes within a version are additive only. ` +
        'Errors are RFC 9457 problem details whose `type` ends in a stable code (' + PROBLEM_BASE + '<code>); each response lists the codes it can carry. ' +
        'Every response carries X-Correlation-Id and Api-Version. Tokens in the query string are refused with 400 token-in-query, on every path. ' +
        'Decisions beyond HTTP-CONTRACT.md: order ids are UUIDs (anything else in the path is 400 validation-failed); a payment whose amount differs from the total is 400 validation-failed with pointer /amount; ' +
        'a repeat of a keyed POST that arrives while the first is running waits up to 2 s for it and replays its outcome, and only then answers 409 idempotency-key-in-use; ' +
        'a PATCH without If-Match is merged onto the revision it read and re-merged if the order changed meanwhile; payments and shipments have no Location (no resource serves them alone); ' +
        'a customer token listing orders sees only its own (asking for another customerId is 403); a request head over 16 KiB is 431 headers-too-large, one that is not HTTP is 400 malformed-request, one that does not arrive within 10 s is 408 request-timeout (every operation lists these); query integers are plain decimal digits; validation errors point into the body (/address/country), the query (/limit), the path (/path/id) or a header (/headers/if-match). ' +
        'HEAD and OPTIONS are served, and documented: HEAD on every path that has GET (the same answer without its body; RFC 9110 requires it of a general-purpose server), OPTIONS on every path (200 with Allow, no token needed; a CORS preflight from an allowed origin is 204). ' +
        'A method a path does not list answers 405 method-not-allowed with Allow naming the methods it does (components/responses/MethodNotAllowed); a path not listed here answers 404 not-found (components/responses/NotFound). ' +
        'With CORS_ORIGINS set, any response may also carry the Fetch standard\'s CORS headers (Vary: Origin, Access-Control-Allow-Origin, Access-Control-Expose-Headers); they are not repeated on each response. ' +
        'Paths are matched without regard to case (/ORDERS is /orders). The server URL is relative: the document describes whatever host serves it.',
      contact: { name: 'Order service team', url: 'https://orders.example/docs' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'the host that serves this document' }],
    tags: [
      { name: 'orders', description: 'Orders and their lifecycle' },
      { name: 'catalogue', description: 'Products and their prices: what orders are priced from' },
      { name: 'customers', description: 'Customers, their one email each, and erasure' },
      { name: 'jobs', description: 'Long-running work: order exports' },
      { name: 'fulfilment', description: 'The fulfilment queue and its changes' },
      { name: 'audit', description: 'Order history and point-in-time reads' },
      { name: 'accounts', description: 'Accounts and sign-in' },
      { name: 'stock', description: 'Stock levels and adjustments' },
      { name: 'operations', description: 'Health, metrics and this document' },
      { name: 'administration', description: 'The administration web app' },
    ],
    security: [{ bearer: [] }],
    // The answers to requests no operation takes: a path not listed, a method a path does not list.
    'x-unlisted': { path: responseRef('NotFound'), method: responseRef('MethodNotAllowed') },
    paths: {
      '/orders': {
        post: {
          operationId: 'placeOrder',
          tags: ['orders'],
          summary: 'Place an order',
          description:
            'Needs orders:write. A customer token may only place orders for its own customer (403). Under Api-Version 2026-12-01 customerId must name an existing customer (POST /customers); under 2026-11-01 any well-formed id is a guest customer. An erased customer cannot order under either (422 unknown-customer). ' +
            'Each line\'s name and unitPrice come from the catalogue in the order currency, as they are at that moment, and stay with the order. ' +
            'A line naming a product that is unknown, retired, not active or without a price in the currency is 422 product-unavailable (errors name each line); a line that sends a unitPrice other than the catalogue\'s is 409 price-changed (errors give the current prices). ' +
            'A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true (at the first prices); a different body is 422. ' +
            `Under ${DEPRECATED_API_VERSION} a key is its principal\'s per target (the same key on another order or job is another key); under ${CURRENT_API_VERSION}, one request across every operation.` +
            'Placing reserves every line\'s quantity of stock, all lines or none: when a line lacks stock the answer is 409 insufficient-stock, whose errors name each short line (/lines/{i}/quantity) with what is available, and nothing is reserved. ' +
            'A placement that failed after it reserved stock and was given up by the service (its reservations released, after 30 s) answers a retry with 409 state-conflict: place it again under a new key.',
          ...security('orders:write'),
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('NewOrder')) },
          responses: {
            '201': {
              description: 'The order was placed (or this is a replay of the request that placed it).',
              headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/orders/{id}', { type: 'string' }, true), ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
              content: json(ref('Order')),
            },
            ...authProblems,
            '409': responseRef('PlacementConflict'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('PlacementRefused'),
          },
        },
        get: {
          operationId: 'listOrders',
          tags: ['orders'],
          summary: 'List orders, a page at a time',
          description: 'Needs orders:read. Served from projections, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. Keyset paging: a cursor continues the exact filter and sort it came from.',
          ...security('orders:read'),
          parameters: [
            ...Object.keys(schemas.OrderListQuery.properties).map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/OrderListQuery/properties/${name}` } })),
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': {
              description: 'One page of orders.',
              headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
              content: json(ref('OrderPage')),
            },
            ...authProblems,
          },
        },
      },
      '/orders/{id}': {
        parameters: [orderId],
        get: {
          operationId: 'getOrder',
          tags: ['orders'],
          summary: 'Read an order',
          description: 'Needs orders:read. Always current: folded from the order history, never older than a revision already acknowledged. Another customer\'s order answers 404 exactly as an unknown one.',
          ...security('orders:read'),
          parameters: [
            { name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this order; 304 when one is current.', schema: { type: 'string' } },
            { name: 'asOf', in: 'query', required: false, description: 'audit:read: the order as it stood at this instant (the store\'s recorded time); 404 if it did not exist yet. An RFC 3339 date-time naming a real instant.', schema: { $ref: '#/components/schemas/PointInTimeQuery/properties/asOf' } },
            { name: 'revision', in: 'query', required: false, description: 'audit:read: the order as it stood at this revision.', schema: { $ref: '#/components/schemas/PointInTimeQuery/properties/revision' } },
          ],
          responses: {
            '200': { description: 'The order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Order')) },
            '304': { description: 'The order still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
        patch: {
          operationId: 'changeOrderAddress',
          tags: ['orders'],
          summary: 'Change the address (JSON Merge Patch)',
          description: 'Needs orders:write. Only `address` may appear. Refused with 409 state-conflict once the order has shipped or was cancelled.',
          ...security('orders:write'),
          parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this order; 412 when the order has moved on.', schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('OrderPatch') } } },
          responses: {
            '200': { description: 'The changed order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Order')) },
            ...authProblems,
            '404': responseRef('NotFound'),
            '409': responseRef('StateConflict'),
            '412': responseRef('PreconditionFailed'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('MergePatchOnly'),
            '422': responseRef('UnknownCustomer'),
          },
        },
      },
      '/orders/{id}/payments': keyedSubresource('recordPayment', 'Record the payment of a pending order', 'Needs payments:write. The amount must equal the order total. The order becomes paid.', 'payments:write', 'NewPayment', 'Payment'),
      '/orders/{id}/shipments': keyedSubresource('createShipment', 'Ship a paid order', 'Needs shipments:write. The order must be paid; it becomes shipped.', 'shipments:write', 'NewShipment', 'Shipment'),
      '/orders/{id}/cancellation': {
        parameters: [orderId],
        post: {
          operationId: 'cancelOrder',
          tags: ['orders'],
          summary: 'Cancel a pending or paid order',
          description: 'Needs orders:write. Cancelling a cancelled order changes nothing and answers 200; a shipped order is 409.',
          ...security('orders:write'),
          requestBody: { required: false, content: json(ref('Cancellation')) },
          responses: {
            '200': { description: 'The cancelled order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Order')) },
            ...authProblems,
            '404': responseRef('NotFound'),
            '409': responseRef('StateConflict'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
          },
        },
      },
      '/orders/{id}/history': {
        parameters: [orderId],
        get: {
          operationId: 'getOrderHistory',
          tags: ['audit'],
          summary: 'The order\'s events, in order',
          description: 'Needs audit:read. Each event with its type, schema version (data is upcast to the current version; recordedSchemaVersion is the stored one), data, revision, global position, recorded time and metadata (principal, correlation id, causation id). Once the order\'s customer was erased, its CustomerErased is among them at its place in the log, and the personal data of every event reads as null. Cursor-paged.',
          ...security('audit:read'),
          parameters: ['limit', 'cursor'].map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/PageQuery/properties/${name}` } })),
          responses: {
            '200': { description: 'A page of the history.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link') }, content: json(ref('HistoryPage')) },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
      },
      '/products': {
        get: {
          operationId: 'listProducts',
          tags: ['catalogue'],
          summary: 'List products, a page at a time',
          description: 'Needs catalogue:read (customer tokens have it). Retired products are left out. From the products projection: the same paging and Consistency-Token rules as GET /orders; sort by sku (default) or -updatedAt (newest change first).',
          ...security('catalogue:read'),
          parameters: [
            ...Object.keys(schemas.ProductListQuery.properties).map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/ProductListQuery/properties/${name}` } })),
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': {
              description: 'One page of products.',
              headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
              content: json(ref('ProductPage')),
            },
            ...authProblems,
          },
        },
      },
      '/products/{sku}': {
        parameters: [sku],
        get: {
          operationId: 'getProduct',
          tags: ['catalogue'],
          summary: 'Read a product',
          description: 'Needs catalogue:read. Always current: folded from the product history. A retired or unknown product is 404.',
          ...security('catalogue:read'),
          parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this product; 304 when one is current.', schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The product.', headers: productHeaders, content: json(ref('Product')) },
            '304': { description: 'The product still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
        put: {
          operationId: 'putProduct',
          tags: ['catalogue'],
          summary: 'Create or replace a product',
          description: 'Needs catalogue:write and a token that is not a customer\'s (403 otherwise, whatever its scopes). Creates the product (201, also for a SKU whose product was retired: it starts anew) or replaces the whole of it (200; a replacement that changes nothing records nothing). Placed orders keep the names and prices they were placed with.',
          ...security('catalogue:write'),
          parameters: [
            { name: 'If-Match', in: 'header', required: false, description: 'An ETag of this product; 412 when it has moved on (or does not exist).', schema: { type: 'string' } },
            { name: 'If-None-Match', in: 'header', required: false, description: '* only: create, never replace; 412 when the product exists.', schema: { type: 'string', const: '*' } },
          ],
          requestBody: { required: true, content: json(ref('ProductInput')) },
          responses: {
            '200': { description: 'The product, replaced.', headers: productHeaders, content: json(ref('Product')) },
            '201': { description: 'The product, created.', headers: { ...productHeaders, Location: header('/products/{sku}', { type: 'string' }, true) }, content: json(ref('Product')) },
            ...authProblems,
            '412': responseRef('PreconditionFailed'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
          },
        },
        patch: {
          operationId: 'patchProduct',
          tags: ['catalogue'],
          summary: 'Change a product (JSON Merge Patch)',
          description: 'Needs catalogue:write and a token that is not a customer\'s. {"prices":{"USD":null}} removes the USD price. A retired or unknown product is 404.',
          ...security('catalogue:write'),
          parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this product; 412 when it has moved on.', schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('ProductPatch') } } },
          responses: {
            '200': { description: 'The changed product.', headers: productHeaders, content: json(ref('Product')) },
            ...authProblems,
            '404': responseRef('NotFound'),
            '412': responseRef('PreconditionFailed'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('MergePatchOnly'),
          },
        },
        delete: {
          operationId: 'retireProduct',
          tags: ['catalogue'],
          summary: 'Retire a product',
          description: 'Needs catalogue:write and a token that is not a customer\'s. Afterwards reads answer 404 and orders cannot name it (422 product-unavailable); retiring it again is 204 too; a later PUT creates it anew. Placed orders keep their lines. A SKU that never named a product is 404.',
          ...security('catalogue:write'),
          parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this product; 412 when it has moved on.', schema: { type: 'string' } }],
          responses: {
            '204': { description: 'The product is retired.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
            ...authProblems,
            '404': responseRef('NotFound'),
            '412': responseRef('PreconditionFailed'),
          },
        },
      },
      '/fulfilment-queue': {
        get: {
          operationId: 'listFulfilmentQueue',
          tags: ['fulfilment'],
          summary: 'Paid orders waiting to ship, oldest payment first',
          description: 'Needs shipments:write and a token that is not a customer\'s (403 otherwise, whatever its scopes). From the fulfilment-queue projection; the same paging and Consistency-Token rules as GET /orders.',
          ...security('shipments:write'),
          parameters: [
            ...['limit', 'cursor'].map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/PageQuery/properties/${name}` } })),
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': { description: 'A page of the queue.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') }, content: json(ref('QueuePage')) },
            ...authProblems,
          },
        },
      },
      '/fulfilment-queue/changes': {
        get: {
          operationId: 'followFulfilmentQueue',
          tags: ['fulfilment'],
          summary: 'Changes of the queue: an order entered (paid) or left (shipped, cancelled)',
          description:
            'Needs shipments:write and a token that is not a customer\'s (403 otherwise, whatever its scopes). A JSON long-poll: the changes after `after`, waiting up to `wait` seconds for one; continue with `next`. ' +
            'The changes are recorded by the fulfilment-queue projection: send a write\'s Consistency-Token to wait (up to 5 s) until its changes are included. An `after` or Last-Event-ID beyond the end of the log is a 400. ' +
            'With Accept: text/event-stream the same URL answers Server-Sent Events instead, described in x-event-stream (OpenAPI 3.1 has one 200 per operation; the stream is kept out of it so that a generated client reads the long-poll\'s JSON as it is): ' +
            'each change an event named entered or left whose id is its log position and whose data is a QueueChange; reconnecting with Last-Event-ID resumes right after it (at least once); a comment line every 15 s keeps idle connections open.',
          ...security('shipments:write'),
          parameters: [
            ...['after', 'wait', 'limit'].map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/ChangesQuery/properties/${name}` } })),
            { name: 'Last-Event-ID', in: 'header', required: false, description: 'Server-Sent Events: the id of the last event handled (takes the place of `after`).', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': { description: 'The changes after `after` (none when `wait` passed without one).', headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref('QueueChanges')) },
            ...authProblems,
          },
          'x-event-stream': {
            description: 'Accept: text/event-stream: the changes as Server-Sent Events, from `after` (or Last-Event-ID) on, for as long as the client stays.',
            headers: {
              ...commonHeaders,
              ...rateLimitHeaders,
              'Cache-Control': header('no-cache, no-transform', { type: 'string' }, true),
              'X-Accel-Buffering': header('no: proxies must not buffer the stream', { type: 'string' }, true),
            },
            content: { 'text/event-stream': { schema: { type: 'string' } } },
            'x-events': { entered: ref('QueueChange'), left: ref('QueueChange') },
          },
        },
      },
      '/exports': {
        post: {
          operationId: 'startExport',
          tags: ['jobs'],
          summary: 'Start an order export',
          description: 'Needs exports:write. Answers 202 at once with the job; the export runs in the background (in the service, or in a process started with --role worker). A customer token exports only its own orders. A retry with the same Idempotency-Key and body returns the same job. ' +
            `One principal (sub and customer together) may have at most ${MAX_ACTIVE_EXPORTS} exports queued or running at once: the next is 429 rate-limited, with Retry-After, until one of them ends (a retry of an accepted request is still answered with its job).`,
          ...security('exports:write'),
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('NewExport')) },
          responses: {
            '202': { description: 'The job was accepted.', headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/jobs/{id}', { type: 'string' }, true), 'Retry-After': retryAfter(true), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') }, content: json(ref('Job')) },
            ...authProblems,
            '409': responseRef('IdempotencyKeyInUse'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('IdempotencyKeyReused'),
            '429': problem(
              `rate-limited: the token's rate limit, or ${MAX_ACTIVE_EXPORTS} exports of this principal already queued or running (the problem then has limit: ${MAX_ACTIVE_EXPORTS}); Retry-After says when to try again (about ${EXPORT_LIMIT_RETRY_AFTER_SECONDS} s for the export cap).`,
              429,
              ['rate-limited'],
              { 'Retry-After': retryAfter(true) },
            ),
          },
        },
      },
      '/jobs/{id}': {
        parameters: [jobId],
        get: {
          operationId: 'getJob',
          tags: ['jobs'],
          summary: 'Follow a job',
          description: 'Needs exports:write (the jobs this principal started: its sub and customer together) or audit:read on a staff token (any job); anyone else gets 404, a customer token included whatever its scopes. Retry-After is set while the job is queued or running. After the retention (EXPORT_RETENTION_SECONDS, default 24 h) the result is removed: result becomes null and resultExpiredAt says when.',
          ...security('exports:write'),
          responses: {
            '200': { description: 'The job.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Retry-After': retryAfter(false) }, content: json(ref('Job')) },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
      },
      '/jobs/{id}/result': {
        parameters: [jobId],
        get: {
          operationId: 'getJobResult',
          tags: ['jobs'],
          summary: 'Download the export',
          description: 'The file, streamed, once the job has succeeded: 409 state-conflict before (currentStatus says how far it is), 410 result-expired after the retention.',
          ...security('exports:write'),
          responses: {
            '200': {
              description: 'The export file.',
              headers: { ...commonHeaders, ...rateLimitHeaders, 'Content-Length': header('bytes', { type: 'integer' }), 'Content-Disposition': header('attachment; filename="orders-<id>.<ndjson|csv>"', { type: 'string' }, true) },
              content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
            },
            ...authProblems,
            '404': responseRef('NotFound'),
            '409': responseRef('StateConflict'),
            '410': problem('result-expired: the result was removed after the retention.', 410, ['result-expired']),
          },
        },
      },
      '/stock': {
        get: {
          operationId: 'listStock',
          tags: ['stock'],
          summary: 'Stock levels, a page at a time, by SKU',
          description: 'Needs stock:read and a token that is not a customer\'s (403 otherwise, whatever its scopes). From the stock projection, which may lag: send the Consistency-Token of a write to wait (up to 5 s) until the page includes it. `below` keeps the SKUs whose available stock is below it. Only SKUs whose stock ever changed are listed.',
          ...security('stock:read'),
          parameters: [
            ...Object.keys(schemas.StockListQuery.properties).map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/StockListQuery/properties/${name}` } })),
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': { description: 'One page of stock levels.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') }, content: json(ref('StockPage')) },
            ...authProblems,
          },
        },
      },
      '/stock/{sku}': {
        parameters: [sku],
        get: {
          operationId: 'getStock',
          tags: ['stock'],
          summary: "A SKU's stock levels",
          description: 'Needs stock:read and a token that is not a customer\'s. Always current: folded from the SKU\'s stock history. Every product has stock, 0 on hand until stock is received.',
          ...security('stock:read'),
          responses: {
            '200': { description: 'The levels.', headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref('Stock')) },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
      },
      '/stock/{sku}/adjustments': {
        parameters: [sku],
        post: {
          operationId: 'adjustStock',
          tags: ['stock'],
          summary: 'Adjust the stock on hand',
          description: 'Needs stock:write and a token that is not a customer\'s. A delta that would take onHand below what is reserved is 409 insufficient-stock (errors[0].available says what is available) and changes nothing. A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true.',
          ...security('stock:write'),
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('NewStockAdjustment')) },
          responses: {
            '201': {
              description: 'The adjustment, with the levels right after it.',
              headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
              content: json(ref('StockAdjustment')),
            },
            ...authProblems,
            '404': responseRef('NotFound'),
            '409': problem(
              'insufficient-stock: the delta would take onHand below what is reserved; idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
              409,
              ['insufficient-stock', 'idempotency-key-in-use'],
              { 'Retry-After': retryAfter(false) },
            ),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('IdempotencyKeyReused'),
          },
        },
      },
      '/customers': {
        post: {
          operationId: 'createCustomer',
          tags: ['customers'],
          summary: 'Create a customer',
          description:
            'Needs customers:write and a staff token: a customer token is 403 (customers are created by staff, or by the account sign-up, not by another customer). ' +
            'One email belongs to one customer, compared case-insensitively, however many requests race: the others get 409 email-in-use. The id is cus_ and 32 hex digits, derived from the Idempotency-Key, so a retry lands on the same customer.',
          ...security('customers:write'),
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('NewCustomer')) },
          responses: {
            '201': {
              description: 'The customer was created (or this is a replay of the request that created it).',
              headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/customers/{id}', { type: 'string' }, true), ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
              content: json(ref('Customer')),
            },
            ...authProblems,
            '409': problem(
              'email-in-use: another customer has this email; or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
              409,
              ['email-in-use', 'idempotency-key-in-use'],
              { 'Retry-After': retryAfter(false) },
            ),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
            '422': responseRef('IdempotencyKeyReused'),
          },
        },
        get: {
          operationId: 'listCustomers',
          tags: ['customers'],
          summary: 'List customers, newest first',
          description:
            'Needs customers:read and a staff token: the list belongs to no single customer, so a customer token is 403 whatever its scopes (it reads its own record at /customers/{id}). ' +
            '`email` is an exact, case-insensitive filter. Erased customers stay in the list with their personal members null, and match no email. Served from a projection, with the same Consistency-Token and cursor rules as GET /orders.',
          ...security('customers:read'),
          parameters: [
            ...Object.keys(schemas.CustomerListQuery.properties).map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/CustomerListQuery/properties/${name}` } })),
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': {
              description: 'One page of customers.',
              headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') },
              content: json(ref('CustomerPage')),
            },
            ...authProblems,
          },
        },
      },
      '/customers/{id}': {
        parameters: [customerId],
        get: {
          operationId: 'getCustomer',
          tags: ['customers'],
          summary: 'Read a customer',
          description: 'Needs customers:read. Always current (folded from its events). A customer token reads only its own record: another customer answers 404 exactly as an unknown one. An erased customer reads with status erased, erasedAt, and every personal member null.',
          ...security('customers:read'),
          parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'ETags of this customer; 304 when one is current.', schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The customer.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Customer')) },
            '304': { description: 'The customer still has the revision named in If-None-Match.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag') } },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
        patch: {
          operationId: 'changeCustomer',
          tags: ['customers'],
          summary: 'Change a customer (JSON Merge Patch)',
          description:
            'Needs customers:write. A customer token changes only its own record (another is 404). email, name, phone and defaultAddress may appear; defaultAddress merges member by member, null removes phone or defaultAddress. ' +
            'An email another customer has is 409 email-in-use, however requests race; an erased customer is 409 state-conflict (currentStatus erased).',
          ...security('customers:write'),
          parameters: [{ name: 'If-Match', in: 'header', required: false, description: 'An ETag of this customer; 412 when it has moved on.', schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('CustomerPatch') } } },
          responses: {
            '200': { description: 'The changed customer.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: headerRef('ETag'), 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Customer')) },
            ...authProblems,
            '404': responseRef('NotFound'),
            '409': problem('email-in-use: another customer has this email; or state-conflict: the customer was erased (currentStatus).', 409, ['email-in-use', 'state-conflict']),
            '412': responseRef('PreconditionFailed'),
            '413': responseRef('PayloadTooLarge'),
            '415': problem('unsupported-media-type: the body is not application/merge-patch+json.', 415, ['unsupported-media-type'], { 'Accept-Patch': header('application/merge-patch+json', { type: 'string', const: 'application/merge-patch+json' }, true) }),
          },
        },
        delete: {
          operationId: 'eraseCustomer',
          tags: ['customers'],
          summary: "Erase a customer's personal data (GDPR art. 17)",
          description:
            'Needs customers:erase and a staff token (a customer token is 403: erasure is done by staff on a verified request). Records the erasure, frees the email, and the customer can never order again (422 unknown-customer). ' +
            'Any well-formed id is erased, a guest customer that appears only on orders included; erasing again changes nothing and answers 204 too.',
          ...security('customers:erase'),
          responses: {
            '204': { description: 'Erased (now or before).', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
            ...authProblems,
          },
        },
      },
      '/auth/login': {
        post: {
          operationId: 'signIn',
          tags: ['accounts'],
          summary: 'Sign in: an access token for an email and a password',
          description:
            'No token needed. Answers RFC 6749 §5.1\'s fields: a bearer token signed like every token the service issues (sub = the account id, the role\'s scopes, customer_id for a customer account, account_version), lasting TOKEN_TTL_SECONDS. ' +
            'An unknown email, a wrong password and a disabled account get the same 401 invalid-credentials after the same work. ' +
            `After ${SIGN_IN_FAILURE_LIMIT} failures for one email within ${SIGN_IN_WINDOW_MS / 60_000} minutes, that email is answered 429 rate-limited (Retry-After: until the oldest of them is ${SIGN_IN_WINDOW_MS / 60_000} minutes old), whatever the password, while other emails still sign in. ` +
            'The failures are kept in the event store, so the limit holds across every API process and restart.',
          security: [],
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
        },
      },
      '/accounts': {
        post: {
          operationId: 'createAccount',
          tags: ['accounts'],
          summary: 'Create an account',
          description:
            'Needs accounts:admin and a token that is not a customer\'s. One account per email, whatever its case (409 email-in-use). A customer account names its customer (customerId: one that exists and was not erased, else 422 unknown-customer), the other roles none. ' +
            'A retry with the same Idempotency-Key and the same email, role and customer returns the first response with Idempotent-Replayed: true (the password is not part of what is compared, since it is never stored).',
          ...security('accounts:admin'),
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
        },
        get: {
          operationId: 'listAccounts',
          tags: ['accounts'],
          summary: 'List accounts, newest first',
          description: 'Needs accounts:admin and a token that is not a customer\'s. From the accounts projection; the same paging and Consistency-Token rules as GET /orders.',
          ...security('accounts:admin'),
          parameters: [
            ...['limit', 'cursor'].map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/PageQuery/properties/${name}` } })),
            { $ref: '#/components/parameters/Consistency-Token' },
          ],
          responses: {
            '200': { description: 'A page of accounts.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: headerRef('Link'), 'Consistency-Token': headerRef('Collection-Consistency-Token') }, content: json(ref('AccountPage')) },
            ...authProblems,
          },
        },
      },
      '/accounts/me': {
        get: {
          operationId: 'getMyAccount',
          tags: ['accounts'],
          summary: 'The caller\'s own account',
          description: 'Any token the service issued (POST /auth/login); no scope needed. A token the service did not issue to an account (npm run token, an identity provider\'s) names no account: 404 not-found.',
          security: [{ bearer: [] }],
          responses: {
            '200': { description: 'The account.', headers: { ...commonHeaders, ...rateLimitHeaders }, content: json(ref('Account')) },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
      },
      '/accounts/me/password': {
        post: {
          operationId: 'changeMyPassword',
          tags: ['accounts'],
          summary: 'Change the caller\'s password',
          description:
            'Any token the service issued; no scope needed (404 for a token that names no account). The current password must be given: a wrong one is 401 invalid-credentials and counts as a failed sign-in of the account\'s email (429 after the limit). ' +
            'Afterwards every token issued to the account before is refused (401) within 5 s in every API process: sign in again.',
          security: [{ bearer: [] }],
          requestBody: { required: true, content: json(ref('PasswordChange')) },
          responses: {
            '204': { description: 'The password was changed.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') } },
            ...authProblems,
            '401': problem('unauthenticated: the token (see components/responses/Unauthenticated); or invalid-credentials: the current password is wrong.', 401, ['unauthenticated', 'invalid-credentials'], { 'WWW-Authenticate': header('Bearer realm="orders"', { type: 'string', pattern: '^Bearer' }, true) }),
            '404': responseRef('NotFound'),
            '413': responseRef('PayloadTooLarge'),
            '415': responseRef('UnsupportedMediaType'),
          },
        },
      },
      '/accounts/{id}': {
        parameters: [{ $ref: '#/components/parameters/AccountId' }],
        get: {
          operationId: 'getAccount',
          tags: ['accounts'],
          summary: 'Read an account',
          description: 'Needs accounts:admin. Always current (folded from the account\'s history). A customer token reads only its own account (403 for any other).',
          ...security('accounts:admin'),
          responses: {
            '200': { description: 'The account.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Account')) },
            ...authProblems,
            '404': responseRef('NotFound'),
          },
        },
        patch: {
          operationId: 'changeAccount',
          tags: ['accounts'],
          summary: 'Change the role, disable or enable an account (JSON Merge Patch)',
          description:
            'Needs accounts:admin and a token that is not a customer\'s. Only `role` and `disabled` may appear; the customer role is given only at creation and never taken away (400 validation-failed). ' +
            'Disabling an account, or changing its role, refuses every token issued to it before (401) within 5 s in every API process; a disabled account cannot sign in.',
          ...security('accounts:admin'),
          requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('AccountPatch') } } },
          responses: {
            '200': { description: 'The account.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token') }, content: json(ref('Account')) },
            ...authProblems,
            '404': responseRef('NotFound'),
            '413': responseRef('PayloadTooLarge'),
            '415': problem('unsupported-media-type: the body is not application/merge-patch+json.', 415, ['unsupported-media-type'], { 'Accept-Patch': header('application/merge-patch+json', { type: 'string', const: 'application/merge-patch+json' }, true) }),
          },
        },
      },
      ...adminAppPaths(),
      '/health/live': operation('healthLive', 'The process is up.'),
      '/health/ready': operation('healthReady', 'The stores answer and the projections have caught up once; 503 until then.', true),
      '/metrics': {
        get: {
          operationId: 'metrics', tags: ['operations'], summary: 'Prometheus metrics', description: 'Request counts and latency by route and status, projection lag. No token needed.', security: [],
          responses: { '200': { description: 'Prometheus text format.', headers: commonHeaders, content: { 'text/plain': { schema: { type: 'string' } } } }, ...operationsProblems },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApi', tags: ['operations'], summary: 'This document', description: 'No token needed.', security: [],
          responses: { '200': { description: 'The OpenAPI document.', headers: commonHeaders, content: json({ type: 'object' }) }, ...operationsProblems },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Claims: sub, scope (space-separated), optional customer_id, exp. HS256 with the configured secret, or RS256/ES256 from AUTH_JWKS_URL. A token the service issued to an account (POST /auth/login) also carries account_version: it is refused (401) once the account is disabled, its password or its role changed.' },
      },
      parameters: {
        OrderId: { name: 'id', in: 'path', required: true, description: 'The order id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } },
        Sku: { name: 'sku', in: 'path', required: true, description: 'The product SKU.', schema: { type: 'string', pattern: SKU_PATTERN } },
        CustomerId: { name: 'id', in: 'path', required: true, description: 'The customer id: cus_… for a created customer, any well-formed id for a guest customer of an order.', schema: { type: 'string', pattern: CUSTOMER_ID_PATTERN } },
        AccountId: { name: 'id', in: 'path', required: true, description: 'The account id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } },
        JobId: { name: 'id', in: 'path', required: true, description: 'The job id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } },
        'Idempotency-Key': { name: 'Idempotency-Key', in: 'header', required: true, description: '1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order).', schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' } },
        'Consistency-Token': { name: 'Consistency-Token', in: 'header', required: false, description: 'The Consistency-Token of a write this page must include; the read waits up to 5 s for it (then 503).', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      },
      headers: {
        'X-Correlation-Id': header('Taken from the request when it is 1–128 characters of [A-Za-z0-9._:-], otherwise a new UUID.', { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' }, true),
        'Api-Version': header(`The API version the request was served under: the one its Api-Version header named, or ${DEFAULT_API_VERSION} when it named none. Any other value is 400 unsupported-api-version.`, { type: 'string', enum: SUPPORTED_API_VERSIONS }, true),
        Deprecation: header(`RFC 9745: on responses served under the deprecated ${DEPRECATED_API_VERSION}, the instant it was deprecated.`, { type: 'string', const: VERSION_HEADERS.deprecation }),
        Sunset: header(`RFC 8594: on responses served under the deprecated ${DEPRECATED_API_VERSION}, when it stops being served.`, { type: 'string', const: VERSION_HEADERS.sunset }),
        ETag: header('"<revision>" of the order or product (its stream revision).', { type: 'string', pattern: '^"\\d+"$' }, true),
        'Consistency-Token': header('The log position of this write; send it back on a collection read to wait until it is included.', { type: 'string', pattern: '^[0-9a-f]{32}$' }),
        'Collection-Consistency-Token': header('The log position this page reflects.', { type: 'string', pattern: '^[0-9a-f]{32}$' }, true),
        'Idempotent-Replayed': header('true when this is the stored outcome of an earlier request with the same Idempotency-Key.', { type: 'string', const: 'true' }),
        Link: header('<…>; rel="next" while there is a next page (RFC 8288).', { type: 'string' }),
        RateLimit: header('Remaining quota, draft-ietf-httpapi-ratelimit-headers: "default";r=<remaining>;t=<seconds>.'),
        'RateLimit-Policy': header('Quota policy: "default";q=<burst>;w=<seconds>.'),
      },
      responses: {
        BadRequest: problem(
          'malformed-json, validation-failed (with errors), invalid-cursor or idempotency-key-missing; and, on any request, token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1).',
          400,
          ['malformed-json', 'validation-failed', 'invalid-cursor', 'idempotency-key-missing', 'token-in-query', 'unsupported-api-version', 'malformed-request'],
        ),
        RequestRefused: problem('token-in-query, unsupported-api-version or malformed-request (not HTTP/1.1): refused before any route runs.', 400, ['token-in-query', 'unsupported-api-version', 'malformed-request']),
        Unauthenticated: problem('unauthenticated: no token, a bad signature, a wrong algorithm or an expired token.', 401, ['unauthenticated'], { 'WWW-Authenticate': header('Bearer realm="orders"', { type: 'string', pattern: '^Bearer' }, true) }),
        Forbidden: problem('forbidden: the token lacks the scope (requiredScope names it), or a customer token acts for another customer.', 403, ['forbidden']),
        NotFound: problem('not-found: unknown, or not visible to this token; also any path this document does not list.', 404, ['not-found']),
        MethodNotAllowed: problem('method-not-allowed: any method a path does not list; Allow names the ones it does (besides OPTIONS, always served).', 405, ['method-not-allowed'], { Allow: header('The methods of this path, e.g. "HEAD, GET, POST".', { type: 'string' }, true) }),
        RequestTimeout: problem('request-timeout: the request head did not arrive within 10 s. The connection is closed.', 408, ['request-timeout']),
        StateConflict: problem('state-conflict: the state forbids the change; currentStatus says why.', 409, ['state-conflict']),
        IdempotencyKeyInUse: problem('idempotency-key-in-use: the first request with this key is still running; retry after Retry-After.', 409, ['idempotency-key-in-use'], { 'Retry-After': retryAfter(true) }),
        KeyedConflict: problem(
          'state-conflict: the order state forbids the change (currentStatus says why); or idempotency-key-in-use: the first request with this key is still running (with Retry-After).',
          409,
          ['state-conflict', 'idempotency-key-in-use'],
          { 'Retry-After': retryAfter(false) },
        ),
        PreconditionFailed: problem('precondition-failed: If-Match names an older revision (currentRevision is the resource\'s), or If-None-Match: * and the resource exists.', 412, ['precondition-failed']),
        PayloadTooLarge: problem('payload-too-large: the body is over 64 KiB.', 413, ['payload-too-large']),
        UnsupportedMediaType: problem('unsupported-media-type: the body must be application/json.', 415, ['unsupported-media-type']),
        IdempotencyKeyReused: problem('idempotency-key-reused: the key was used with a different body.', 422, ['idempotency-key-reused']),
        UnknownCustomer: problem("unknown-customer: the order's customer was erased: a new address cannot be recorded of it.", 422, ['unknown-customer']),
        PlacementConflict: problem(
          'idempotency-key-in-use: the first request with this key is still running (with Retry-After); price-changed: a line sent a unitPrice other than the catalogue\'s (errors give each such line\'s current unitPrice); ' +
            'insufficient-stock: a line needs more stock than is available (errors name each short line, /lines/i/quantity, with its available stock; nothing was reserved); or state-conflict: this placement was given up after it failed (place it again under a new key).',
          409,
          ['idempotency-key-in-use', 'price-changed', 'insufficient-stock', 'state-conflict'],
          { 'Retry-After': retryAfter(false) },
        ),
        PlacementRefused: problem(
          'idempotency-key-reused: the key was used for a different request; product-unavailable: a line names a product that is unknown, retired, not active or without a price in the order currency (errors name each line, /lines/i/sku); or unknown-customer: customerId names an erased customer, or (under Api-Version 2026-12-01) a customer without a record (errors point at /customerId).',
          422,
          ['idempotency-key-reused', 'product-unavailable', 'unknown-customer'],
        ),
        MergePatchOnly: problem('unsupported-media-type: the body is not application/merge-patch+json.', 415, ['unsupported-media-type'], { 'Accept-Patch': header('application/merge-patch+json', { type: 'string', const: 'application/merge-patch+json' }, true) }),
        HeadersTooLarge: problem('headers-too-large: the request head is over 16 KiB. The connection is closed.', 431, ['headers-too-large']),
        RateLimited: problem('rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token).', 429, ['rate-limited'], { 'Retry-After': retryAfter(true) }),
        Internal: problem('internal: anything unexpected; nothing internal is shown.', 500, ['internal']),
        Unavailable: problem('unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe.', 503, ['unavailable'], { 'Retry-After': retryAfter(true) }),
      },
    },
  };
  return withHeadAndOptions(document);
}

function retryAfter(required: boolean) {
  return header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }, required);
}

/** POST of a payment or a shipment: keyed, 201 with the new sub-resource, no Location. */
function keyedSubresource(operationId: string, summary: string, description: string, scope: string, request: string, response: string) {
  return {
    parameters: [orderId],
    post: {
      operationId,
      tags: ['orders'],
      summary,
      description,
      ...security(scope),
      parameters: [idempotencyKey],
      requestBody: { required: true, content: json(ref(request)) },
      responses: {
        '201': {
          description: `The ${response.toLowerCase()}.`,
          headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': headerRef('Consistency-Token'), 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
          content: json(ref(response)),
        },
        ...authProblems,
        '404': responseRef('NotFound'),
        '409': responseRef('KeyedConflict'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '422': responseRef('IdempotencyKeyReused'),
      },
    },
  };
}

/** GET /admin and its assets: the administration app, which needs no token (it signs in through the API). */
function adminAppPaths() {
  const served = (cacheControl: string, page: boolean) => ({
    ...commonHeaders,
    'Cache-Control': header(cacheControl, { type: 'string', const: cacheControl }, true),
    ETag: header('A strong validator of this file in this encoding; If-None-Match with it answers 304.', { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' }, true),
    'X-Content-Type-Options': header('nosniff', { type: 'string', const: 'nosniff' }, true),
    'Content-Encoding': header('gzip when the request accepts it.', { type: 'string', const: 'gzip' }),
    ...(page
      ? {
          'Content-Security-Policy': header("No inline script or style, nothing from another origin: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none'.", { type: 'string' }, true),
          'Referrer-Policy': header('no-referrer', { type: 'string', const: 'no-referrer' }, true),
        }
      : {}),
  });
  const get = (operationId: string, summary: string, description: string, cacheControl: string, page: boolean, content: Record<string, unknown>) => ({
    get: {
      operationId,
      tags: ['administration'],
      summary,
      description: `${description} No token needed.`,
      security: [],
      responses: {
        '200': { description: 'The file.', headers: served(cacheControl, page), content },
        '304': { description: 'The file still has the ETag named in If-None-Match.', headers: served(cacheControl, page) },
        ...operationsProblems,
        '404': responseRef('NotFound'),
        '503': responseRef('Unavailable'),
      },
    },
  });
  const text = { schema: { type: 'string' } };
  return {
    '/admin': get(
      'adminApp',
      'The administration web app',
      'The page of the store\'s administration: staff sign in (POST /auth/login) and work through this API alone. Revalidated on every load (no-cache), under a strict Content-Security-Policy. 404 while the app is not built (npm install builds it).',
      'no-cache',
      true,
      { 'text/html': text },
    ),
    '/admin/assets/{file}': {
      parameters: [{ name: 'file', in: 'path', required: true, description: 'A file of the build, named by its content hash.', schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$' } }],
      ...get(
        'adminAsset',
        'A script, style sheet or icon of the administration app',
        'Named by its content hash, so it never changes under its name: cached for a year (immutable).',
        'public, max-age=31536000, immutable',
        false,
        { 'text/javascript': text, 'text/css': text, 'image/svg+xml': text },
      ),
    },
  };
}

function operation(operationId: string, description: string, canFail = false) {
  return {
    get: {
      operationId,
      tags: ['operations'],
      summary: description,
      description: `${description} No token needed.`,
      security: [],
      responses: {
        '200': { description: 'OK', headers: commonHeaders, content: json({ type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'ok' } } }) },
        ...operationsProblems,
        ...(canFail
          ? {
              '503': {
                description: 'Not ready; reason says what it waits for.',
                headers: { ...commonHeaders, 'Retry-After': retryAfter(true) },
                content: json({ type: 'object', additionalProperties: false, required: ['status', 'reason'], properties: { status: { const: 'unavailable' }, reason: { type: 'string' } } }),
              },
            }
          : {}),
      },
    },
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Responses {
  [status: string]: { $ref?: string; description?: string; headers?: object; content?: object };
}

/**
 * Adds what the server does on every path without a route of its own: HEAD wherever there is
 * GET (the GET answers without their bodies), and OPTIONS (200 with Allow; 204 to a CORS preflight).
 */
function withHeadAndOptions<D extends { paths: Record<string, object>; components: { responses: Record<string, object> } }>(document: D): D {
  const components = document.components.responses as Record<string, Responses[string]>;
  const paths: Record<string, object> = {};
  for (const [path, item] of Object.entries(document.paths) as Array<[string, Record<string, unknown>]>) {
    const get = item.get as { operationId: string; security?: unknown[]; responses: Responses } | undefined;
    const head = get && {
      ...get,
      operationId: `${get.operationId}Head`,
      summary: `HEAD of ${get.operationId}: its headers without the body`,
      description: `The answer GET ${path} would give, without its body.`,
      responses: Object.fromEntries(
        Object.entries(get.responses).map(([status, response]) => {
          const resolved = response.$ref ? components[response.$ref.split('/').pop()!]! : response;
          const { content: _content, ...bodiless } = resolved;
          return [status, bodiless];
        }),
      ),
    };
    // OPTIONS itself is always served and not repeated in Allow.
    const allowed = METHODS.filter((method) => method in item || (method === 'head' && head)).map((m) => m.toUpperCase());
    const public_ = get?.security?.length === 0;
    const options = {
      operationId: `options${path.replace(/[{}]/g, '').split(/[/.-]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}`,
      tags: [...(((get ?? item.post ?? item.patch) as { tags?: string[] } | undefined)?.tags ?? ['operations']).slice(0, 1)],
      summary: `The methods ${path} allows`,
      description: 'No token needed. Allow names the methods of this path; a CORS preflight from an allowed origin (CORS_ORIGINS) is answered 204 instead.',
      security: [],
      responses: {
        '200': { description: `Allow names ${allowed.join(', ')} (in any order).`, headers: { ...commonHeaders, Allow: header(`The methods of this path besides OPTIONS: ${allowed.join(', ')}.`, { type: 'string' }, true) } },
        '204': {
          description: 'A CORS preflight from an allowed origin.',
          headers: {
            ...commonHeaders,
            'Access-Control-Allow-Methods': header('The methods a browser may use.', { type: 'string' }, true),
            'Access-Control-Allow-Headers': header('The request headers a browser may send.', { type: 'string' }, true),
            'Access-Control-Max-Age': header('Seconds a browser may keep this answer.', { type: 'integer' }, true),
          },
        },
        ...operationsProblems,
        ...(public_ ? {} : { '503': responseRef('Unavailable') }),
      },
    };
    paths[path] = { ...item, ...(head ? { head } : {}), options };
  }
  return { ...document, paths };
}
