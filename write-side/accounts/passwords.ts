// The password port: the write side hashes and checks passwords through it, so that no clear
// password goes further than the use case that received it. adapters/argon2-passwords.ts is the
// implementation; its work runs off the event loop.
import { ValidationFailed } from '../kernel/errors.js';

export interface PasswordHasher {
  /** A PHC string with its own salt and parameters. */
  hash(password: string): Promise<string>;
  /** False for a wrong password, and for a hash that cannot be read. */
  verify(hash: string, password: string): Promise<boolean>;
}

/** NIST SP 800-63B: at least 12 characters here (the contract), at most 256; counted in code points. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function checkPassword(password: string, pointer: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new ValidationFailed([{ pointer, message: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters` }]);
  }
}
