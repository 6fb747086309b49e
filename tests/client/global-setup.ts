// vitest's globalSetup (vitest.config.ts): the generated client types (tests/client/order-service.ts,
// not committed) are written from the current OpenAPI document before any test file is loaded.
import { writeTypes } from './generate-types.js';

export default async function setup(): Promise<void> {
  await writeTypes();
}
