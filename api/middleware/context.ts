// The front of every request: correlation id, API version, token-in-query refusal, the
// problem+json error boundary, and one structured log line.
import type { Context, Middleware } from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { StoreUnavailable } from '../../write-side/kernel/event-store.js';
import type { WriteContext } from '../../write-side/kernel/write-context.js';
import { HttpProblem, toProblem, type AreaProblems } from '../problem.js';
import { DEFAULT_API_VERSION, requestedVersion, SUPPORTED_API_VERSIONS, versionHeaders, type ApiVersion } from '../versions.js';

export const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TOKEN_PARAMETERS = new Set(['access_token', 'token', 'id_token', 'refresh_token', 'jwt', 'bearer', 'authorization', 'auth', 'api_key', 'apikey', 'key']);
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/;
/** Headers a problem response keeps from the work done before the error. */
const KEPT_ON_ERROR = ['x-correlation-id', 'api-version', 'deprecation', 'sunset', 'ratelimit', 'ratelimit-policy', 'allow', 'access-control-allow-origin', 'access-control-expose-headers', 'vary'];

/** Where a request's state keeps the service logger, for its log child made on first use. */
const LOGGER = Symbol('logger');
// One accessor shared by all requests, instead of a closure (and a descriptor) made for each.
const LAZY_LOG: PropertyDescriptor = {
  configurable: true,
  get(this: { correlationId: string; [LOGGER]: Logger }) {
    const child = this[LOGGER].child({ correlationId: this.correlationId });
    Object.defineProperty(this, 'log', { value: child, configurable: true, writable: true });
    return child;
  },
};

declare module 'koa' {
  interface DefaultState {
    correlationId: string;
    [LOGGER]?: Logger;
    log: Logger;
    /** The API version the request is served under (its Api-Version header, or the default). */
    apiVersion: ApiVersion;
    /** Set by a handler that waits on purpose (a long-poll): the request timeout leaves it alone. */
    longPoll?: boolean;
  }
}

/** `areaProblems`: how the areas answer their own rules (api/areas.ts). */
export function requestContext(logger: Logger, areaProblems: AreaProblems = new Map()): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('X-Correlation-Id');
    const correlationId = CORRELATION_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.correlationId = correlationId;
    // Made on first use: most requests log one line, and that one is written below without it.
    ctx.state[LOGGER] = logger;
    Object.defineProperty(ctx.state, 'log', LAZY_LOG);
    ctx.set('X-Correlation-Id', correlationId);
    const version = requestedVersion(ctx.get('Api-Version'));
    ctx.state.apiVersion = version ?? DEFAULT_API_VERSION;
    ctx.set(versionHeaders(ctx.state.apiVersion));
    // The raw URL can hold a token: only the path is ever logged.
    const path = ctx.path;
    try {
      // Koa's parsed query, which the routes read afterwards: the query string is parsed once.
      if (ctx.querystring !== '') refuseTokenInQuery(ctx.query);
      if (version === null) {
        const requested = ctx.get('Api-Version');
        throw new HttpProblem(400, 'unsupported-api-version', `Api-Version ${JSON.stringify(requested.slice(0, 40))} is not supported; use ${SUPPORTED_API_VERSIONS.join(' or ')}.`, {
          supportedVersions: SUPPORTED_API_VERSIONS,
        });
      }
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new HttpProblem(404, 'not-found', `Nothing is at ${path}.`);
      if (ctx.status === 405 && ctx.body === undefined) {
        throw new HttpProblem(405, 'method-not-allowed', `${ctx.method} is not allowed on ${path}.`, {}, { Allow: ctx.response.get('Allow') });
      }
      if (ctx.status === 501 && ctx.body === undefined) {
        throw new HttpProblem(405, 'method-not-allowed', `${ctx.method} is not supported.`, {}, { Allow: ctx.response.get('Allow') });
      }
    } catch (error) {
      let problem = toProblem(error, areaProblems);
      if (error instanceof StoreUnavailable) ctx.state.log.error({ err: error, method: ctx.method, path }, 'store unavailable: answered 503');
      if (!problem) {
        ctx.state.log.error({ err: error, method: ctx.method, path }, 'unexpected error');
        problem = new HttpProblem(500, 'internal', 'Something went wrong on our side; the correlation id identifies it.');
      }
      for (const name of Object.keys(ctx.response.headers)) if (!KEPT_ON_ERROR.includes(name)) ctx.remove(name);
      for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
      ctx.status = problem.status;
      ctx.type = 'application/problem+json; charset=utf-8';
      ctx.body = {
        type: problem.type,
        title: problem.title,
        status: problem.status,
        detail: problem.detail,
        instance: path,
        correlationId,
        ...problem.extra,
      };
    } finally {
      const level = ctx.status >= 500 ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        logger[level]({ correlationId, method: ctx.method, path, route: ctx._matchedRoute, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
      }
    }
  };
}

function refuseTokenInQuery(query: Readonly<Record<string, string | string[] | undefined>>): void {
  for (const name in query) {
    const value = query[name];
    if (TOKEN_PARAMETERS.has(name.toLowerCase()) || (Array.isArray(value) ? value.some((v) => JWT_SHAPE.test(v)) : JWT_SHAPE.test(value ?? ''))) {
      throw new HttpProblem(400, 'token-in-query', 'Credentials are never accepted in the query string; send them in the Authorization header.');
    }
  }
}

/** The request a command belongs to: its correlation id, which also caused it. */
export function writeContext(ctx: Context): WriteContext {
  return { correlationId: ctx.state.correlationId, causationId: ctx.state.correlationId };
}
