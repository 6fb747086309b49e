// Writes an order export: the order views a filter selects, page by page through the read-side
// port, as NDJSON or as CSV (RFC 4180). Memory holds one page, however many orders there are.
import { stringify } from 'csv-stringify/sync';
import { open } from 'node:fs/promises';
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

const csv = (records: unknown[][]) => stringify(records, { record_delimiter: 'windows' });

export async function writeExport(
  readModels: ReadModelStore,
  format: ExportFormat,
  filter: OrderFilter,
  path: string,
  onPage: (processed: number) => Promise<void>,
  pageSize = 1000,
): Promise<{ count: number; bytes: number }> {
  const file = await open(path, 'w');
  try {
    let bytes = 0;
    const write = async (text: string) => {
      const buffer = Buffer.from(text, 'utf8');
      await file.write(buffer);
      bytes += buffer.length;
    };
    if (format === 'csv') await write(csv([[...CSV_COLUMNS]]));
    let count = 0;
    let after: OrderKey | null = null;
    for (;;) {
      const rows = await readModels.listOrderJson(filter, 'asc', after, pageSize);
      if (rows.length === 0) break;
      await write(format === 'ndjson' ? rows.map((row) => row.json).join('\n') + '\n' : csv(rows.map((row) => csvRecord(JSON.parse(row.json) as OrderView))));
      count += rows.length;
      const last = rows.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
      await onPage(count);
    }
    // On disk before the job says it succeeded.
    await file.sync();
    return { count, bytes };
  } finally {
    await file.close();
  }
}
