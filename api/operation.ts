// An API operation, declared once: what the router serves (method, path, who may call, the
// handler) and what the OpenAPI document says of it (operationId, tags, texts, parameters, body,
// the statuses it answers). The router, the document's paths and the auth matrix's route list
// are all built from these declarations (api/areas.ts gathers them).
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { OrderHistory } from '../read-side/orders/history.js';
import type { OrderQueries } from '../read-side/orders/queries.js';
import type { ReturnQueries } from '../read-side/orders/returns.js';
import type { OrderService } from '../write-side/orders/service.js';
import type { Scope } from './auth.js';
import type { InFlight } from './idempotency.js';
import { requireScope, type AccountStandings } from './middleware/auth.js';
import type { AreaProblem } from './problem.js';
import type { SchemaSet } from './schemas.js';
import type { WaitingRequests } from './waiting.js';

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/**
 * Who may call. A scope is checked before the handler runs, unless the handler checks it itself
 * (`checkedBy: 'handler'`, where another scope also serves); it is documented either way.
 * 'any-token': a valid token, no scope. 'no-token': served in front of the token check.
 */
export type Access = { readonly scope: Scope; readonly checkedBy?: 'handler' } | 'any-token' | 'no-token';

export interface Operation<Deps> {
  readonly method: Method;
  /** The OpenAPI path template, /orders/{id}; the router's /orders/:id is derived from it. */
  readonly path: string;
  /** The path item's parameters (the path's own variables), the same on every operation of the path. */
  readonly pathParameters?: readonly object[];
  readonly operationId: string;
  readonly access: Access;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description: string;
  readonly parameters?: readonly object[];
  readonly requestBody?: object;
  /** Every status the operation answers, as the OpenAPI `responses`. */
  readonly responses: Readonly<Record<string, object>>;
  /** Specification extensions of the operation object (x-event-stream). */
  readonly extensions?: Readonly<Record<`x-${string}`, unknown>>;
  readonly handle: (ctx: Context, deps: Deps) => Promise<void> | void;
}

/** A tag of the document, with its description. */
export interface Tag {
  readonly name: string;
  readonly description: string;
}

/** What every deployment has, which any area may use: the order use cases and queries. */
export interface CoreDeps {
  readonly orders: OrderService;
  /** The collections, each confined to the viewer and waiting for a Consistency-Token itself. */
  readonly queries: OrderQueries;
  readonly history: OrderHistory;
  /** The returns of every order (GET /returns), waiting for a Consistency-Token itself. */
  readonly returns: ReturnQueries;
}

/** What the app makes once and its areas share: the in-flight guard of keyed writes, the waiting requests' cap. */
export interface Shared {
  readonly inFlight: InFlight;
  readonly waiting: WaitingRequests;
}

/**
 * An API area: its tags and its operations, and how its handlers' dependencies come from the
 * app's (`Own` is the area's member of AppDeps; undefined when not wired: the area is not served).
 * `Schemas` are the area's own JSON Schemas (api/<area>/schemas.ts), by name.
 */
export interface Area<Own, Deps, Schemas extends SchemaSet = {}> {
  readonly tags: readonly Tag[];
  readonly operations: readonly Operation<Deps>[];
  readonly deps: (core: CoreDeps & Shared, own: Own | undefined) => Deps | undefined;
  /** Whether a token the area issued still stands (an account's: disabled, or its version moved on); asked by the token check. */
  readonly standings?: (own: Own) => AccountStandings;
  /** How the API answers the area's own rules (AreaRuleBroken), by their codes. */
  readonly problems?: Readonly<Record<string, AreaProblem>>;
  /**
   * The area's own schemas (its bodies, queries and answers), listed in the document's
   * components.schemas beside the shared ones (api/schemas.ts); a name is declared once in all.
   */
  readonly schemas?: Schemas;
  /**
   * The requests the service itself sends (OpenAPI 3.1 `webhooks`): Path Item Objects by name,
   * listed in the document's top-level `webhooks`; a name is declared once in all.
   */
  readonly webhooks?: Readonly<Record<string, object>>;
}

/** An area declared with its types checked; Own is void for an area that needs only the core. */
export function area<Own, Deps, Schemas extends SchemaSet = {}>(declared: Area<Own, Deps, Schemas>): Area<Own, Deps, Schemas> {
  return declared;
}

/** The router's syntax for an OpenAPI path template. */
export function routerPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** Adds the operations to the router, each with its scope check in front of its handler (the one layer each has always had). */
export function mount<Deps>(router: Router, operations: readonly Operation<Deps>[], deps: Deps): void {
  for (const operation of operations) {
    const handler: Middleware = (ctx) => operation.handle(ctx, deps);
    const path = routerPath(operation.path);
    const access = operation.access;
    if (typeof access === 'object' && access.checkedBy === undefined) router[operation.method](path, requireScope(access.scope), handler);
    else router[operation.method](path, handler);
  }
}

/** The operation object of the document, members in the document's order. */
export function operationObject(operation: Operation<never>): Record<string, unknown> {
  const { operationId, tags, summary, description, access, parameters, requestBody, responses, extensions } = operation;
  return {
    operationId,
    tags,
    summary,
    description,
    // A bearer scheme names no scopes in OpenAPI; the scope each operation needs is in x-required-scope.
    ...(access === 'no-token' ? { security: [] } : access === 'any-token' ? { security: [{ bearer: [] }] } : { security: [{ bearer: [] }], 'x-required-scope': access.scope }),
    ...(parameters ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...extensions,
  };
}

/** The document's path items of the operations, in declaration order. */
export function pathItems(operations: readonly Operation<never>[]): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const item = (paths[operation.path] ??= operation.pathParameters ? { parameters: operation.pathParameters } : {});
    item[operation.method] = operationObject(operation);
  }
  return paths;
}
