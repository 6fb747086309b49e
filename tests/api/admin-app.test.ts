import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/http.js';

describe('GET /admin without a build', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ adminAppDir: '/nonexistent/admin/dist' });
  });
  afterAll(() => service.stop());

  it('answers 404 with a problem that says how to build the app', async () => {
    const response = await fetch(`${service.url}/admin`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(((await response.json()) as { detail: string }).detail).toContain('npm run build:admin');
  });
});
