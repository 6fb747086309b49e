// Every request here goes to a server of the test's own on 127.0.0.1; names reach it through an
// injected resolver, never DNS. Bounds on time are generous (the deadline under test is a few
// hundred ms, the assertion 5 s), so a busy machine makes the tests slower, not flaky.
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterEach, describe, expect, it } from 'vitest';
import { Connections, DEFAULT_DEADLINE_MS, DEFAULT_MAX_RESPONSE_BYTES, send, signedHeaders, type Resolver } from '../../../workers/webhooks/sender.js';
import { until } from '../../support/until.js';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const BODY = JSON.stringify({ id: 'evt_1', type: 'order.paid', occurredAt: '2027-01-01T00:00:00.000Z', data: { id: 'o-1', total: '12.50 €' } });
const MESSAGE = { id: 'evt_1', body: BODY };
const BOUND_MS = 5_000;

// partner.example and hooks.partner.test both point at the loopback test servers.
const resolve: Resolver = async (hostname) => {
  if (hostname === 'partner.example' || hostname === 'hooks.partner.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};
const PARTNER_ALLOWED = { allowedHosts: ['partner.example'], resolve };

interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface TestServer {
  readonly port: number;
  readonly received: Received[];
  /** Connections accepted, and of those, closed. */
  readonly connections: { accepted: number; closed: number };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function listening(server: Server | ReturnType<typeof createNetServer>, sockets: Set<Socket>): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  });
  return (server.address() as AddressInfo).port;
}

/** An HTTP server that records each request, its body read whole, then hands it to `answer`. */
async function serve(answer: (res: ServerResponse, req: IncomingMessage) => void): Promise<TestServer> {
  const received: Received[] = [];
  const connections = { accepted: 0, closed: 0 };
  const sockets = new Set<Socket>();
  const server = createHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    answer(res, req);
  });
  server.on('connection', (socket: Socket) => {
    connections.accepted += 1;
    sockets.add(socket);
    socket.on('close', () => {
      connections.closed += 1;
      sockets.delete(socket);
    });
  });
  return { port: await listening(server, sockets), received, connections };
}

const signatureHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

/** Both libraries' verdict on a received message with one secret: what verify returned, or that it threw. */
function verdicts(secretKey: string, got: Received): { standardwebhooks: unknown; svix: unknown } {
  const attempt = (verify: () => unknown) => {
    try {
      return verify();
    } catch (error) {
      return error instanceof Error ? error.message : 'threw';
    }
  };
  return {
    standardwebhooks: attempt(() => new Webhook(secretKey).verify(got.body, signatureHeaders(got.headers))),
    svix: attempt(() => new SvixWebhook(secretKey).verify(got.body, signatureHeaders(got.headers))),
  };
}

describe('the webhook sender', () => {
  it('exports the contract’s limits as its defaults', () => {
    expect(DEFAULT_DEADLINE_MS).toBe(10_000);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(1024);
  });

  it('POSTs the body with the Standard Webhooks headers, and a 2xx is a success', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const at = new Date();
    const outcome = await send({ url: `http://partner.example:${server.port}/hooks/orders?x=1`, secrets: [secret()] }, MESSAGE, {
      ...PARTNER_ALLOWED,
      clock: () => at,
    });

    expect(outcome).toEqual({ ok: true, statusCode: 204, durationMs: expect.any(Number) });
    expect(server.received).toHaveLength(1);
    const [got] = server.received;
    expect(got).toMatchObject({ method: 'POST', path: '/hooks/orders?x=1', body: BODY });
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      connection: 'close', // without a pool of connections, each message has its own
    });
  });

  it('signs so that standardwebhooks and svix both verify the message, and neither with another secret or body', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    const key = secret();
    await send({ url: `http://partner.example:${server.port}/`, secrets: [key] }, MESSAGE, PARTNER_ALLOWED);
    const got = server.received[0]!;

    expect(verdicts(key, got)).toEqual({ standardwebhooks: JSON.parse(BODY), svix: JSON.parse(BODY) });
    expect(verdicts(secret(), got)).toEqual({ standardwebhooks: 'No matching signature found', svix: 'No matching signature found' });
    expect(verdicts(key, { ...got, body: BODY.replace('12.50', '1.25') })).toEqual({
      standardwebhooks: 'No matching signature found',
      svix: 'No matching signature found',
    });
  });

  it('during a rotation carries both signatures in one header, each secret verifying the message alone', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    const [fresh, old] = [secret(), secret()];
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [fresh, old] }, MESSAGE, PARTNER_ALLOWED);
    expect(outcome.ok).toBe(true);
    const got = server.received[0]!;

    const signatures = String(got.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).toBe(new Webhook(fresh).sign('evt_1', new Date(Number(got.headers['webhook-timestamp']) * 1000), BODY));
    expect(signatures[1]).toBe(new Webhook(old).sign('evt_1', new Date(Number(got.headers['webhook-timestamp']) * 1000), BODY));
    expect(verdicts(fresh, got)).toEqual({ standardwebhooks: JSON.parse(BODY), svix: JSON.parse(BODY) });
    expect(verdicts(old, got)).toEqual({ standardwebhooks: JSON.parse(BODY), svix: JSON.parse(BODY) });
    expect(verdicts(secret(), got)).toEqual({ standardwebhooks: 'No matching signature found', svix: 'No matching signature found' });
  });

  it('reports a 500 as a failed attempt with its status', async () => {
    const server = await serve((res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error, do not keep me'));
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, PARTNER_ALLOWED);
    expect(outcome).toEqual({ ok: false, statusCode: 500, durationMs: expect.any(Number) });
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and its Location receives nothing', async () => {
    const elsewhere = await serve((res) => res.writeHead(200).end());
    const server = await serve((res) => res.writeHead(307, { location: `http://partner.example:${elsewhere.port}/moved` }).end());
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, PARTNER_ALLOWED);

    expect(outcome).toEqual({ ok: false, statusCode: 307, durationMs: expect.any(Number) });
    expect(server.received).toHaveLength(1);
    expect(elsewhere.connections.accepted).toBe(0);
  });

  it('ends an attempt whose answer never comes at the deadline, and closes the connection', async () => {
    const server = await serve(() => {}); // reads the request, never answers
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, { ...PARTNER_ALLOWED, deadlineMs: 300 });

    expect(outcome).toEqual({ ok: false, error: 'timeout: no complete answer within 300 ms', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeLessThan(BOUND_MS);
    expect(server.received).toHaveLength(1);
    await until(() => server.connections.closed === 1);
  });

  it('ends an attempt whose name never resolves at the deadline', async () => {
    const outcome = await send({ url: 'https://hooks.partner.com/', secrets: [secret()] }, MESSAGE, {
      allowedHosts: [],
      resolve: () => new Promise(() => {}),
      deadlineMs: 300,
    });
    expect(outcome).toEqual({ ok: false, error: 'timeout: no complete answer within 300 ms', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeLessThan(BOUND_MS);
  });

  it('ends an attempt whose body trickles at the deadline, though its status was a 200', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 50); // 1 KB would take 50 s
      res.on('close', () => clearInterval(drip));
    });
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, { ...PARTNER_ALLOWED, deadlineMs: 400 });

    expect(outcome).toEqual({ ok: false, statusCode: 200, error: 'timeout: no complete answer within 400 ms', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeLessThan(BOUND_MS);
    await until(() => server.connections.closed === 1);
  });

  it('ends an attempt whose body never ends at the byte cap, counted across chunks, long before the deadline', async () => {
    const server = await serve((res) => {
      res.writeHead(200);
      const stream = setInterval(() => res.write('x'.repeat(100)), 10);
      res.on('close', () => clearInterval(stream));
    });
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, {
      ...PARTNER_ALLOWED,
      deadlineMs: 600_000, // so that only the cap can end it
    });

    expect(outcome).toEqual({ ok: false, statusCode: 200, error: 'response body over 1024 bytes', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeLessThan(BOUND_MS);
    await until(() => server.connections.closed === 1);
  });

  it('ends a huge response at once, the server never getting to finish sending it', async () => {
    const size = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const sent = { bytes: 0, finished: null as boolean | null };
    const server = await serve((res) => {
      res.writeHead(200, { 'content-length': String(size) });
      const body = new Readable({
        read() {
          if (sent.bytes >= size) return void this.push(null);
          sent.bytes += chunk.length;
          this.push(chunk);
        },
      });
      res.on('close', () => (sent.finished = res.writableFinished));
      body.pipe(res);
    });
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, {
      ...PARTNER_ALLOWED,
      deadlineMs: 600_000,
    });

    expect(outcome).toEqual({ ok: false, statusCode: 200, error: 'response body over 1024 bytes', durationMs: expect.any(Number) });
    expect(outcome.durationMs).toBeLessThan(BOUND_MS);
    await until(() => sent.finished !== null);
    expect(sent.finished).toBe(false);
    expect(sent.bytes).toBeLessThan(size);
  });

  it('takes a 2xx body of up to the cap whole, and fails one a byte longer', async () => {
    const answerOf = async (bytes: number, maxResponseBytes?: number) => {
      const server = await serve((res) => res.writeHead(200).end('x'.repeat(bytes)));
      return send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, { ...PARTNER_ALLOWED, maxResponseBytes });
    };
    expect(await answerOf(1024)).toMatchObject({ ok: true, statusCode: 200 });
    expect(await answerOf(1025)).toMatchObject({ ok: false, statusCode: 200, error: 'response body over 1024 bytes' });
    expect(await answerOf(4096, 4096)).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('fails a 200 whose body the server cuts short', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":', () => res.destroy());
    });
    const outcome = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, PARTNER_ALLOWED);
    expect(outcome).toEqual({ ok: false, statusCode: 200, error: expect.any(String), durationMs: expect.any(Number) });
  });

  it('reports a refused connection as a failed attempt', async () => {
    const server = await serve(() => {});
    const closed = createNetServer();
    const port = await listening(closed, new Set());
    await new Promise((done) => closed.close(done)); // the port is free now: nothing listens on it
    const outcome = await send({ url: `http://partner.example:${port}/`, secrets: [secret()] }, MESSAGE, PARTNER_ALLOWED);
    expect(outcome).toEqual({ ok: false, error: expect.stringContaining('ECONNREFUSED'), durationMs: expect.any(Number) });
    expect(server.connections.accepted).toBe(0);
  });
});

describe('the webhook sender’s address checks', () => {
  it('refuses a public name that resolves to a loopback address (DNS rebinding), without connecting', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    const outcome = await send({ url: `https://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, { allowedHosts: [], resolve });

    expect(outcome).toEqual({
      ok: false,
      error: 'address refused: partner.example resolved to 127.0.0.1, not a public address',
      durationMs: expect.any(Number),
    });
    expect(server.connections.accepted).toBe(0);
  });

  it('refuses an internal address literal, and http to a host not allowed, before any lookup or connection', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    const lookups: string[] = [];
    const counting: Resolver = (hostname) => {
      lookups.push(hostname);
      return resolve(hostname);
    };
    const literal = await send({ url: `https://127.0.0.1:${server.port}/`, secrets: [secret()] }, MESSAGE, { allowedHosts: [], resolve: counting });
    const http = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, { allowedHosts: [], resolve: counting });

    expect(literal).toEqual({ ok: false, error: 'URL refused: 127.0.0.1 is not a public address', durationMs: expect.any(Number) });
    expect(http).toEqual({ ok: false, error: expect.stringMatching(/^URL refused: the URL must be https/), durationMs: expect.any(Number) });
    expect(lookups).toEqual([]);
    expect(server.connections.accepted).toBe(0);
  });

  it('delivers over http to an allowed host, by name or by address', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    const byName = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, { allowedHosts: ['partner.example'], resolve });
    const byAddress = await send({ url: `http://127.0.0.1:${server.port}/`, secrets: [secret()] }, MESSAGE, { allowedHosts: ['127.0.0.1'], resolve });
    expect([byName.ok, byAddress.ok]).toEqual([true, true]);
    expect(server.received).toHaveLength(2);
  });

  it('connects a name that resolves to an allowed address, and speaks TLS for an https URL', async () => {
    const firstBytes: number[] = [];
    const sockets = new Set<Socket>();
    const raw = createNetServer((socket) => {
      sockets.add(socket);
      socket.once('data', (data: Buffer) => {
        firstBytes.push(data[0]!);
        socket.destroy(); // no TLS here: the handshake fails, which is all this test needs
      });
    });
    const port = await listening(raw, sockets);
    const outcome = await send({ url: `https://hooks.partner.test:${port}/`, secrets: [secret()] }, MESSAGE, { allowedHosts: ['127.0.0.1'], resolve });

    expect(firstBytes).toEqual([0x16]); // a TLS handshake record (the ClientHello), not a plain "POST"
    expect(outcome).toEqual({ ok: false, error: expect.any(String), durationMs: expect.any(Number) });
  });
});

describe('the webhook sender with a pool of kept-alive connections', () => {
  const pools: Connections[] = [];
  afterEach(() => pools.splice(0).forEach((pool) => pool.close()));
  const pool = () => {
    const connections = new Connections();
    pools.push(connections);
    return connections;
  };

  it('sends one message after another over one connection, its address checked once, when it was made', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const lookups: string[] = [];
    const counting: Resolver = async (hostname) => (lookups.push(hostname), resolve(hostname));
    const options = { allowedHosts: ['partner.example'], resolve: counting, connections: pool() };
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push(await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, { id: `evt_${i}`, body: BODY }, options));

    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect(server.received.map((r) => r.headers['webhook-id'])).toEqual(['evt_0', 'evt_1', 'evt_2']);
    expect(server.received.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
    expect(server.connections.accepted).toBe(1);
    expect(lookups).toEqual(['partner.example']);
  });

  it('never reuses the connection of a failed attempt: a body over the cap closes it, and the next message has a new one', async () => {
    let n = 0;
    const server = await serve((res) => (n++ === 0 ? res.writeHead(200).end('x'.repeat(4 * DEFAULT_MAX_RESPONSE_BYTES)) : res.writeHead(204).end()));
    const options = { ...PARTNER_ALLOWED, connections: pool() };
    const over = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, options);
    const next = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, MESSAGE, options);

    expect(over).toMatchObject({ ok: false, error: `response body over ${DEFAULT_MAX_RESPONSE_BYTES} bytes` });
    expect(next).toMatchObject({ ok: true, statusCode: 204 });
    expect(server.connections.accepted).toBe(2);
  });

  it('sends a message again, once, on a connection of its own when the receiver drops a kept one as the message goes out', async () => {
    const served = new WeakSet<Socket>();
    let dropped = 0;
    // The second request on a connection is dropped unanswered: what a receiver closing an idle
    // connection just as the next message arrives looks like to the sender.
    const server = await serve((res, req) => {
      if (served.has(req.socket)) {
        dropped++;
        return void req.socket.destroy();
      }
      served.add(req.socket);
      res.writeHead(204).end();
    });
    const options = { ...PARTNER_ALLOWED, connections: pool() };
    const first = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, { id: 'evt_a', body: BODY }, options);
    const second = await send({ url: `http://partner.example:${server.port}/`, secrets: [secret()] }, { id: 'evt_b', body: BODY }, options);

    expect([first.ok, second]).toEqual([true, { ok: true, statusCode: 204, durationMs: expect.any(Number) }]);
    expect(dropped).toBe(1);
    expect(server.received.map((r) => r.headers['webhook-id'])).toEqual(['evt_a', 'evt_b', 'evt_b']);
    expect(server.connections.accepted).toBe(2);
  });
});

describe('signedHeaders', () => {
  it('refuses to sign without a secret, and send rejects before any traffic', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    expect(() => signedHeaders('evt_1', BODY, new Date(), [])).toThrow(TypeError);
    await expect(send({ url: `http://partner.example:${server.port}/`, secrets: [] }, MESSAGE, PARTNER_ALLOWED)).rejects.toThrow(TypeError);
    expect(server.connections.accepted).toBe(0);
  });
});
