import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi.js';
import { fulfilmentRoutes } from '../../api/routes/fulfilment.js';
import { jobRoutes } from '../../api/routes/jobs.js';
import { orderRoutes } from '../../api/routes/orders.js';
import { schemas } from '../../api/schemas.js';
import { MAX_ACTIVE_EXPORTS } from '../../write-side/job-service.js';

describe('OpenAPI document', () => {
  const document = openApiDocument();

  it('is built from the very schemas that validate requests', () => {
    expect(document.components.schemas).toBe(schemas);
  });

  it('documents every order and job route with its method, and nothing that is not served', () => {
    const served = [...orderRoutes({} as never).stack, ...jobRoutes({} as never).stack, ...fulfilmentRoutes({} as never).stack].flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = Object.entries(document.paths)
      .filter(([path]) => /^\/(orders|exports|jobs|fulfilment-queue)/.test(path))
      .flatMap(([path, item]) => Object.keys(item).filter((k) => k !== 'parameters').map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(served.sort());
  });

  it('names the scope of every secured operation', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, { security?: unknown[]; 'x-required-scope'?: string }>)) {
        if (method === 'parameters' || !/^\/(orders|exports|jobs|fulfilment-queue)/.test(path)) continue;
        expect(operation['x-required-scope'], `${method} ${path}`).toMatch(/^[a-z]+:(read|write)$/);
      }
    }
  });

  it('documents the cap on queued-or-running exports: 429 rate-limited with Retry-After on POST /exports', () => {
    const operation = (document.paths as Record<string, any>)['/exports'].post;
    expect(operation.description).toContain(`at most ${MAX_ACTIVE_EXPORTS} exports queued or running`);
    const tooMany = operation.responses['429'];
    expect(tooMany.description).toMatch(/^rate-limited: /);
    expect(tooMany.description).toContain(`${MAX_ACTIVE_EXPORTS} exports of this principal already queued or running`);
    expect(tooMany.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(tooMany.content['application/problem+json']).toBeDefined();
  });
});
