import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every answer a test gets from the service is checked against the OpenAPI document it serves.
    setupFiles: ['tests/support/conformance-setup.ts'],
    // The typed client's types (tests/client/order-service.ts) are generated, not committed: written
    // from the current OpenAPI document once, before any test file is loaded.
    globalSetup: ['tests/client/global-setup.ts'],
    // Generous: no test waits on a short window any more (each waits for what it needs, or has a
    // bound with its reason beside it), so this only cuts a test that is stuck; on a 2-core
    // machine with both cores busy, starting a service process alone can take more than 30 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
