// npm run --silent openapi > openapi.json: prints the OpenAPI document the service serves.
import { openApiDocument } from '../api/openapi.js';

process.stdout.write(JSON.stringify(openApiDocument(), null, 2) + '\n');
