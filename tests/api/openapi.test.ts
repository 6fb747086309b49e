import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Router from '@koa/router';
import { areaSchemas, declaredRoutes, documentedOperations, gatherSchemas } from '../../api/areas.js';
import { auditSchemas } from '../../api/audit/schemas.js';
import { fulfilmentSchemas } from '../../api/fulfilment/schemas.js';
import { openApiDocument } from '../../api/openapi.js';
import { mount } from '../../api/operation.js';
import { orderSchemas } from '../../api/orders/schemas.js';
import { sharedSchemas } from '../../api/schemas.js';
import { SENT_WEBHOOK_EVENT_TYPES } from '../../workers/webhooks/messages.js';
import { WEBHOOK_EVENT_TYPES } from '../../write-side/webhooks/types.js';
import { MAX_ACTIVE_EXPORTS } from '../../write-side/jobs/service.js';
import { startService, type TestService } from '../support/http.js';
import { ResponseConformance, type Exchange } from '../support/response-conformance.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

type Json = Record<string, any>;
const API_PATHS = /^\/(orders|exports|jobs|fulfilment-queue)/;
const ORDER_ID = '3b1c2d4e-0000-4000-8000-000000000000';

describe('OpenAPI document', () => {
  const document = openApiDocument() as unknown as Json;
  const resolve = (response: Json): Json => (response.$ref ? document.components.responses[response.$ref.split('/').pop()] : response);
  const operations = () =>
    Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => method !== 'parameters')
        .map(([method, operation]) => ({ path, method, operation: operation as Json })),
    );

  it('is built from the very schemas that validate requests: the shared ones and each area\'s own', () => {
    const gathered = areaSchemas();
    expect(Object.keys(document.components.schemas).sort()).toEqual(Object.keys(gathered).sort());
    for (const [name, schema] of Object.entries(gathered)) expect(document.components.schemas[name], name).toBe(schema);
    for (const [name, schema] of Object.entries(sharedSchemas)) expect(gathered[name as keyof typeof gathered], name).toBe(schema);
    expect(gathered.NewOrder).toBe(orderSchemas.NewOrder);
  });

  it('refuses a schema name declared twice, by two areas or by an area and the shared part', () => {
    const schema = { type: 'object' };
    expect(gatherSchemas({ Problem: schema }, [['a', { schemas: { Thing: schema } }], ['b', { schemas: { Other: schema } }], ['c', {}]])).toEqual({ Problem: schema, Thing: schema, Other: schema });
    expect(() => gatherSchemas({}, [['a', { schemas: { Thing: schema } }], ['b', { schemas: { Thing: schema } }]])).toThrow(/area b declares schema Thing/);
    expect(() => gatherSchemas({ Problem: schema }, [['a', { schemas: { Problem: schema } }]])).toThrow(/area a declares schema Problem/);
  });

  it('documents every route of every area with its method, HEAD and OPTIONS included, and nothing that is not served', () => {
    // The router as the app builds it from the areas' declarations.
    const router = new Router();
    mount(router, documentedOperations(), {} as never);
    const layers = router.stack;
    const template = (path: unknown) => String(path).replace(/:(\w+)/g, '{$1}');
    const served = [
      ...layers.flatMap((layer) => layer.methods.map((m) => `${m.toLowerCase()} ${template(layer.path)}`)),
      // The router answers OPTIONS on every path it serves (allowedMethods).
      ...new Set(layers.map((layer) => `options ${template(layer.path)}`)),
    ];
    // The frame's own paths (health, metrics, this document, the admin app) are served by routers of their own.
    const documented = operations()
      .filter(({ operation }) => !['operations', 'administration'].includes(operation.tags[0]))
      .map(({ method, path }) => `${method} ${path}`);
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it('documents for every declared route the scope it checks, or the token it needs', () => {
    const template = (path: string) => path.replace(/:(\w+)/g, '{$1}');
    for (const { method, path, scope, token } of declaredRoutes()) {
      const operation = document.paths[template(path)][method.toLowerCase()];
      expect(operation.security, `${method} ${path}`).toEqual(token ? [{ bearer: [] }] : []);
      expect(operation['x-required-scope'], `${method} ${path}`).toBe(scope ?? undefined);
    }
  });

  it('names the scope of every secured operation, and OPTIONS needs no token', () => {
    for (const { path, method, operation } of operations().filter(({ path }) => API_PATHS.test(path))) {
      if (method === 'options') expect(operation.security, `${method} ${path}`).toEqual([]);
      else expect(operation['x-required-scope'], `${method} ${path}`).toMatch(/^[a-z]+:(read|write)$/);
    }
  });

  it('lists on every operation the answers any request can get: 400 malformed-request, 408, 431 and 500', () => {
    for (const { path, method, operation } of operations()) {
      // HEAD answers as GET does, without the body that names the code.
      if (method === 'head') {
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['400', '408', '431', '500']));
        continue;
      }
      const codes = (status: string) => (resolve(operation.responses[status] ?? {}).content?.['application/problem+json']?.schema.properties.type.enum ?? []) as string[];
      expect(codes('400'), `${method} ${path}`).toContain('https://errors.orders.example/malformed-request');
      expect(codes('408'), `${method} ${path}`).toEqual(['https://errors.orders.example/request-timeout']);
      expect(codes('431'), `${method} ${path}`).toEqual(['https://errors.orders.example/headers-too-large']);
      expect(codes('500'), `${method} ${path}`).toEqual(['https://errors.orders.example/internal']);
      if (path === '/health/live' || path === '/metrics' || path === '/openapi.json') expect(codes('400')).toContain('https://errors.orders.example/token-in-query');
    }
  });

  it('documents 405 method-not-allowed with Allow for methods a path does not list', () => {
    const answer = resolve(document['x-unlisted'].method);
    expect(answer.headers.Allow.required).toBe(true);
    expect(answer.content['application/problem+json'].schema.properties.type.enum).toEqual(['https://errors.orders.example/method-not-allowed']);
  });

  it('lets payments and shipments answer 409 idempotency-key-in-use with Retry-After as well as state-conflict (and shipments quantity-unavailable)', () => {
    for (const [path, own] of [['/orders/{id}/payments', []], ['/orders/{id}/shipments', ['https://errors.orders.example/quantity-unavailable']]] as const) {
      const conflict = resolve(document.paths[path].post.responses['409']);
      expect(conflict.content['application/problem+json'].schema.properties.type.enum).toEqual(['https://errors.orders.example/state-conflict', 'https://errors.orders.example/idempotency-key-in-use', ...own]);
      expect(conflict.headers['Retry-After']).toBeDefined();
    }
  });

  it("lists the orders' own problems where they can be answered, each with the members of its answer", () => {
    const codes = (path: string, method = 'post') => resolve(document.paths[path][method].responses['409']).content['application/problem+json'].schema.properties.type.enum as string[];
    const base = 'https://errors.orders.example/';
    for (const path of ['/orders/{id}/shipments', '/orders/{id}/returns', '/orders/{id}/returns/{returnId}/receipt']) expect(codes(path), path).toContain(`${base}quantity-unavailable`);
    expect(codes('/orders/{id}/refunds')).toContain(`${base}refund-exceeds-payment`);
    expect(codes('/orders/{id}/edits')).toEqual(expect.arrayContaining([`${base}state-conflict`, `${base}insufficient-stock`]));
    expect(document.components.schemas.QuantityUnavailableProblem.properties.errors.items.required).toContain('remaining');
    expect(document.components.schemas.RefundExceedsPaymentProblem.required).toContain('refundable');
    expect(document.components.schemas.Order.properties.status.enum).toContain('partially_shipped');
    expect(document.components.schemas.Order.required).toContain('balance');
  });

  it('gives the long-poll of the queue changes one media type, and describes the event stream beside it', () => {
    const operation = document.paths['/fulfilment-queue/changes'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/json']);
    expect(Object.keys(operation['x-event-stream'].content)).toEqual(['text/event-stream']);
  });

  it('gives history and queue items their fields', () => {
    expect(fulfilmentSchemas.QueueEntry.required).toEqual(expect.arrayContaining(['orderId', 'total', 'lines', 'address', 'paidAt']));
    expect(auditSchemas.HistoryEvent.oneOf.map((event) => event.properties.type.const)).toEqual(['OrderPlaced', 'OrderAddressChanged', 'PaymentRecorded', 'ShipmentCreated', 'OrderCancelled', 'ReturnRequested', 'ReturnReceived', 'ReturnCancelled', 'RefundRecorded', 'OrderEdited', 'CustomerErased']);
  });

  it('documents the cap on queued-or-running exports: 429 rate-limited with Retry-After on POST /exports', () => {
    const operation = document.paths['/exports'].post;
    expect(operation.description).toContain(`at most ${MAX_ACTIVE_EXPORTS} exports queued or running`);
    const tooMany = operation.responses['429'];
    expect(tooMany.description).toMatch(/^rate-limited: /);
    expect(tooMany.description).toContain(`${MAX_ACTIVE_EXPORTS} exports of this principal already queued or running`);
    expect(tooMany.headers['Retry-After'].required).toBe(true);
    expect(tooMany.content['application/problem+json']).toBeDefined();
  });

  it('names a relative server, right for any deployment', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('accepts for asOf only date-times that name a real instant', () => {
    const asOf = new RegExp(orderSchemas.PointInTimeQuery.properties.asOf.pattern);
    for (const good of ['2026-11-22T10:00:00Z', '2024-02-29T23:59:59.5+01:00', '2000-02-29T00:00:00Z']) expect(asOf.test(good), good).toBe(true);
    for (const bad of ['2026-13-45T99:99:99Z', '2026-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:60Z', '2026-01-01T00:00:00+24:00']) {
      expect(asOf.test(bad), bad).toBe(false);
    }
  });
});

describe('the check of every answer against the served document', () => {
  let service: TestService;
  let conformance: ResponseConformance;
  beforeAll(async () => {
    service = await startService();
    await receiveStock(service.events, TEST_SKUS);
    conformance = await ResponseConformance.of((await (await fetch(`${service.url}/openapi.json`)).json()) as Json);
  });
  afterAll(() => service.stop());

  const exchange = (method: string, path: string, status: number, headers: Record<string, string>, body: unknown): Exchange => ({
    method,
    target: path,
    accept: null,
    status,
    headers: new Headers({ 'X-Correlation-Id': 'c-1', 'Api-Version': '2026-11-01', ...headers }),
    body: body === undefined ? '' : JSON.stringify(body),
  });
  const problem = (code: string, status: number) => ({ type: `https://errors.orders.example/${code}`, title: 'x', status, correlationId: 'c-1' });

  it('is the document the service serves', async () => {
    expect(await (await fetch(`${service.url}/openapi.json`)).json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('describes under webhooks one message per event type the service sends, each with its headers and its resource as data', async () => {
    const served = (await (await fetch(`${service.url}/openapi.json`)).json()) as Json;
    const schema = (reference: string): Json => served.components.schemas[reference.replace('#/components/schemas/', '')];
    const resourceOf = { order: 'Order', product: 'Product', customer: 'Customer', stock: 'Stock' } as const;
    const sent = Object.entries(SENT_WEBHOOK_EVENT_TYPES).flatMap(([kind, types]) => types.map((type) => [type, resourceOf[kind as keyof typeof resourceOf]] as const));
    // Every type a subscription may ask for is sent (stock.low since the catalogue has thresholds).
    expect(sent.map(([type]) => type).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(sent).toContainEqual(['stock.low', 'Stock']);
    expect(Object.keys(served.webhooks).sort()).toEqual(sent.map(([type]) => type).sort());
    for (const [type, resource] of sent) {
      const operation = served.webhooks[type].post as Json;
      const headers = (operation.parameters as Json[]).filter((parameter) => parameter.in === 'header');
      expect(headers.map((parameter) => [parameter.name, parameter.required]), type).toEqual([['webhook-id', true], ['webhook-timestamp', true], ['webhook-signature', true]]);
      expect(Object.keys(operation.responses), type).toEqual(['2XX', 'default']);
      const message = schema(operation.requestBody.content['application/json'].schema.$ref);
      expect(message.required, type).toEqual(['id', 'type', 'occurredAt', 'position', 'data']);
      expect(message.properties.type.enum, type).toContain(type);
      // A product's message may also carry a retired one, which GET never answers.
      const data = message.properties.data as Json;
      expect(data.$ref ?? data.anyOf[0].$ref, type).toBe(`#/components/schemas/${resource}`);
    }
  });

  it('passes answers the document describes', () => {
    const json = { 'Content-Type': 'application/problem+json' };
    expect(conformance.check(exchange('GET', `/orders/${ORDER_ID}`, 404, json, problem('not-found', 404)))).toEqual([]);
    expect(conformance.check(exchange('DELETE', '/orders', 405, { ...json, Allow: 'POST, HEAD, GET' }, problem('method-not-allowed', 405)))).toEqual([]);
    expect(conformance.check(exchange('GET', '/nowhere', 404, json, problem('not-found', 404)))).toEqual([]);
  });

  it('finds an undocumented status, header, media type, body member or problem code, a missing header and a wrong Allow', () => {
    const json = { 'Content-Type': 'application/problem+json' };
    const found = [
      conformance.check(exchange('GET', `/orders/${ORDER_ID}`, 418, json, problem('not-found', 418))),
      conformance.check(exchange('GET', `/orders/${ORDER_ID}`, 404, { ...json, 'X-Debug': 'yes' }, problem('not-found', 404))),
      conformance.check(exchange('GET', `/orders/${ORDER_ID}`, 404, { 'Content-Type': 'text/html' }, problem('not-found', 404))),
      conformance.check(exchange('GET', `/orders/${ORDER_ID}`, 404, json, { ...problem('not-found', 404), stack: 'at …' })),
      conformance.check(exchange('GET', `/orders/${ORDER_ID}`, 404, json, problem('rate-limited', 404))),
      conformance.check({ ...exchange('GET', `/orders/${ORDER_ID}`, 404, json, problem('not-found', 404)), headers: new Headers(json) }),
      conformance.check(exchange('DELETE', '/orders', 405, { ...json, Allow: 'GET' }, problem('method-not-allowed', 405))),
    ];
    expect(found[0]).toEqual([expect.stringMatching(/status 418 is not documented/)]);
    expect(found[1]).toEqual([expect.stringMatching(/x-debug must NOT have additional properties/)]);
    expect(found[2]).toEqual([expect.stringMatching(/media type text\/html is not documented/)]);
    expect(found[3]).toEqual([expect.stringMatching(/must NOT have additional properties \(stack\)/)]);
    expect(found[4]?.join()).toMatch(/body\/type must be equal to one of the allowed values/);
    expect(found[5]).toEqual([expect.stringMatching(/X-Correlation-Id is missing/), expect.stringMatching(/Api-Version is missing/)]);
    expect(found[6]).toEqual([expect.stringMatching(/Allow is "GET", the document lists GET, POST, HEAD/)]);
  });

  it('finds the answers the HTTP server gives before the app (malformed, oversized) as the document says', async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.end(request);
      });
    const parse = (text: string, method: string, path: string): Exchange => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
      return { method, target: path, accept: null, status: Number(statusLine.split(' ')[1]), headers, body };
    };
    const malformed = parse(await raw('GET /orders HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'), 'GET', '/orders');
    expect(malformed.status).toBe(400);
    expect(conformance.check(malformed)).toEqual([]);
    const oversized = parse(await raw(`GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 'GET', '/health/live');
    expect(oversized.status).toBe(431);
    expect(conformance.check(oversized)).toEqual([]);
  });
});
