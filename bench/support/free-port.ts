// The one way every benchmark finds a port for a server it starts: ask the kernel for a free one
// on the loopback interface, then hand it to the server (PORT for the service, the same for the
// benchmarks' own servers).
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

export const HOST = '127.0.0.1';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, HOST);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The other side, in a benchmark's own server (a child process): listens on PORT, tells the
 * driver so (`{"port":N}` on stdout), and on SIGTERM or SIGINT closes, then `closed` (its stores), then exits.
 */
export async function serveOnPort(server: Server, closed: () => Promise<unknown> = async () => {}): Promise<void> {
  server.listen(Number(process.env.PORT), HOST);
  await once(server, 'listening');
  console.log(JSON.stringify({ port: Number(process.env.PORT) }));
  const stop = () => server.close(() => void closed().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
