// Passwords hashed with argon2id at OWASP's parameters (Password Storage Cheat Sheet: 19 MiB of
// memory, 2 passes, 1 lane). @node-rs/argon2 runs each hash and check on libuv's thread pool, so
// the event loop is never blocked by one. At most `concurrency` run at once (by default one core
// fewer than the machine has): a burst of sign-ins queues for the hashing threads instead of
// taking every core from the event loop that serves the other requests.
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../accounts/passwords.js';

/** `algorithm: 2` is Argon2id in the library's (ambient, const) enum, which this build cannot import by name. */
export const OWASP_ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function argon2Passwords(options: { concurrency?: number } = {}): PasswordHasher {
  const limit = Math.max(1, options.concurrency ?? availableParallelism() - 1);
  let running = 0;
  const waiting: Array<() => void> = [];
  async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes to the next in line, or frees up.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }
  return {
    hash: (password) => limited(() => hash(password, OWASP_ARGON2ID)),
    verify: (phc, password) => limited(() => verify(phc, password).catch(() => false)),
  };
}
