// The lowest a Node server answers a GET on this machine: node:http alone, no framework, writing
// the headers and body one of the service's own responses had (recorded by the driver into the
// JSON file given as argv[2]). A floor of bench:read-floor. Listens on PORT and prints {"port":N}.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { serveOnPort } from '../support/free-port.js';

const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { headers: Record<string, string>; body: string };
const body = Buffer.from(recorded.body);
const headers = { ...recorded.headers, 'content-length': String(body.length) };
const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
await serveOnPort(server);
