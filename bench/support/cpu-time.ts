// CPU time a process has used so far, read from /proc: what a server spends per request, which
// varies less with what else the machine runs than its requests per second do.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time the process has used so far, user and system, every thread, in ms. */
export function cpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** User and system time, in ms, of a /proc stat line (a process's or a thread's). */
function statCpuMs(stat: string): number {
  // Fields after the command name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU time each thread of the process has used so far, in ms, by thread id, with the thread's name and id ("main" for the main thread). */
export function threadCpuMs(pid: number): Map<number, { readonly name: string; readonly ms: number }> {
  const threads = new Map<number, { name: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = Number(tid) === pid ? 'main' : `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))} ${tid}`;
      threads.set(Number(tid), { name, ms: statCpuMs(stat) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** The threads that used at least 1% of the window, busiest first: "name tid share-of-a-core%". */
export function busiestThreads(before: ReturnType<typeof threadCpuMs>, after: ReturnType<typeof threadCpuMs>, windowMs: number): string {
  return [...after]
    .map(([tid, { name, ms }]) => ({ name, share: (ms - (before.get(tid)?.ms ?? 0)) / windowMs }))
    .filter(({ share }) => share >= 0.01)
    .sort((a, b) => b.share - a.share)
    .map(({ name, share }) => `${name} ${(share * 100).toFixed(0)}%`)
    .join(', ');
}
