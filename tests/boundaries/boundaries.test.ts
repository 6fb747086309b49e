// A boundary rule is a rule only if it can fail. Each case copies the source folders and the
// dependency-cruiser config into a scratch directory, plants one forbidden import there, runs the
// check as `npm run boundaries` does (the script's folders, the project's config; through
// dependency-cruiser's API, so that the runs share one process) and sees it fail naming the rule;
// the unplanted copy passes.
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The folders and the config file that `npm run boundaries` checks, read from the script itself. */
function boundariesScript(): { config: string; folders: string[] } {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['boundaries'] ?? '';
  const match = /^depcruise --config (\S+) (.+)$/.exec(script);
  if (!match) throw new Error(`unexpected boundaries script: ${script}`);
  return { config: match[1]!, folders: match[2]!.split(/\s+/) };
}

const { config, folders } = boundariesScript();
const scratchDirs: string[] = [];

afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of what the check reads: the source folders, the config, tsconfig and package.json. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
  scratchDirs.push(dir);
  for (const name of [...folders, config, 'tsconfig.json', 'package.json']) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Puts `line` at the top of `file` in the scratch copy; a file that is not there is made (a brand-new area's). */
function plant(dir: string, file: string, line: string): void {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${line}\n${existsSync(path) ? readFileSync(path, 'utf8') : 'export const planted = 1;\n'}`);
}

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string; readonly severity: string };
}

/** Runs the check on a copy as the script does; the script exits with the count of errors. */
async function check(dir: string): Promise<{ errors: number; violations: Violation[] }> {
  const options = await extractDepcruiseOptions(join(dir, config));
  const tsConfig = extractTSConfig(join(dir, options.tsConfig?.fileName ?? 'tsconfig.json'));
  const result = await cruise(folders, { ...options, baseDir: dir, outputType: 'json' }, undefined, { tsConfig });
  const output = JSON.parse(result.output as string) as { summary: { error: number; violations: Violation[] } };
  return { errors: output.summary.error, violations: output.summary.violations };
}

interface Plant {
  readonly rule: string;
  readonly what: string;
  readonly file: string;
  readonly line: string;
  /** The resolved module the planted import must be reported as reaching. */
  readonly to: RegExp;
}

const plants: readonly Plant[] = [
  // drivers-only-in-adapters
  { rule: 'drivers-only-in-adapters', what: 'a route imports better-sqlite3', file: 'api/orders/operations.ts', line: "import Database from 'better-sqlite3';", to: /(^|\/)node_modules\/better-sqlite3\// },
  { rule: 'drivers-only-in-adapters', what: 'a route imports mongodb types', file: 'api/orders/operations.ts', line: "import type { MongoClient } from 'mongodb';", to: /(^|\/)node_modules\/mongodb\// },
  { rule: 'drivers-only-in-adapters', what: 'a projection imports the EventStoreDB client', file: 'projections/projector.ts', line: "import { EventStoreDBClient } from '@eventstore/db-client';", to: /(^|\/)node_modules\/@eventstore\/db-client\// },
  { rule: 'drivers-only-in-adapters', what: 'the composition root imports better-sqlite3', file: 'bootstrap/services.ts', line: "import Database from 'better-sqlite3';", to: /(^|\/)node_modules\/better-sqlite3\// },
  // adapters-stay-on-their-side
  { rule: 'adapters-stay-on-their-side', what: "the read side's SQLite adapter imports the write side's", file: 'read-side/adapters/sqlite-read-store.ts', line: "import { SqliteEventStore } from '../../write-side/adapters/sqlite-event-store.js';", to: /^write-side\/adapters\/sqlite-event-store\.ts$/ },
  { rule: 'adapters-stay-on-their-side', what: "the write side's EventStoreDB adapter imports the MongoDB read store", file: 'write-side/adapters/esdb-event-store.ts', line: "import type { MongoReadStore } from '../../read-side/adapters/mongo-read-store.js';", to: /^read-side\/adapters\/mongo-read-store\.ts$/ },
  // api-reaches-only-use-cases
  { rule: 'api-reaches-only-use-cases', what: 'a route imports a projection', file: 'api/jobs/operations.ts', line: "import { orderViews } from '../../projections/orders/order-views.js';", to: /^projections\/orders\/order-views\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: 'a route imports a codec', file: 'api/jobs/operations.ts', line: "import { jobStream } from '../../write-side/jobs/codec.js';", to: /^write-side\/jobs\/codec\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: 'any other route imports the order codec', file: 'api/jobs/operations.ts', line: "import { orderStream } from '../../write-side/orders/codec.js';", to: /^write-side\/orders\/codec\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: 'a route imports an adapter', file: 'api/orders/operations.ts', line: "import type { SqliteReadStore } from '../../read-side/adapters/sqlite-read-store.js';", to: /^read-side\/adapters\/sqlite-read-store\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: 'a route imports the decider', file: 'api/orders/operations.ts', line: "import { decide } from '../../write-side/orders/decider.js';", to: /^write-side\/orders\/decider\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: 'a middleware imports the export worker', file: 'api/middleware/context.ts', line: "import type { ExportWorker } from '../../workers/export-worker.js';", to: /^workers\/export-worker\.ts$/ },
  // domain-is-pure
  { rule: 'domain-is-pure', what: 'the order decider reads a file', file: 'write-side/orders/decider.ts', line: "import { readFileSync } from 'node:fs';", to: /^(node:)?fs$/ },
  { rule: 'domain-is-pure', what: 'the jobs decider draws random ids from a package', file: 'write-side/jobs/decider.ts', line: "import { v4 } from 'uuid';", to: /(^|\/)node_modules\/uuid\// },
  { rule: 'domain-is-pure', what: 'the order decider imports the event store adapter', file: 'write-side/orders/decider.ts', line: "import type { SqliteEventStore } from '../adapters/sqlite-event-store.js';", to: /^write-side\/adapters\/sqlite-event-store\.ts$/ },
  { rule: 'domain-is-pure', what: 'a module the domain imports does I/O (the errors read a file)', file: 'write-side/kernel/errors.ts', line: "import { readFileSync } from 'node:fs';", to: /^(node:)?fs$/ },
  // every rule is a pattern: a brand-new area's folders are covered without an edit of the config
  { rule: 'domain-is-pure', what: "a brand-new area's decider imports a database driver", file: 'write-side/refunds/decider.ts', line: "import Database from 'better-sqlite3';", to: /(^|\/)node_modules\/better-sqlite3\// },
  { rule: 'drivers-only-in-adapters', what: "a brand-new area's decider imports a database driver", file: 'write-side/refunds/decider.ts', line: "import Database from 'better-sqlite3';", to: /(^|\/)node_modules\/better-sqlite3\// },
  { rule: 'domain-is-pure', what: "a brand-new area's codec reaches a mechanism that does I/O", file: 'write-side/refunds/codec.ts', line: "import { UniqueValues } from '../kernel/unique-values.js';", to: /^node:crypto$|^crypto$|^write-side\/kernel\/unique-values\.ts$/ },
  { rule: 'domain-is-pure', what: 'the stock decider reads a file', file: 'write-side/stock/decider.ts', line: "import { readFileSync } from 'node:fs';", to: /^(node:)?fs$/ },
  { rule: 'domain-is-pure', what: 'the stock reservations map reads a file', file: 'write-side/stock/reservations.ts', line: "import { readFileSync } from 'node:fs';", to: /^(node:)?fs$/ },
  { rule: 'domain-is-pure', what: 'the accounts codec reaches the command handler', file: 'write-side/accounts/codec.ts', line: "import { CommandHandler } from '../kernel/command-handler.js';", to: /^write-side\/kernel\/command-handler\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: "a brand-new area's operations import its decider", file: 'api/refunds/operations.ts', line: "import { decide } from '../../write-side/orders/decider.js';", to: /^write-side\/orders\/decider\.ts$/ },
  { rule: 'api-reaches-only-use-cases', what: "a brand-new area's operations import a projection", file: 'api/refunds/operations.ts', line: "import { orderViews } from '../../projections/orders/order-views.js';", to: /^projections\/orders\/order-views\.ts$/ },
  { rule: 'write-side-knows-no-readers', what: "a brand-new area's use cases import a read-side query", file: 'write-side/refunds/service.ts', line: "import type { OrderQueries } from '../../read-side/orders/queries.js';", to: /^read-side\/orders\/queries\.ts$/ },
];

describe('npm run boundaries', () => {
  it('passes on an unplanted copy of the tree', async () => {
    const result = await check(scratchCopy());
    expect(result.violations).toEqual([]);
    expect(result.errors).toBe(0);
  });

  // One copy and one run per planted import, so that each failure is that import's alone.
  it.each(plants)('$rule: fails when $what', async ({ rule, file, line, to }) => {
    const dir = scratchCopy();
    plant(dir, file, line);
    const result = await check(dir);
    expect(result.errors).toBeGreaterThan(0);
    const named = result.violations.filter((v) => v.rule.name === rule && to.test(v.to));
    expect(named, JSON.stringify(result.violations)).not.toEqual([]);
    expect(named.every((v) => v.rule.severity === 'error')).toBe(true);
    // A planted import reported from the file itself, or (for a rule on what the domain reaches)
    // from a domain module that reaches the planted one.
    expect(named.some((v) => v.from === file || rule === 'domain-is-pure')).toBe(true);
  });
});
