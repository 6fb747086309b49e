// Checks an answer of the service against the OpenAPI document it serves, with openapi-backend
// (a public OpenAPI 3.x router and validator built on ajv): the status must be listed on the
// operation, every header must be documented (and the required ones present and valid), the
// media type must be one the response lists, and a JSON body must match its schema.
//
// openapi-backend validates only bodies listed as application/json, so the validator is handed
// the served document with each problem+json schema listed under that key as well; the media
// type itself is checked here against the served document. It has no notion of the answers to
// requests no operation takes, nor of the Server-Sent Events described in x-event-stream: these
// become operations of their own in the validator's copy (under /.conformance/), built from the
// served document's x-unlisted and x-event-stream.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { RFC3339_PATTERN } from '../../api/schemas.js';

export interface Exchange {
  readonly method: string;
  /** The request target as sent (path and query), not normalised: the server routes the raw path. */
  readonly target: string;
  readonly accept: string | null;
  readonly status: number;
  readonly headers: Headers;
  /** The body as text; null when it was not read (an event stream). */
  readonly body: string | null;
}

type Json = Record<string, any>;

/** Headers of the transport, not of the API: the connection, the framing, CORS (the info description says so). */
const TRANSPORT = /^(content-type|content-length|date|connection|keep-alive|transfer-encoding|vary|access-control-.*)$/;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const RFC3339 = new RegExp(RFC3339_PATTERN);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNLISTED_PATH = '/.conformance/unlisted-path';
const UNLISTED_METHOD = '/.conformance/unlisted-method';
const EVENT_STREAM = '/.conformance/event-stream';

export class ResponseConformance {
  private constructor(private readonly api: OpenAPIBackend) {}

  static async of(served: Json): Promise<ResponseConformance> {
    const instances = new Map<string, Ajv2020>();
    const api = new OpenAPIBackend({
      definition: validatorView(served) as never,
      strict: true,
      // Quick skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only;
      // Spectral checks the document as 3.1 (npm run lint:openapi).
      quick: true,
      // OpenAPI 3.1 schemas are JSON Schema 2020-12; the formats the document uses are checked as
      // written. One ajv per kind of validation, not one per operation: making one costs more than
      // compiling a schema.
      customizeAjv: (_draft7, options, context) => {
        let ajv = instances.get(context);
        if (!ajv) {
          ajv = new Ajv2020({
            ...options,
            strict: false,
            allErrors: true,
            validateSchema: false,
            code: { optimize: false },
            formats: { uuid: UUID, 'date-time': (value: string) => RFC3339.test(value), uri: (value: string) => URL.canParse(value) },
          });
          instances.set(context, ajv);
        }
        return ajv as never;
      },
    });
    await api.init();
    return new ResponseConformance(api);
  }

  /** Every way the exchange disagrees with the document; empty when it agrees. */
  check(exchange: Exchange): string[] {
    const method = exchange.method.toLowerCase();
    const [path = '/', query = ''] = exchange.target.split(/\?(.*)/s);
    // The service routes paths without regard to case, as the document says.
    const request = { method, path: path.toLowerCase(), headers: {}, query };
    // The document's router forgives repeated slashes, the service's does not: such a path is unlisted.
    const routable = !path.includes('//');
    const listed = routable ? this.api.router.matchOperation(request) : undefined;
    let operation: Operation | undefined = listed;
    if (listed && exchange.accept?.includes('text/event-stream') && (listed as Json)['x-event-stream']) {
      operation = this.api.router.getOperation(eventStreamId(listed.operationId!));
    }
    const pathItemMethods = routable ? METHODS.filter((m) => m !== 'options' && this.api.router.matchOperation({ ...request, method: m })) : [];
    if (!operation) operation = this.api.router.getOperation(pathItemMethods.length > 0 ? 'conformanceUnlistedMethod' : 'conformanceUnlistedPath');
    const what = `${exchange.method} ${path} → ${exchange.status}`;
    const problems = this.checkAgainst(operation!, exchange).map((problem) => `${what}: ${problem}`);
    // Allow names the methods the document lists for the path (OPTIONS aside), in any order.
    if (exchange.status === 405 || (method === 'options' && exchange.status === 200)) {
      const allow = (exchange.headers.get('allow') ?? '').split(',').map((m) => m.trim().toLowerCase()).filter(Boolean).sort();
      if (allow.join() !== [...pathItemMethods].sort().join()) problems.push(`${what}: Allow is "${exchange.headers.get('allow')}", the document lists ${pathItemMethods.join(', ').toUpperCase()}`);
    }
    return problems;
  }

  private checkAgainst(operation: Operation, exchange: Exchange): string[] {
    const problems: string[] = [];
    const status = String(exchange.status);
    const responses = (operation.responses ?? {}) as Record<string, Json>;
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!documented) return [`status ${status} is not documented on ${operation.operationId} (it lists ${Object.keys(responses).join(', ')})`];

    const headers: Record<string, string> = {};
    exchange.headers.forEach((value, name) => {
      if (!TRANSPORT.test(name)) headers[name] = value;
    });
    const headerResult = this.api.validator.validateResponseHeaders(headers, operation, { statusCode: exchange.status, setMatchType: 'subset' as never });
    for (const error of headerResult.errors ?? []) {
      const extra = error.keyword === 'additionalProperties' ? ` ${String(error.params.additionalProperty)}` : '';
      problems.push(`header ${error.instancePath}${extra} ${error.message}`);
    }
    for (const [name, header] of Object.entries((documented.headers ?? {}) as Record<string, Json>)) {
      if (header.required && !exchange.headers.has(name)) problems.push(`required header ${name} is missing`);
    }

    const bodiless = exchange.method === 'HEAD' || exchange.status === 204 || exchange.status === 304;
    if (bodiless) {
      if (exchange.body) problems.push('a body where there must be none');
      return problems;
    }
    const mediaType = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const content = documentedContent(documented) ?? {};
    const json = /^application\/([a-z.+-]+\+)?json$/.test(mediaType);
    // An empty body is an answer without content, or an empty text (an export of no orders).
    if (exchange.body === '') {
      if (Object.keys(content).length > 0 && (json || !(mediaType in content))) problems.push(`no body, the document lists ${Object.keys(content).join(', ')}`);
      return problems;
    }
    if (!(mediaType in content)) {
      problems.push(`media type ${mediaType || '(none)'} is not documented (the response lists ${Object.keys(content).join(', ') || 'no body'})`);
      return problems;
    }
    if (exchange.body !== null && json) {
      let body: unknown;
      try {
        body = JSON.parse(exchange.body);
      } catch {
        return [...problems, `the body is not JSON: ${exchange.body.slice(0, 80)}`];
      }
      const result = this.api.validator.validateResponse(body, operation, exchange.status);
      for (const error of result.errors ?? []) {
        const detail = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : error.keyword === 'enum' || error.keyword === 'const' ? ` ${JSON.stringify(error.params)}` : '';
        problems.push(`body${error.instancePath} ${error.message}${detail}`);
      }
    }
    return problems;
  }
}

/** The content the served document lists for a response, before the validator's copy added its aliases. */
function documentedContent(response: Json): Json | null {
  const content = (response['x-served-content'] ?? response.content) as Json | undefined;
  return content ?? null;
}

const eventStreamId = (operationId: string) => `${operationId}EventStream`;

/** The served document as openapi-backend can check it (see the top of this file). */
function validatorView(served: Json): Json {
  const view = structuredClone(served);
  const aliasJson = (response: Json) => {
    const content = response.content as Json | undefined;
    if (!content || content['application/json']) return;
    const problem = content['application/problem+json'];
    if (problem) response.content = { ...content, 'application/json': problem };
    response['x-served-content'] = content;
  };
  for (const response of Object.values((view.components?.responses ?? {}) as Json)) aliasJson(response);
  const added: Json = {};
  for (const [path, item] of Object.entries(view.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (!METHODS.includes(method)) continue;
      for (const response of Object.values((operation.responses ?? {}) as Json)) if (!response.$ref) aliasJson(response);
      const stream = operation['x-event-stream'] as Json | undefined;
      if (stream) {
        const { 'x-events': _events, ...response } = stream;
        added[`${EVENT_STREAM}${path}`] = { ...added[`${EVENT_STREAM}${path}`], [method]: { operationId: eventStreamId(operation.operationId), security: [], responses: { ...structuredClone(operation.responses), '200': response } } };
      }
    }
  }
  const unlisted = view['x-unlisted'] as { path: { $ref: string }; method: { $ref: string } };
  // What answers a request no operation takes: the request front (400), the server (408, 431), load shedding (503), a failure (500).
  const front = () => ({ '400': { $ref: '#/components/responses/RequestRefused' }, '408': { $ref: '#/components/responses/RequestTimeout' }, '431': { $ref: '#/components/responses/HeadersTooLarge' }, '500': { $ref: '#/components/responses/Internal' }, '503': { $ref: '#/components/responses/Unavailable' } });
  added[UNLISTED_PATH] = { get: { operationId: 'conformanceUnlistedPath', security: [], responses: { ...front(), '404': { $ref: unlisted.path.$ref } } } };
  added[UNLISTED_METHOD] = { get: { operationId: 'conformanceUnlistedMethod', security: [], responses: { ...front(), '405': { $ref: unlisted.method.$ref } } } };
  view.paths = { ...view.paths, ...added };
  return view;
}
