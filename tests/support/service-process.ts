// The service as a user starts it: `bootstrap/main.ts` in a child process of its own.
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** Runs one of the project's commands (`bootstrap/audit-cli.ts`, …) to its end, with only PATH and `env` set. */
/** `input`, when given, is the script's standard input. */
export function runScript(script: string, args: readonly string[], env: Record<string, string>, input?: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The port it serves on, once it says so (its stores open); rejects if it exits first. */
  readonly port: Promise<number>;
  /** The port it listens on, once it says so (before its stores are open: it answers 503 until then). */
  readonly listening: Promise<number>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code when it exits by itself. */
  readonly exit: Promise<number | null>;
  /** Sends the signal and resolves with the exit code (null after a kill). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startServiceProcess(env: Record<string, string>, args: readonly string[] = []): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/main.ts', ...args], {
    cwd: ROOT,
    // A read with a Consistency-Token waits up to a minute (5 s in production): a loaded machine's
    // projector may take longer than 5 s to reach a write, and these tests assert what the read
    // then shows, not how fast it came. A test that needs the short wait sets its own.
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', CONSISTENCY_WAIT_MS: '60000', REQUEST_TIMEOUT_MS: '90000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const said = (line: RegExp) => {
    const port = new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', () => {
        const match = line.exec(output);
        if (match) resolve(Number(match[1]));
      });
      void exited.then(([code]) => reject(new Error(`the service exited with ${code}: ${output.slice(-2000)}`)));
    });
    port.catch(() => {});
    return port;
  };
  // pino writes the message last, after the line's fields.
  const port = said(/"port":(\d+),"msg":"serving on /);
  const listening = said(/"port":(\d+),"msg":"listening on /);
  return {
    child,
    port,
    listening,
    exit: exited.then(([code]) => code),
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}
