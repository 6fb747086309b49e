// The OpenAPI 3.1 document served at /openapi.json, built from the same JSON Schemas that
// validate requests. This is its frame: info, servers, security, components, the answers to
// requests no operation takes, and the tags; the areas' operations (and the requests an area
// sends, its webhooks) are declared beside their handlers (api/<area>/operations.ts) and gathered
// by api/areas.ts. The decisions HTTP-CONTRACT.md leaves open are written down here and in those
// declarations.
import { areaSchemas, areaTags, areaWebhooks, documentedOperations, type SchemaName } from './areas.js';
import { pathItems } from './operation.js';
import { commonHeaders, header, json, mergePatchOnly, operationsProblems, problem, responseRef, retryAfter } from './openapi-parts.js';
import { PROBLEM_BASE } from './problem.js';
import { CUSTOMER_ID_PATTERN, ORDER_ID_PATTERN, SKU_PATTERN } from './schemas.js';
import { CURRENT_API_VERSION, DEFAULT_API_VERSION, DEPRECATED_API_VERSION, SUPPORTED_API_VERSIONS, VERSION_HEADERS } from './versions.js';

/**
 * The order in which components.schemas has always listed the schemas, from the days they all
 * lived in one file: it mixes the areas (and the shared ones among them), and the admin app's
 * generated types follow it, so the document keeps it byte for byte. A schema not named here (a
 * new area's, a new shared one) follows in the order api/areas.ts gathers them.
 */
const SCHEMA_ORDER: readonly SchemaName[] = [
  'Address', 'ErasedAddress', 'OrderAddress', 'AddressPatch', 'OrderLineInput', 'NewOrder', 'OrderPatch',
  'NewPayment', 'PaymentMethod', 'NewShipment', 'Cancellation', 'NewExport', 'Job', 'NewStockAdjustment',
  'StockAdjustment', 'Stock', 'StockPage', 'StockListQuery', 'NewCustomer', 'CustomerPatch',
  'CustomerListQuery', 'Customer', 'CustomerPage', 'NewAccount', 'AccountPatch', 'PasswordChange', 'SignIn',
  'Email', 'Password', 'Account', 'AccountPage', 'AccessToken', 'PageQuery', 'ChangesQuery',
  'PointInTimeQuery', 'OrderListQuery', 'OrderLine', 'ProductInput', 'ProductPatch', 'Product',
  'ProductPage', 'ProductListQuery', 'Order', 'OrderPage', 'Payment', 'Shipment', 'QueueEntry', 'QueuePage',
  'QueueChange', 'QueueChanges', 'HistoryEvent', 'HistoryPage', 'Problem',
];

/** The gathered schemas (api/areas.ts), in the document's order. */
function documentSchemas(): Record<string, object> {
  const schemas: Readonly<Record<string, object>> = areaSchemas();
  const named = new Set<string>(SCHEMA_ORDER);
  const order = [...SCHEMA_ORDER.filter((name) => Object.hasOwn(schemas, name)), ...Object.keys(schemas).filter((name) => !named.has(name))];
  return Object.fromEntries(order.map((name) => [name, schemas[name]!]));
}

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
      ...areaTags(),
      { name: 'operations', description: 'Health, metrics and this document' },
      { name: 'administration', description: 'The administration web app' },
    ],
    security: [{ bearer: [] }],
    // The answers to requests no operation takes: a path not listed, a method a path does not list.
    'x-unlisted': { path: responseRef('NotFound'), method: responseRef('MethodNotAllowed') },
    paths: {
      ...pathItems(documentedOperations()),
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
    // The requests the service sends (the areas' declarations): a receiver's types come from them.
    webhooks: areaWebhooks(),
    components: {
      schemas: documentSchemas(),
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
        MergePatchOnly: mergePatchOnly(),
        HeadersTooLarge: problem('headers-too-large: the request head is over 16 KiB. The connection is closed.', 431, ['headers-too-large']),
        RateLimited: problem('rate-limited: the principal sent too many requests, or already has 16 waiting at once (long-polls, SSE streams, reads waiting on a Consistency-Token).', 429, ['rate-limited'], { 'Retry-After': retryAfter(true) }),
        Internal: problem('internal: anything unexpected; nothing internal is shown.', 500, ['internal']),
        Unavailable: problem('unavailable: a store is unreachable, the request took too long, the service is at capacity (MAX_IN_FLIGHT), or the collections did not catch up with a Consistency-Token in time. With outcome "unknown", the event store did not confirm a write in time: it may have taken effect, and a retry with the same Idempotency-Key is safe.', 503, ['unavailable'], { 'Retry-After': retryAfter(true) }),
      },
    },
  };
  return withHeadAndOptions(document);
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
