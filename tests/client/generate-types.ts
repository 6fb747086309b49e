// The TypeScript types of the API, generated from the OpenAPI document by openapi-typescript.
// `npm run openapi:types` writes them to tests/client/order-service.ts, which the typed client
// test uses; tests/client/typed-client.test.ts fails when they differ from the served document.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const TYPES_FILE = fileURLToPath(new URL('./order-service.ts', import.meta.url));

const HEADER = '// Generated from the served OpenAPI document by openapi-typescript (npm run openapi:types). Do not edit.\n';

export async function generateTypes(document: object): Promise<string> {
  return HEADER + astToString(await openapiTS(document as never));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { openApiDocument } = await import('../../api/openapi.js');
  writeFileSync(TYPES_FILE, await generateTypes(JSON.parse(JSON.stringify(openApiDocument())) as object));
}
