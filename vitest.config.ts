import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every answer a test gets from the service is checked against the OpenAPI document it serves.
    setupFiles: ['tests/support/conformance-setup.ts'],
    // The typed client's types (tests/client/order-service.ts) are generated, not committed: written
    // from the current OpenAPI document once, before any test file is loaded.
    globalSetup: ['tests/client/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
