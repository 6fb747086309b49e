// The one way every benchmark finds a port for a server it starts: ask the kernel for a free one
// on the loopback interface, then hand it to the server (PORT for the service, the same for the
// benchmarks' own servers).
import { once } from 'node:events';
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
