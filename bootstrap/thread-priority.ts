// The background threads of the `all` role (the projections', the workers') run below the thread
// that serves the requests (BACKGROUND_NICE). A placement waits on that thread and on the event
// store's writer, never on a projection or a webhook; on a machine with fewer cores than busy
// threads, the requests' thread otherwise waited for a core a fifth of the time while those ran
// (docs/benchmarks.md, session 33). A nice value is a thread's own on Linux; elsewhere nothing
// here changes anything.
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The calling thread's id as the kernel knows it; null where there is no /proc/thread-self (not Linux). */
export function kernelThreadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Names the calling thread, as `top -H`, `ps -L` and `perf` show it. The threads it starts
 * afterwards (its stores' writer, say) are named alike, which is how lowerThreads finds them.
 */
export function nameThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // A name is for the operator's tools; where it cannot be set, lowerThreads finds nothing.
  }
}

/** Lowers every thread of this process named one of `names` to `nice`, never raising one. */
export function lowerThreads(names: readonly string[], nice: number): void {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const task of tasks) {
    try {
      if (names.includes(readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim())) lower(Number(task), nice);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}

/** The thread `id` lowered to `nice`, never raised: a thread at a higher nice value already is left there. */
function lower(id: number, nice: number): void {
  if (getPriority(id) < nice) setPriority(id, nice);
}

/**
 * Names the calling thread and lowers it to `nice` at once, before it starts any thread of its
 * own (which then inherit both): for a thread whose every task is background work.
 */
export function backgroundThread(name: string, nice: number): void {
  nameThread(name);
  const id = kernelThreadId();
  try {
    if (id !== null) lower(id, nice);
  } catch {
    // Left at the requests' priority.
  }
}
