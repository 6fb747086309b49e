// The TypeScript types of the API, generated from the OpenAPI document by openapi-typescript into
// tests/client/order-service.ts, which is not committed (.gitignore). It is written on install
// (package.json's prepare, so that `tsc` finds it on a clean clone), before every test run
// (tests/client/global-setup.ts, vitest.config.ts's globalSetup), and by hand with
// `npm run openapi:types`. tests/client/typed-client.test.ts fails when it differs from the
// document the running service serves.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const TYPES_FILE = fileURLToPath(new URL('./order-service.ts', import.meta.url));

const HEADER = '// Generated from the served OpenAPI document by openapi-typescript (npm run openapi:types). Do not edit.\n';

export async function generateTypes(document: object): Promise<string> {
  return HEADER + astToString(await openapiTS(document as never));
}

/** Writes TYPES_FILE from the document the service builds, leaving it untouched when it is current. */
export async function writeTypes(): Promise<void> {
  const { openApiDocument } = await import('../../api/openapi.js');
  const types = await generateTypes(JSON.parse(JSON.stringify(openApiDocument())) as object);
  if (existsSync(TYPES_FILE) && readFileSync(TYPES_FILE, 'utf8') === types) return;
  writeFileSync(TYPES_FILE, types);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeTypes();
