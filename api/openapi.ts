// The OpenAPI 3.1 document served at /openapi.json, built from the same JSON Schemas that
// validate requests. The decisions HTTP-CONTRACT.md leaves open are written down here.
import { EXPORT_LIMIT_RETRY_AFTER_SECONDS, PROBLEM_BASE } from './problem.js';
import { MAX_ACTIVE_EXPORTS } from '../write-side/job-service.js';
import { ORDER_ID_PATTERN, schemas } from './schemas.js';
import { API_VERSION } from './middleware/context.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (description: string, schema: object = { type: 'string' }) => ({ description, schema });
const problem = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { 'X-Correlation-Id': { $ref: '#/components/headers/X-Correlation-Id' }, ...extraHeaders },
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
const commonHeaders = {
  'X-Correlation-Id': { $ref: '#/components/headers/X-Correlation-Id' },
  'Api-Version': { $ref: '#/components/headers/Api-Version' },
};
const rateLimitHeaders = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};
const json = (schema: object) => ({ 'application/json': { schema } });
const authProblems = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthenticated' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '429': { $ref: '#/components/responses/RateLimited' },
  '500': { $ref: '#/components/responses/Internal' },
  '503': { $ref: '#/components/responses/Unavailable' },
};
const orderId = { $ref: '#/components/parameters/OrderId' };
const jobId = { $ref: '#/components/parameters/JobId' };
const idempotencyKey = { $ref: '#/components/parameters/Idempotency-Key' };
// A bearer scheme names no scopes in OpenAPI; the scope each operation needs is in x-required-scope.
const security = (scope: string) => ({ security: [{ bearer: [] }], 'x-required-scope': scope });

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Order service',
      version: API_VERSION,
      description:
        'Event-sourced order API. The version is carried in the Api-Version header, never in the URL; changes within a version are additive only. ' +
        'Errors are RFC 9457 problem details whose `type` ends in a stable code (' + PROBLEM_BASE + '<code>). ' +
        'Every response carries X-Correlation-Id and Api-Version. Tokens in the query string are refused with 400 token-in-query. ' +
        'Decisions beyond HTTP-CONTRACT.md: order ids are UUIDs (anything else in the path is 400 validation-failed); a payment whose amount differs from the total is 400 validation-failed with pointer /amount; ' +
        'a repeat of a keyed POST that arrives while the first is running waits up to 2 s for it and replays its outcome, and only then answers 409 idempotency-key-in-use; ' +
        'a PATCH without If-Match is merged onto the revision it read and re-merged if the order changed meanwhile; payments and shipments have no Location (no resource serves them alone); ' +
        'a customer token listing orders sees only its own (asking for another customerId is 403); a request head over 16 KiB is 431 headers-too-large, one that is not HTTP is 400 malformed-request, one that does not arrive within 10 s is 408 request-timeout; query integers are plain decimal digits; validation errors point into the body (/address/country), the query (/limit), the path (/path/id) or a header (/headers/if-match).',
      contact: { name: 'Order service team', url: 'https://orders.example/docs' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'local (embedded default)' }],
    tags: [
      { name: 'orders', description: 'Orders and their lifecycle' },
      { name: 'jobs', description: 'Long-running work: order exports' },
      { name: 'fulfilment', description: 'The fulfilment queue and its changes' },
      { name: 'audit', description: 'Order history and point-in-time reads' },
      { name: 'operations', description: 'Health, metrics and this document' },
    ],
    security: [{ bearer: [] }],
    paths: {
      '/orders': {
        post: {
          operationId: 'placeOrder',
          tags: ['orders'],
          summary: 'Place an order',
          description: 'Needs orders:write. A customer token may only place orders for its own customer (403). A retry with the same Idempotency-Key and body returns the first response with Idempotent-Replayed: true; a different body is 422.',
          ...security('orders:write'),
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(ref('NewOrder')) },
          responses: {
            '201': {
              description: 'The order was placed (or this is a replay of the request that placed it).',
              headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/orders/{id}'), ETag: { $ref: '#/components/headers/ETag' }, 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' }, 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } },
              content: json(ref('Order')),
            },
            ...authProblems,
            '409': { $ref: '#/components/responses/IdempotencyKeyInUse' },
            '413': { $ref: '#/components/responses/PayloadTooLarge' },
            '415': { $ref: '#/components/responses/UnsupportedMediaType' },
            '422': { $ref: '#/components/responses/IdempotencyKeyReused' },
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
            { name: 'Consistency-Token', in: 'header', required: false, description: 'The Consistency-Token of a write this page must include.', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'One page of orders.',
              headers: { ...commonHeaders, ...rateLimitHeaders, Link: header('<…>; rel="next" while there is a next page'), 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' } },
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
            { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
            { name: 'asOf', in: 'query', required: false, description: 'audit:read: the order as it stood at this instant (the store\'s recorded time); 404 if it did not exist yet.', schema: { $ref: '#/components/schemas/PointInTimeQuery/properties/asOf' } },
            { name: 'revision', in: 'query', required: false, description: 'audit:read: the order as it stood at this revision.', schema: { $ref: '#/components/schemas/PointInTimeQuery/properties/revision' } },
          ],
          responses: {
            '200': { description: 'The order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: { $ref: '#/components/headers/ETag' }, 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' } }, content: json(ref('Order')) },
            '304': { description: 'The order still has the revision named in If-None-Match.', headers: { ...commonHeaders, ETag: { $ref: '#/components/headers/ETag' } } },
            ...authProblems,
            '404': { $ref: '#/components/responses/NotFound' },
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
            '200': { description: 'The changed order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: { $ref: '#/components/headers/ETag' }, 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' } }, content: json(ref('Order')) },
            ...authProblems,
            '404': { $ref: '#/components/responses/NotFound' },
            '409': { $ref: '#/components/responses/StateConflict' },
            '412': { $ref: '#/components/responses/PreconditionFailed' },
            '413': { $ref: '#/components/responses/PayloadTooLarge' },
            '415': { ...problem('The body is not application/merge-patch+json.', { 'Accept-Patch': header('application/merge-patch+json') }) },
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
            '200': { description: 'The cancelled order.', headers: { ...commonHeaders, ...rateLimitHeaders, ETag: { $ref: '#/components/headers/ETag' }, 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' } }, content: json(ref('Order')) },
            ...authProblems,
            '404': { $ref: '#/components/responses/NotFound' },
            '409': { $ref: '#/components/responses/StateConflict' },
            '413': { $ref: '#/components/responses/PayloadTooLarge' },
            '415': { $ref: '#/components/responses/UnsupportedMediaType' },
          },
        },
      },
      '/orders/{id}/history': {
        parameters: [orderId],
        get: {
          operationId: 'getOrderHistory',
          tags: ['audit'],
          summary: 'The order\'s events, in order',
          description: 'Needs audit:read. Each event with its type, schema version (data is upcast to the current version; recordedSchemaVersion is the stored one), data, revision, global position, recorded time and metadata (principal, correlation id, causation id). Cursor-paged.',
          ...security('audit:read'),
          parameters: ['limit', 'cursor'].map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/PageQuery/properties/${name}` } })),
          responses: {
            '200': { description: 'A page of the history.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: header('<…>; rel="next" while there is a next page') }, content: json({ type: 'object', required: ['items', 'nextCursor'], properties: { items: { type: 'array', items: { type: 'object' } }, nextCursor: { type: ['string', 'null'] } } }) },
            ...authProblems,
            '404': { $ref: '#/components/responses/NotFound' },
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
            { name: 'Consistency-Token', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'A page of the queue.', headers: { ...commonHeaders, ...rateLimitHeaders, Link: header('<…>; rel="next" while there is a next page'), 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' } }, content: json({ type: 'object', required: ['items', 'nextCursor'], properties: { items: { type: 'array', items: { type: 'object' } }, nextCursor: { type: ['string', 'null'] } } }) },
            ...authProblems,
          },
        },
      },
      '/fulfilment-queue/changes': {
        get: {
          operationId: 'followFulfilmentQueue',
          tags: ['fulfilment'],
          summary: 'Changes of the queue: an order entered (paid) or left (shipped, cancelled)',
          description: 'Needs shipments:write. With Accept: text/event-stream, Server-Sent Events: each change an event named entered or left whose id is its log position; reconnecting with Last-Event-ID resumes right after it (at least once); a comment line every 15 s keeps idle connections open. Otherwise a JSON long-poll: the changes after `after`, waiting up to `wait` seconds for one; continue with `next`. The changes are recorded by the fulfilment-queue projection: send a write\'s Consistency-Token to wait (up to 5 s) until its changes are included. A customer token is refused (403) whatever its scopes; an `after` or Last-Event-ID beyond the end of the log is a 400.',
          ...security('shipments:write'),
          parameters: [
            ...['after', 'wait', 'limit'].map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/ChangesQuery/properties/${name}` } })),
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
            { name: 'Consistency-Token', in: 'header', required: false, description: 'The Consistency-Token of a write whose changes the answer must include.', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'The changes.',
              headers: { ...commonHeaders, ...rateLimitHeaders },
              content: {
                'text/event-stream': { schema: { type: 'string' } },
                'application/json': { schema: { type: 'object', required: ['changes', 'next'], properties: { changes: { type: 'array', items: { type: 'object', required: ['position', 'orderId', 'change', 'reason', 'at'], properties: { position: { type: 'string' }, orderId: { type: 'string' }, change: { type: 'string', enum: ['entered', 'left'] }, reason: { type: 'string', enum: ['paid', 'shipped', 'cancelled'] }, at: { type: 'string', format: 'date-time' } } } }, next: { type: ['string', 'null'] } } } },
              },
            },
            ...authProblems,
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
            '202': { description: 'The job was accepted.', headers: { ...commonHeaders, ...rateLimitHeaders, Location: header('/jobs/{id}'), 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }, content: json(ref('Job')) },
            ...authProblems,
            '409': { $ref: '#/components/responses/IdempotencyKeyInUse' },
            '413': { $ref: '#/components/responses/PayloadTooLarge' },
            '415': { $ref: '#/components/responses/UnsupportedMediaType' },
            '422': { $ref: '#/components/responses/IdempotencyKeyReused' },
            '429': problem(`rate-limited: the token's rate limit, or ${MAX_ACTIVE_EXPORTS} exports of this principal already queued or running (the problem then has limit: ${MAX_ACTIVE_EXPORTS}); Retry-After says when to try again (about ${EXPORT_LIMIT_RETRY_AFTER_SECONDS} s for the export cap).`, { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateLimitHeaders }),
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
            '200': { description: 'The job.', headers: { ...commonHeaders, ...rateLimitHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }, content: json(ref('Job')) },
            ...authProblems,
            '404': { $ref: '#/components/responses/NotFound' },
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
              headers: { ...commonHeaders, 'Content-Length': header('bytes', { type: 'integer' }), 'Content-Disposition': header('attachment; filename="orders-<id>.<ndjson|csv>"') },
              content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
            },
            ...authProblems,
            '404': { $ref: '#/components/responses/NotFound' },
            '409': { $ref: '#/components/responses/StateConflict' },
            '410': problem('result-expired: the result was removed after the retention.'),
          },
        },
      },
      '/health/live': operation('healthLive', 'The process is up.'),
      '/health/ready': operation('healthReady', 'The stores answer and the projections have caught up once; 503 until then.', true),
      '/metrics': {
        get: {
          operationId: 'metrics', tags: ['operations'], summary: 'Prometheus metrics', description: 'Request counts and latency by route and status, projection lag. No token needed.', security: [],
          responses: { '200': { description: 'Prometheus text format.', headers: commonHeaders, content: { 'text/plain': { schema: { type: 'string' } } } } },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApi', tags: ['operations'], summary: 'This document', description: 'No token needed.', security: [],
          responses: { '200': { description: 'The OpenAPI document.', headers: commonHeaders, content: json({ type: 'object' }) } },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Claims: sub, scope (space-separated), optional customer_id, exp. HS256 with the configured secret, or RS256/ES256 from AUTH_JWKS_URL.' },
      },
      parameters: {
        OrderId: { name: 'id', in: 'path', required: true, description: 'The order id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } },
        JobId: { name: 'id', in: 'path', required: true, description: 'The job id, a UUID.', schema: { type: 'string', pattern: ORDER_ID_PATTERN } },
        'Idempotency-Key': { name: 'Idempotency-Key', in: 'header', required: true, description: '1–255 visible ASCII characters, scoped to the token subject; kept at least 24 hours (in fact for the life of the order).', schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' } },
      },
      headers: {
        'X-Correlation-Id': header('Taken from the request when it is 1–128 characters of [A-Za-z0-9._:-], otherwise a new UUID.'),
        'Api-Version': header(`The API version, ${API_VERSION}. A request may send it; an unknown value is 400 unsupported-api-version.`),
        ETag: header('"<revision>" of the order.'),
        'Consistency-Token': header('The log position of this write (or of this collection page); send it back on a collection read to wait until it is included.'),
        'Idempotent-Replayed': header('true when this is the stored outcome of an earlier request with the same Idempotency-Key.'),
        RateLimit: header('Remaining quota, draft-ietf-httpapi-ratelimit-headers: "default";r=<remaining>;t=<seconds>.'),
        'RateLimit-Policy': header('Quota policy: "default";q=<burst>;w=<seconds>.'),
        'Retry-After': header('Seconds to wait before retrying.', { type: 'integer' }),
      },
      responses: {
        BadRequest: problem('malformed-json, validation-failed (with errors), invalid-cursor, idempotency-key-missing, token-in-query or unsupported-api-version.'),
        Unauthenticated: problem('unauthenticated: no token, a bad signature, a wrong algorithm or an expired token.', { 'WWW-Authenticate': header('Bearer realm="orders"') }),
        Forbidden: problem('forbidden: the token lacks the scope, or a customer token acts for another customer.'),
        NotFound: problem('not-found: unknown, or not visible to this token.'),
        StateConflict: problem('state-conflict: the order state forbids the change; currentStatus says why.'),
        IdempotencyKeyInUse: problem('idempotency-key-in-use: the first request with this key is still running.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
        PreconditionFailed: problem('precondition-failed: If-Match names an older revision.'),
        PayloadTooLarge: problem('payload-too-large: the body is over 64 KiB.'),
        UnsupportedMediaType: problem('unsupported-media-type: the body must be application/json.'),
        IdempotencyKeyReused: problem('idempotency-key-reused: the key was used with a different body.'),
        RateLimited: problem('rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token).', { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateLimitHeaders }),
        Internal: problem('internal: anything unexpected; nothing internal is shown.'),
        Unavailable: problem('unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe.', { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
      },
    },
  };
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
          headers: { ...commonHeaders, ...rateLimitHeaders, 'Consistency-Token': { $ref: '#/components/headers/Consistency-Token' }, 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } },
          content: json(ref(response)),
        },
        ...authProblems,
        '404': { $ref: '#/components/responses/NotFound' },
        '409': { $ref: '#/components/responses/StateConflict' },
        '413': { $ref: '#/components/responses/PayloadTooLarge' },
        '415': { $ref: '#/components/responses/UnsupportedMediaType' },
        '422': { $ref: '#/components/responses/IdempotencyKeyReused' },
      },
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
        '200': { description: 'OK', headers: commonHeaders, content: json({ type: 'object', properties: { status: { type: 'string' } } }) },
        ...(canFail ? { '503': { description: 'Not ready.', headers: { ...commonHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }, content: json({ type: 'object', properties: { status: { type: 'string' }, reason: { type: 'string' } } }) } } : {}),
      },
    },
  };
}
