// Byte scans of a DATA_DIR, for the tests that prove personal data is gone from disk (erasure):
// every file under it, whatever it is (store files, their -wal and -shm, exports, keys).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each file under `dir` (recursively) whose bytes hold one of `markers`, as its path relative to `dir` and the marker. */
export function markersOnDisk(dir: string, markers: readonly string[]): { file: string; marker: string }[] {
  const needles = markers.map((marker) => ({ marker, bytes: Buffer.from(marker) }));
  const found: { file: string; marker: string }[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const bytes = readFileSync(full);
        for (const { marker, bytes: needle } of needles) if (bytes.includes(needle)) found.push({ file: relative(dir, full), marker });
      }
    }
  };
  walk(dir);
  return found;
}

/** The files under `dir` (recursively) whose bytes hold `marker`, as paths relative to it. */
export const filesHolding = (dir: string, marker: string): string[] => markersOnDisk(dir, [marker]).map(({ file }) => file);
