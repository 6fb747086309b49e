// Waiting for something a test's system does in the background (a projection, a worker, a
// server noticing a closed connection): by polling for the state that shows it happened, not by
// sleeping "long enough". There is no short deadline: on a loaded machine the work may take
// many times its usual few milliseconds, and the test's own timeout is what fails a wait that
// never ends. The stopper below only ends a loop whose test has already failed.
const STOP_AFTER_MS = 600_000;

/** Polls `read` every `everyMs` until `done` holds for its value (truthy by default), and returns that value. */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean = Boolean, everyMs = 25): Promise<T> {
  const stopAt = Date.now() + STOP_AFTER_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > stopAt) throw new Error(`still waiting after ${STOP_AFTER_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
