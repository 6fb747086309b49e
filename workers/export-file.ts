// Writes an order export: the order views a filter selects, page by page through the read-side
// port, as NDJSON or as CSV (RFC 4180, by csv-stringify). The pages flow through a stream
// pipeline, so the next page is read while the last is written, and memory holds a few pages
// however many orders there are.
import { stringify } from 'csv-stringify/sync';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OrderFilter, OrderKey, ReadModelStore } from '../read-side/read-store.js';
import type { OrderView } from '../read-side/views.js';
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

function csvRecord(view: OrderView): unknown[] {
  const a = view.address;
  return [
    view.id, view.customerId, view.status, view.currency, view.total, JSON.stringify(view.lines),
    a.name, a.line1, a.line2 ?? '', a.city, a.postalCode, a.region ?? '', a.country,
    view.createdAt, view.updatedAt, view.revision,
  ];
}

export async function writeExport(
  readModels: ReadModelStore,
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
      const rows = await readModels.listOrderJson(filter, 'asc', after, pageSize);
      if (rows.length === 0) return;
      yield rows;
      count += rows.length;
      const last = rows.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
      await onPage(count);
    }
  }
  // One encoded chunk per page: per-record stream objects would cost more than the encoding.
  const csvOptions = { columns: [...CSV_COLUMNS], record_delimiter: 'windows' as const };
  let header = true;
  const encode = new Transform({
    writableObjectMode: true,
    transform(rows: { json: string }[], _, done) {
      if (format === 'ndjson') return done(null, rows.map((r) => r.json).join('\n') + '\n');
      const text = stringify(rows.map((r) => csvRecord(JSON.parse(r.json) as OrderView)), { ...csvOptions, header });
      header = false;
      done(null, text);
    },
  });
  const out = createWriteStream(path);
  await pipeline(Readable.from(pages()), encode, out);
  // On disk before the job says it succeeded (fsync flushes the file, whichever descriptor asks).
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  return { count, bytes: out.bytesWritten };
}
