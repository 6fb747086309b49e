// The servers bench:http drives, each a child process on a port of its own from freePort: the
// service itself (bootstrap/main.ts on the embedded stores), the bare Koa baseline (baseline.ts)
// and the floor (floor.ts). Their output is drained and its last lines kept for error reports.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort, HOST } from '../support/free-port.js';

export interface BenchServer {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Settles once the server answers (the service: once /health/ready says it caught up). */
  readonly ready: Promise<void>;
}

const PATH = () => ({ PATH: process.env.PATH ?? '' });

/** The service on `dataDir`, waited for until its projections caught up (up to `readyTimeoutMs`). */
/** `env` adds to the service's environment (the first administrator, for the sign-in bench; personal data in clear, for bench:http); `nodeArgs` to node's (--cpu-prof, for bench:page); `root` is the checkout to run (another one, for bench:placement-ab; with its node_modules). */
export function startService(dataDir: string, secret: string, readyTimeoutMs: number, env: Record<string, string> = {}, nodeArgs: readonly string[] = [], root = process.cwd(), name = 'service'): Promise<BenchServer> {
  return startWired('bootstrap/main.ts', dataDir, secret, readyTimeoutMs, env, nodeArgs, root, name);
}

/** The service's peer that places orders without the catalogue and the stock (without-stock.ts), started as the service is. */
export function startWithoutStock(dataDir: string, secret: string, readyTimeoutMs: number): Promise<BenchServer> {
  return startWired(program('without-stock.ts'), dataDir, secret, readyTimeoutMs, {}, [], process.cwd(), 'without catalogue and stock');
}

async function startWired(entry: string, dataDir: string, secret: string, readyTimeoutMs: number, env: Record<string, string>, nodeArgs: readonly string[], root: string, name: string): Promise<BenchServer> {
  const port = await freePort();
  const child = startChild([entry], {
    ...PATH(),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST,
    // No per-request log lines: measure the service, not the log pipe.
    LOG_LEVEL: 'warn',
    AUTH_JWT_SECRET: secret,
    // The per-principal limiter must not cap the benchmark (every request here has one sub).
    RATE_LIMIT_PER_SECOND: '100000000',
    RATE_LIMIT_BURST: '100000000',
    ...env,
  }, nodeArgs, root);
  const url = `http://${HOST}:${port}`;
  return server(name, url, child, waitReady(name, child, `${url}/health/ready`, readyTimeoutMs));
}

/** Bare Koa answering the example order to any GET. */
export async function startBaseline(): Promise<BenchServer> {
  const port = await freePort();
  const child = startChild([program('baseline.ts')], { ...PATH(), PORT: String(port) });
  return server('bare koa', `http://${HOST}:${port}`, child, listening('bare koa', child, port, 30_000));
}

/** Bare node:http answering every request with the response recorded in `recordedFile` (bare-node.ts). */
export async function startBareNode(recordedFile: string): Promise<BenchServer> {
  const port = await freePort();
  const child = startChild([program('bare-node.ts'), recordedFile], { ...PATH(), PORT: String(port) });
  return server('bare node:http', `http://${HOST}:${port}`, child, listening('bare node:http', child, port, 30_000));
}

/** The floor: its own event store in `dataDir`, reading the service's stores in `serviceDir`. */
export async function startFloor(dataDir: string, serviceDir: string): Promise<BenchServer> {
  const port = await freePort();
  const child = startChild([program('floor.ts'), dataDir, serviceDir], { ...PATH(), PORT: String(port) });
  return server('floor', `http://${HOST}:${port}`, child, listening('floor', child, port, 30_000));
}

/** The API's HTTP layer of the checkout at `root`, before a write side that answers at once (layer-server.ts). */
export async function startLayer(name: string, root: string, secret: string, nodeArgs: readonly string[] = []): Promise<BenchServer> {
  const port = await freePort();
  const child = startChild([program('layer-server.ts'), root], { ...PATH(), PORT: String(port), BENCH_SECRET: secret }, nodeArgs);
  return server(name, `http://${HOST}:${port}`, child, listening(name, child, port, 30_000));
}

/** The last lines the server printed. */
export const tail = ({ child }: BenchServer): string => lastLines(child);

export async function stopServer({ child }: BenchServer): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// ---- child processes ----

const output = new WeakMap<ChildProcess, string[]>();

const program = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function server(name: string, url: string, child: ChildProcess, ready: Promise<void>): BenchServer {
  // Whoever awaits `ready` sees its failure; until then it must not count as unhandled.
  ready.catch(() => {});
  return { name, url, child, ready };
}

function startChild(args: string[], env: Record<string, string>, nodeArgs: readonly string[] = [], cwd = process.cwd()): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  output.set(child, lines);
  // Keep draining both pipes (a full pipe would block the child), remembering the last lines.
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      lines.push(...chunk.split('\n').filter((l) => l !== ''));
      if (lines.length > 200) lines.splice(0, lines.length - 200);
    });
  }
  return child;
}

const lastLines = (child: ChildProcess) => (output.get(child) ?? []).slice(-20).join('\n');

/** Settles when the child prints {"port":N} for the port it was given (listened for from the spawn on). */
function listening(name: string, child: ChildProcess, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => done(new Error(`${name} did not report listening within ${timeoutMs / 1000} s:\n${lastLines(child)}`)), timeoutMs);
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /"port":(\d+)/.exec(seen);
      if (match) done(Number(match[1]) === port ? null : new Error(`${name} listens on ${match[1]}, not on ${port}`));
    };
    const onExit = (code: number | null) => done(new Error(`${name} exited (${code}) before listening:\n${lastLines(child)}`));
    function done(error: Error | null) {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout!.on('data', onData);
    child.on('exit', onExit);
  });
}

async function waitReady(name: string, child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${lastLines(child)}`);
    try {
      const response = await fetch(url);
      last = `${response.status} ${await response.text()}`;
      if (response.status === 200) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (last: ${last}):\n${lastLines(child)}`);
}
