// Prometheus metrics: request counts and latency by route and status, and projection lag.
import type { Context, Middleware } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ProjectionProbe {
  status(): Promise<{ name: string; caughtUp: boolean; lagMs: number }>;
}

export interface Metrics {
  readonly registry: Registry;
  readonly middleware: Middleware;
  /** Counts a request shed at capacity (it never reaches the middleware). */
  readonly onShed: () => void;
}

export function createMetrics(projections: readonly ProjectionProbe[] = []): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'projection_lag_seconds',
    help: 'Age of the oldest event a projection has not applied yet (0 when caught up)',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const probe of projections) {
        const status = await probe.status().catch(() => null);
        if (status) this.set({ projection: status.name }, status.lagMs / 1000);
      }
    },
  });

  // Mounted outside the error boundary, so that it sees the status the client gets.
  const middleware: Middleware = async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routeTemplate(ctx);
      requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      duration.observe({ method: ctx.method, route }, (performance.now() - started) / 1000);
    }
  };
  const shed = new Counter({ name: 'http_requests_shed_total', help: 'Requests answered 503 at once because the service was at capacity', registers: [registry] });
  return { registry, middleware, onShed: () => shed.inc() };
}

interface RouteLayer {
  readonly path: string | RegExp;
  readonly methods: readonly string[];
}

/**
 * The template of the route the path matched. The router's `_matchedRoute` is overwritten by every
 * layer that runs, so a guard that refuses a request (401, 429) would leave its own pattern there;
 * the layers the router matched keep the route's. A path matched with another method (405) counts
 * under its route; unmatched paths share one label, so that scanners cannot blow up the series count.
 */
function routeTemplate(ctx: Context): string {
  const matched = (ctx as Context & { matched?: readonly RouteLayer[] }).matched ?? [];
  let route: RouteLayer | undefined;
  for (const layer of matched) {
    if (layer.methods.length === 0) continue;
    if (layer.methods.includes(ctx.method)) return String(layer.path);
    route ??= layer;
  }
  return route ? String(route.path) : 'unmatched';
}
