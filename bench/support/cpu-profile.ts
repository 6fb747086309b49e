// The summary of a benchmarked child process's V8 CPU profile (--cpu-prof) over the windows a
// route was driven in: shared by bench:http and bench:page.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The node arguments that make a benchmarked service write a CPU profile of each of its threads into `dir`; none without a dir. */
export function cpuProfileArgs(dir: string | null | undefined): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** Now on the monotonic clock, in µs: the clock a V8 CPU profile stamps its samples with. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber?: number }; children?: number[] }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The main thread's profile of a process run with --cpu-prof-dir=`dir` (written on exit). Every
 * thread writes its own, CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile; the main
 * thread's id is 0 (the event store's writer is a worker thread).
 */
export function readProfile(dir: string): CpuProfile {
  const file = readdirSync(dir).filter((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name)).sort().at(-1);
  if (!file) throw new Error(`no CPU profile of a main thread in ${dir}`);
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

/**
 * The functions the process spent its time in during `windows` (monotonic µs), by share of the
 * samples taken then (idle left out): their own time, their time with what they called, and own
 * time by file.
 */
export function printProfile(profile: CpuProfile, windows: ReadonlyArray<readonly [number, number]>, label: string, top = 30): void {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const name = (id: number) => {
    const frame = frames.get(id)!;
    const file = frame.url === '' ? '' : ` ${relative(process.cwd(), frame.url.replace(/^file:\/\//, ''))}`;
    return `${frame.functionName || '(anonymous)'}${file}`;
  };
  const own = new Map<string, number>();
  const within = new Map<string, number>();
  const byFile = new Map<string, number>();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]!;
    if (!windows.some(([from, to]) => at >= from && at <= to)) return;
    if (frames.get(id)!.functionName === '(idle)') return;
    own.set(name(id), (own.get(name(id)) ?? 0) + 1);
    const file = relative(process.cwd(), frames.get(id)!.url.replace(/^file:\/\//, '')) || '(native)';
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node)) seen.add(name(node));
    for (const key of seen) within.set(key, (within.get(key) ?? 0) + 1);
    total++;
  });
  for (const [title, counts] of [['own time', own], ['time with callees', within], ['own time by file', byFile]] as const) {
    console.log(`\n  ${title} during ${label} (${total.toLocaleString('en-US')} samples, idle left out):`);
    for (const [key, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${((count / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }
}
