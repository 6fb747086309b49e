// The scaled-out topology on the embedded stores: separate processes on one DATA_DIR, as
// compose.yaml's `scaled` profile runs them on EventStoreDB and MongoDB. Two API processes, a
// projector holding the lease and a standby, and an export worker.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

export const MEMBERS = ['api-1', 'api-2', 'projector-1', 'projector-2', 'worker'] as const;
export type Member = (typeof MEMBERS)[number];

const ROLE: { readonly [M in Member]: string } = { 'api-1': 'api', 'api-2': 'api', 'projector-1': 'projector', 'projector-2': 'projector', worker: 'worker' };

export class Topology {
  private readonly processes = new Map<Member, ServiceProcess>();
  /** What every process printed, the ones killed before included. */
  private readonly printed: string[] = [];

  /**
   * `ports` fixes the API processes' ports (so that a restart keeps them); 0 picks free ones.
   * `startTimeoutMs` is how long a member may take to come up (a start needs about 3 s of CPU,
   * so a machine with ten runnable threads a core stretches it to half a minute).
   */
  constructor(
    private readonly env: Record<string, string>,
    private readonly ports: { readonly [M in 'api-1' | 'api-2']?: number } = {},
    private readonly options: { readonly startTimeoutMs?: number } = {},
  ) {}

  /** Starts every member; the first projector holds the lease before the second starts. */
  async start(): Promise<void> {
    await Promise.all([this.launch('api-1'), this.launch('api-2')]);
    await waitForOutput(await this.launch('projector-1'), 'holding the lease');
    await this.launch('projector-2');
    await this.launch('worker');
  }

  /** Starts (or restarts) one member, and resolves once it is up: listening, holding the lease, standing by or working. */
  async launch(member: Member): Promise<ServiceProcess> {
    const port = member === 'api-1' || member === 'api-2' ? String(this.ports[member] ?? 0) : '0';
    const child = startServiceProcess({ ...this.env, ROLE: ROLE[member], PORT: port });
    this.processes.set(member, child);
    if (ROLE[member] === 'api') await child.port;
    else await waitForOutput(child, ROLE[member] === 'worker' ? 'export worker running' : /holding the lease|standby/, this.options.startTimeoutMs);
    return child;
  }

  process(member: Member): ServiceProcess {
    const child = this.processes.get(member);
    if (!child) throw new Error(`${member} was not started`);
    return child;
  }

  async url(member: 'api-1' | 'api-2'): Promise<string> {
    return `http://127.0.0.1:${await this.process(member).port}`;
  }

  /** The member holding the projector lease now, by what the projectors said last. */
  projectorHolding(): Member | null {
    for (const member of ['projector-1', 'projector-2'] as const) {
      const child = this.processes.get(member);
      if (!child || child.child.exitCode !== null || child.child.signalCode !== null) continue;
      const output = child.output();
      if (output.lastIndexOf('holding the lease') > output.lastIndexOf('standby')) return member;
    }
    return null;
  }

  /** Stops one member with the signal; its output is kept. */
  async stop(member: Member, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.process(member);
    const code = await child.stop(signal);
    this.printed.push(child.output());
    this.processes.delete(member);
    return code;
  }

  /** Stops every member still running with SIGTERM; their exit codes. */
  async stopAll(): Promise<Map<Member, number | null>> {
    const codes = new Map<Member, number | null>();
    await Promise.all([...this.processes.keys()].map(async (member) => codes.set(member, await this.stop(member))));
    return codes;
  }

  /** Stops everything at once, for a test's clean-up. */
  async kill(): Promise<void> {
    await Promise.all([...this.processes.keys()].map((member) => this.stop(member, 'SIGKILL').catch(() => null)));
  }

  output(): string {
    return [...this.printed, ...[...this.processes.values()].map((child) => child.output())].join('');
  }
}

/** Resolves once the process has printed `pattern`; rejects if it exits first or after `timeoutMs`. */
export async function waitForOutput(child: ServiceProcess, pattern: string | RegExp, timeoutMs = 30_000): Promise<void> {
  const matches = () => (typeof pattern === 'string' ? child.output().includes(pattern) : pattern.test(child.output()));
  for (const deadline = Date.now() + timeoutMs; !matches(); await new Promise((r) => setTimeout(r, 25))) {
    if (child.child.exitCode !== null || child.child.signalCode !== null) throw new Error(`exited before printing ${pattern}: ${child.output().slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`did not print ${pattern} within ${timeoutMs} ms (${cpuSpent(child)}, load average ${loadavg()[0]!.toFixed(1)}): ${child.output().slice(-2000)}`);
  }
}

/** The CPU time a process has used so far, where /proc says: a start starved of CPU has used little, a stuck one a lot or none. */
function cpuSpent(child: ServiceProcess): string {
  try {
    const fields = readFileSync(`/proc/${child.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 a second on Linux).
    return `${((Number(fields[11]) + Number(fields[12])) / 100).toFixed(2)} s of CPU used`;
  } catch {
    return 'CPU time unknown';
  }
}
