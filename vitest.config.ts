import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every answer a test gets from the service is checked against the OpenAPI document it serves.
    setupFiles: ['tests/support/conformance-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
