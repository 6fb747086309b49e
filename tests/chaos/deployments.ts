// What the chaos run kills: the service as one process (`all`), or scaled out as compose.yaml's
// `scaled` profile runs it, on the embedded stores: two API processes behind a round-robin
// reverse proxy, a projector holding the lease and its standby, and an export worker, all on
// one DATA_DIR. Each kill takes one process down with SIGKILL and starts it again.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { MEMBERS, Topology, type Member } from '../support/topology.js';

export type TopologyMode = 'single' | 'scaled';

export interface Deployment {
  /** Where the clients and the fulfilment worker send their requests. */
  readonly url: string;
  start(): Promise<void>;
  /** SIGKILLs one process, picked with `random`, and starts it again; names it. */
  killOne(random: () => number): Promise<string>;
  /** Stops every process with SIGTERM; each one's exit code. */
  stop(): Promise<Array<number | null>>;
  /** Everything every process printed. */
  output(): string;
  /** SIGKILLs whatever still runs. */
  dispose(): Promise<void>;
}

/** `env` holds the stores, the secret and the limits; `port` is where the clients connect. */
export function deployment(mode: TopologyMode, env: Record<string, string>, port: number, apiPorts: readonly [number, number]): Deployment {
  return mode === 'scaled' ? new ScaledOut(env, port, apiPorts) : new SingleProcess({ ...env, PORT: String(port) }, port);
}

class SingleProcess implements Deployment {
  readonly url: string;
  private service: ServiceProcess | null = null;
  private readonly printed: string[] = [];

  constructor(
    private readonly env: Record<string, string>,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.service = startServiceProcess(this.env);
    await this.service.port;
  }

  async killOne(): Promise<string> {
    await this.service!.stop('SIGKILL');
    this.printed.push(this.service!.output());
    await this.start();
    return 'the service';
  }

  async stop(): Promise<Array<number | null>> {
    const code = await this.service!.stop('SIGTERM');
    this.printed.push(this.service!.output());
    this.service = null;
    return [code];
  }

  output(): string {
    return [...this.printed, this.service?.output() ?? ''].join('');
  }

  async dispose(): Promise<void> {
    await this.service?.stop('SIGKILL').catch(() => {});
  }
}

class ScaledOut implements Deployment {
  readonly url: string;
  private readonly topology: Topology;
  private proxy: Server | null = null;

  constructor(
    env: Record<string, string>,
    private readonly port: number,
    private readonly apiPorts: readonly [number, number],
  ) {
    this.url = `http://127.0.0.1:${port}`;
    // A short lease: a standby takes over about a second after the projector died. Starts get
    // two minutes: the run's own clients and processes load the machine, and a start starved of
    // CPU is slow, not stuck (a stuck one still fails, with the CPU time it used).
    this.topology = new Topology({ PROJECTOR_LEASE_SECONDS: '1', ...env }, { 'api-1': apiPorts[0], 'api-2': apiPorts[1] }, { startTimeoutMs: 120_000 });
  }

  async start(): Promise<void> {
    this.proxy = roundRobinProxy(this.apiPorts);
    this.proxy.listen(this.port, '127.0.0.1');
    await once(this.proxy, 'listening');
    await this.topology.start();
  }

  async killOne(random: () => number): Promise<string> {
    const member: Member = MEMBERS[Math.floor(random() * MEMBERS.length)]!;
    const holding = this.topology.projectorHolding();
    await this.topology.stop(member, 'SIGKILL');
    await this.topology.launch(member);
    return member === holding ? `${member} (the projector holding the lease)` : member;
  }

  async stop(): Promise<Array<number | null>> {
    const codes = await this.topology.stopAll();
    await this.closeProxy();
    return [...codes.values()];
  }

  output(): string {
    return this.topology.output();
  }

  async dispose(): Promise<void> {
    await this.topology.kill();
    await this.closeProxy();
  }

  private async closeProxy(): Promise<void> {
    if (!this.proxy) return;
    const proxy = this.proxy;
    this.proxy = null;
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
  }
}

/**
 * The reverse proxy in front of the API processes, as nginx does it by default: requests go
 * to the upstreams in turn; one whose connection is refused goes to the next (it was not sent);
 * a failure after it was sent is answered 502, or cuts the response short if it had begun. Its own
 * answers say `Via`, so that the tests' OpenAPI conformance check leaves them to the proxy.
 */
function roundRobinProxy(ports: readonly number[]): Server {
  let next = 0;
  return createServer(async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const first = next++ % ports.length;
    for (let tried = 0; tried < ports.length; tried++) {
      const port = ports[(first + tried) % ports.length]!;
      const sent = await new Promise<'refused' | 'done'>((resolve) => {
        const upstream = request({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
          response.on('error', () => outgoing.destroy());
          response.on('close', () => {
            if (!response.complete) outgoing.destroy();
            resolve('done');
          });
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED') return resolve('refused');
          if (!outgoing.headersSent) outgoing.writeHead(502, PROXY_ANSWER).end();
          else outgoing.destroy();
          resolve('done');
        });
        // A client gone takes its upstream request with it (a long-poll, a stream).
        outgoing.on('close', () => upstream.destroy());
        upstream.end(body);
      });
      if (sent === 'done') return;
    }
    outgoing.writeHead(502, PROXY_ANSWER).end();
  });
}

const PROXY_ANSWER = { Via: '1.1 chaos-proxy' };
