// Secrets for the embedded default: made once, kept in DATA_DIR with owner-only permissions.
import { randomBytes } from 'node:crypto';
import { hkdfSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

export function loadOrCreateSecret(dataDir: string, name: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  // 'wx' fails if another process created it first; then theirs is the one to use.
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

/** The secret kept in DATA_DIR, or null when there is none yet (for commands that must not make one). */
export function readSecret(dataDir: string, name: string): string | null {
  try {
    return readFileSync(join(dataDir, name), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Every replica must sign cursors alike: CURSOR_SECRET, else a key derived from the JWT secret, else one in DATA_DIR. */
export function cursorSecret(config: Config): string {
  if (config.cursorSecret) return config.cursorSecret;
  if (config.auth.jwtSecret) {
    return Buffer.from(hkdfSync('sha256', config.auth.jwtSecret, '', 'order-service/cursor', 32)).toString('hex');
  }
  return loadOrCreateSecret(config.dataDir, 'cursor-secret');
}
