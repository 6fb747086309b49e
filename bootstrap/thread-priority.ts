// The background threads of the `all` role (the projections', the workers') run below the thread
// that serves the requests (BACKGROUND_NICE). A placement waits on that thread and on the event
// store's writer, never on a projection or a webhook; on a machine with fewer cores than busy
// threads, the requests' thread otherwise waited for a core a fifth of the time while those ran
// (docs/benchmarks.md, session 33). The background work is not starved by it: it gets every core
// the requests leave, and its lag is what the Consistency-Token waits and readiness already watch.
import { readlinkSync, writeFileSync } from 'node:fs';
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
 * Names the calling thread (as `top -H`, `ps -L` and `perf` show it) and lowers its priority to
 * `nice`, never raising it. The threads it starts afterwards (its stores' writer and checkpointer)
 * inherit both, so it is called before they are opened. On Linux a nice value is a thread's own,
 * not its process's; elsewhere nothing changes. Returns the nice value the thread runs at, or
 * null where that cannot be told.
 */
export function backgroundThread(name: string, nice: number): number | null {
  const id = kernelThreadId();
  if (id === null) return null;
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // A name is for the operator's tools only.
  }
  try {
    if (getPriority(id) < nice) setPriority(id, nice);
    return getPriority(id);
  } catch {
    return null;
  }
}
