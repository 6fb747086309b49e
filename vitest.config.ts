import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every answer a test gets from the service is checked against the OpenAPI document it serves.
    // A failing property stops shrinking after a while (tests/support/property-limits.ts).
    setupFiles: ['tests/support/conformance-setup.ts', 'tests/support/property-limits.ts'],
    // The typed client's types (tests/client/order-service.ts) are generated, not committed: written
    // from the current OpenAPI document once, before any test file is loaded.
    globalSetup: ['tests/client/global-setup.ts'],
    // Generous: no test waits on a short window any more (each waits for what it needs, or has a
    // bound with its reason beside it), so this only cuts a test that is stuck; on a 2-core
    // machine with both cores busy, starting a service process alone can take more than 30 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two test files at a time even on a 2-core machine (Vitest's default is one fewer than the
    // cores: one): most of the suite's time is spent waiting on service processes, a browser and
    // events, not computing. On the 2-core machines CI runs on, the whole suite took 14.8 min with
    // two (green) against 21.3 min with one (November 2026).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
