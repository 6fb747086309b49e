// Passwords hashed with argon2id at OWASP's parameters (Password Storage Cheat Sheet: 19 MiB of
// memory, 2 passes, 1 lane). @node-rs/argon2 runs each hash and check on libuv's thread pool, so
// the event loop keeps serving other requests while a sign-in is checked.
import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../passwords.js';

/** `algorithm: 2` is Argon2id in the library's (ambient, const) enum, which this build cannot import by name. */
export const OWASP_ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const argon2Passwords: PasswordHasher = {
  hash: (password) => hash(password, OWASP_ARGON2ID),
  async verify(phc, password) {
    try {
      return await verify(phc, password);
    } catch {
      return false;
    }
  },
};
