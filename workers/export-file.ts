// Writes an order export: the order views a filter selects, page by page through the read-side
// port, their addresses opened (`openPage`: the views hold them sealed), as NDJSON or as CSV (RFC 4180, by csv-stringify). The pages flow through a stream
// pipeline, so the next page is read while the last is written, and memory holds a few pages
// however many orders there are.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { orderPage, type OrderFilter, type OrderKey } from '../read-side/orders/queries.js';
import type { OrderJson, ReadModelStore } from '../read-side/read-store.js';
import type { ExportFormat } from '../write-side/jobs/types.js';

export const CONTENT_TYPES: { readonly [F in ExportFormat]: string } = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8; header=present',
};

export const CSV_COLUMNS = [
  'id', 'customerId', 'status', 'currency', 'total', 'lines',
  'name', 'line1', 'line2', 'city', 'postalCode', 'region', 'country',
  'createdAt', 'updatedAt', 'revision',
] as const;

export async function writeExport(
  readModels: ReadModelStore,
  openPage: (rows: readonly OrderJson[]) => Promise<readonly OrderJson[]>,
  format: ExportFormat,
  filter: OrderFilter,
  path: string,
  onPage: (processed: number) => Promise<void>,
  pageSize = 1000,
): Promise<{ count: number; bytes: number }> {
  let count = 0;
  async function* pages() {
    let after: OrderKey | null = null;
    for (;;) {
      const rows = await readModels.listOrderJson(orderPage(filter, 'asc', after, pageSize));
      if (rows.length === 0) return;
      yield await openPage(rows);
      count += rows.length;
      const last = rows.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
      await onPage(count);
    }
  }
  // One encoded chunk per page: per-record stream objects would cost more than the encoding.
  // CSV encoding is the costliest step, so it runs on a thread of its own while this one reads
  // the next page.
  const encoder = format === 'csv' ? csvEncoder() : null;
  let header = true;
  const encode = new Transform({
    writableObjectMode: true,
    transform(rows: { json: string }[], _, done) {
      if (!encoder) return done(null, rows.map((r) => r.json).join('\n') + '\n');
      encoder.encode(rows.map((r) => r.json), header).then((text) => done(null, text), done);
      header = false;
    },
  });
  const out = createWriteStream(path);
  try {
    await pipeline(Readable.from(pages()), encode, out);
  } finally {
    await encoder?.close();
  }
  // On disk before the job says it succeeded (fsync flushes the file, whichever descriptor asks).
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  return { count, bytes: out.bytesWritten };
}

// The CSV encoder: order views (JSON text) in, RFC 4180 records out, on a worker thread. Plain
// JavaScript, so that it runs alike under tsx, vitest and the build. The header goes in as a
// record of its own: csv-stringify's 'columns' option costs a fifth of its speed.
const ENCODER = `
const { parentPort, workerData } = require('node:worker_threads');
const { stringify } = require(workerData.csv);
// A cell that a spreadsheet would take for a formula gets a leading ' (OWASP CSV injection).
const FORMULA = /^[=+\\-@\\t\\r]/;
const cell = (value) => (typeof value === 'string' && FORMULA.test(value) ? "'" + value : value);
const record = (v) => {
  const a = v.address;
  return [v.id, v.customerId, v.status, v.currency, v.total, JSON.stringify(v.lines),
    a.name, a.line1, a.line2 ?? '', a.city, a.postalCode, a.region ?? '', a.country,
    v.createdAt, v.updatedAt, v.revision].map(cell);
};
parentPort.on('message', ({ views, header }) => {
  try {
    const records = views.map((json) => record(JSON.parse(json)));
    if (header) records.unshift(workerData.columns);
    parentPort.postMessage({ text: stringify(records, { record_delimiter: 'windows' }) });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

function csvEncoder() {
  const worker = new Worker(ENCODER, {
    eval: true,
    workerData: { csv: createRequire(import.meta.url).resolve('csv-stringify/sync'), columns: [...CSV_COLUMNS] },
  });
  let pending: { resolve: (text: string) => void; reject: (error: Error) => void } | null = null;
  worker.on('message', (reply: { text?: string; error?: string }) => {
    const waiting = pending;
    pending = null;
    if (reply.error !== undefined) waiting?.reject(new Error(`CSV encoding failed: ${reply.error}`));
    else waiting?.resolve(reply.text!);
  });
  worker.on('error', (error) => pending?.reject(error));
  return {
    /** One page at a time: the pipeline waits for each page before it hands over the next. */
    encode: (views: string[], header: boolean) =>
      new Promise<string>((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ views, header });
      }),
    close: () => worker.terminate().then(() => undefined),
  };
}
