// The one registry of API areas. The app mounts what it lists, the OpenAPI document takes its
// paths, tags, schemas and webhooks from it, and the auth matrix its route list. An area is its folder
// (api/<area>/operations.ts, api/<area>/schemas.ts), one line here, and one line wiring its dependencies in
// bootstrap/http-app.ts (its member of AppDeps is typed from here).
import type Router from '@koa/router';
import type { Scope } from './auth.js';
import type { AccountStandings } from './middleware/auth.js';
import { PROBLEM_TITLES, type AreaProblem, type AreaProblems } from './problem.js';
import { accountsArea } from './accounts/operations.js';
import { auditArea } from './audit/operations.js';
import { catalogueArea } from './catalogue/operations.js';
import { customersArea } from './customers/operations.js';
import { fulfilmentArea } from './fulfilment/operations.js';
import { jobsArea } from './jobs/operations.js';
import { mount, routerPath, type Area, type CoreDeps, type Operation, type Shared, type Tag } from './operation.js';
import { ordersArea } from './orders/operations.js';
import { sharedSchemas, type SchemaSet } from './schemas.js';
import { stockArea } from './stock/operations.js';
import { summaryArea } from './summary/operations.js';
import { webhooksArea } from './webhooks/operations.js';

/** Keyed by the area's member of AppDeps; in the order of the document's tags. */
const AREAS = {
  orders: ordersArea,
  catalogue: catalogueArea,
  customers: customersArea,
  exports: jobsArea,
  fulfilment: fulfilmentArea,
  audit: auditArea,
  accounts: accountsArea,
  stock: stockArea,
  webhooks: webhooksArea,
  summary: summaryArea,
} as const;

type AreaName = keyof typeof AREAS;
// Each area's dependencies are its own type; the registry handles them alike.
type AnyArea = Area<any, any, SchemaSet>;
type OwnOf<A> = A extends Area<infer Own, infer _Deps, infer _Schemas> ? Own : never;
type SchemasOf<A> = A extends Area<infer _Own, infer _Deps, infer Schemas> ? Schemas : never;

/** The name of a schema of the document: a shared one (api/schemas.ts) or an area's own. */
export type SchemaName = keyof typeof sharedSchemas | { [K in AreaName]: keyof SchemasOf<(typeof AREAS)[K]> }[AreaName];

/** One optional member per area with dependencies of its own: without it, the area is not served. */
export type AreaDeps = { readonly [K in AreaName as [OwnOf<(typeof AREAS)[K]>] extends [void] ? never : K]?: OwnOf<(typeof AREAS)[K]> };

/**
 * The order in which the document has always listed the areas' paths, which is not that of its
 * tags (the admin app's generated types follow it); an area not named here follows in registry order.
 */
const DOCUMENT_ORDER: readonly AreaName[] = ['orders', 'audit', 'catalogue', 'fulfilment', 'exports', 'stock', 'customers', 'accounts'];

const areas = (): Array<[AreaName, AnyArea]> => Object.entries(AREAS) as Array<[AreaName, AnyArea]>;

/** The areas' tags, in registry order. */
export function areaTags(): Tag[] {
  return areas().flatMap(([, area]) => area.tags);
}

/** Every declared operation, in the document's order. */
export function documentedOperations(): Operation<never>[] {
  const named = new Set<AreaName>(DOCUMENT_ORDER);
  const order = [...DOCUMENT_ORDER, ...areas().map(([name]) => name).filter((name) => !named.has(name))];
  return order.flatMap((name) => AREAS[name].operations as readonly Operation<never>[]);
}

/** A declared operation as the router serves it: `GET /orders/:id`, the scope it needs (null: none), and whether it needs a token. */
export interface DeclaredRoute {
  readonly method: string;
  readonly path: string;
  readonly scope: Scope | null;
  readonly token: boolean;
}

/** Every declared operation with its method, path (in the router's syntax) and scope: what the auth matrix walks. */
export function declaredRoutes(): DeclaredRoute[] {
  return areas().flatMap(([, area]) =>
    (area.operations as readonly Operation<never>[]).map(({ method, path, access }) => ({
      method: method.toUpperCase(),
      path: routerPath(path),
      scope: typeof access === 'object' ? access.scope : null,
      token: access !== 'no-token',
    })),
  );
}

/** How the token check learns whether a token an area issued still stands: from the areas wired that issue tokens. */
export function tokenStandings(wired: AreaDeps): AccountStandings | undefined {
  for (const [name, area] of areas()) {
    const own: unknown = (wired as Partial<Record<AreaName, unknown>>)[name];
    if (own !== undefined && area.standings) return area.standings(own);
  }
  return undefined;
}

/** How the areas answer their own rules, by code; two areas answering one code is a mistake caught here. */
export function areaProblems(): AreaProblems {
  const problems = new Map<string, AreaProblem>();
  for (const [name, area] of areas()) {
    for (const [code, problem] of Object.entries(area.problems ?? {})) {
      if (problems.has(code) || code in PROBLEM_TITLES) throw new TypeError(`area ${name} declares problem ${code}, which is answered already`);
      problems.set(code, problem);
    }
  }
  return problems;
}

/**
 * Every schema of the document, by name: the shared ones, then each area's own in registry order.
 * Two areas (or an area and the shared part) declaring one name is a mistake caught here: the
 * document and the validators could then disagree on what the name means.
 */
export function areaSchemas(): Readonly<Record<SchemaName, object>> {
  return gatherSchemas(sharedSchemas, areas()) as Record<SchemaName, object>;
}

/** The shared schemas and the areas' own, refusing a name declared twice. */
export function gatherSchemas(shared: SchemaSet, declared: Iterable<readonly [string, { readonly schemas?: SchemaSet }]>): Readonly<Record<string, object>> {
  const schemas: Record<string, object> = { ...shared };
  for (const [name, area] of declared) {
    for (const [schemaName, schema] of Object.entries(area.schemas ?? {})) {
      if (Object.hasOwn(schemas, schemaName)) throw new TypeError(`area ${name} declares schema ${schemaName}, which is declared already`);
      schemas[schemaName] = schema;
    }
  }
  return schemas;
}

/** The requests the service sends (the document's `webhooks`), by name, in registry order; a name declared twice is refused. */
export function areaWebhooks(): Readonly<Record<string, object>> {
  const webhooks: Record<string, object> = {};
  for (const [name, area] of areas()) {
    for (const [webhook, item] of Object.entries(area.webhooks ?? {})) {
      if (Object.hasOwn(webhooks, webhook)) throw new TypeError(`area ${name} declares webhook ${webhook}, which is declared already`);
      webhooks[webhook] = item;
    }
  }
  return webhooks;
}

/**
 * Mounts every area whose dependencies are wired: its operations that need no token on
 * `signIn`, the others on `api` (behind the token check).
 */
export function mountAreas(signIn: Router, api: Router, core: CoreDeps & Shared, wired: AreaDeps): void {
  for (const [name, area] of areas()) {
    const deps: unknown = area.deps(core, (wired as Partial<Record<AreaName, unknown>>)[name]);
    if (deps === undefined) continue;
    const operations = area.operations as readonly Operation<unknown>[];
    mount(signIn, operations.filter((operation) => operation.access === 'no-token'), deps);
    mount(api, operations.filter((operation) => operation.access !== 'no-token'), deps);
  }
}
