// A fulfilment worker, as a partner would write one: it follows the queue's changes, ships each
// order that entered the queue, and keeps its own position in a file. Killed at any moment and
// started again, it ships every paid order exactly once: the position only moves after an order
// is handled, and the shipment's Idempotency-Key (and body) are derived from the order, so a
// repeat is answered from the first shipment instead of making a second.
//
// A token that is refused (401: expired, revoked, another secret) or lacks shipments:write (403)
// stops it with a message and exit code 3: retrying could never ship anything.
//
//   tsx examples/fulfilment-worker.ts --url http://127.0.0.1:3000 --token "$TOKEN" --state ./data/worker.position
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    token: { type: 'string' },
    state: { type: 'string', default: './data/fulfilment-worker.position' },
    carrier: { type: 'string', default: 'DHL' },
  },
});
if (!values.token) {
  console.error('usage: fulfilment-worker --url <service> --token <token with shipments:write> [--state <file>]');
  process.exit(2);
}
const headers = { Authorization: `Bearer ${values.token}`, 'Content-Type': 'application/json' };

/** When the token expires, from its exp claim (a JWT's payload is readable without the key); null when it has none. */
function expiryOf(token: string): Date | null {
  try {
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: unknown };
    return typeof exp === 'number' ? new Date(exp * 1000) : null;
  } catch {
    return null;
  }
}

const expiresAt = expiryOf(values.token);
if (expiresAt === null) console.log('token: no expiry could be read from it');
else if (expiresAt.getTime() <= Date.now()) stop(`the token expired at ${expiresAt.toISOString()}; mint a new one (npm run token -- --ttl <seconds>)`);
else console.log(`token expires at ${expiresAt.toISOString()} (in ${Math.round((expiresAt.getTime() - Date.now()) / 60_000)} min); the worker stops then`);

function stop(reason: string): never {
  console.error(`fulfilment worker stopped: ${reason}`);
  process.exit(3);
}

/** 401 and 403 do not pass by retrying. */
function refused(response: Response): void {
  if (response.status === 401) {
    const expired = expiresAt !== null && expiresAt.getTime() <= Date.now() ? ` (it expired at ${expiresAt.toISOString()})` : '';
    stop(`the service refused the token: 401 unauthenticated${expired}; mint a new one`);
  }
  if (response.status === 403) stop('the token lacks the shipments:write scope (403 forbidden); mint one with --scope shipments:write');
}

interface Change {
  position: string;
  orderId: string;
  change: 'entered' | 'left';
}

async function loadPosition(): Promise<string | null> {
  try {
    return (await readFile(values.state!, 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

async function savePosition(position: string): Promise<void> {
  // Write then rename: a kill leaves either the old position or the new one, never half of one.
  await mkdir(dirname(values.state!), { recursive: true });
  await writeFile(`${values.state}.tmp`, position);
  await rename(`${values.state}.tmp`, values.state!);
}

/** A request that outlives a restart of the service: connection failures are retried. */
async function call(path: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`${values.url}${path}`, init);
    } catch {
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2000)));
    }
  }
}

async function ship(orderId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const response = await call(`/orders/${orderId}/shipments`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': `fulfilment-ship-${orderId}` },
      body: JSON.stringify({ carrier: values.carrier, trackingNumber: `TRK-${orderId}` }),
    });
    // 201: shipped now, or the replay of the first shipment. 409: shipped or cancelled meanwhile.
    if (response.status === 201 || response.status === 409) {
      console.log(`${response.status === 201 ? 'shipped' : 'skipped'} ${orderId}${response.headers.get('idempotent-replayed') ? ' (replayed)' : ''}`);
      return;
    }
    refused(response);
    if (response.status >= 500 || response.status === 429) {
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 5000)));
      continue;
    }
    throw new Error(`shipping ${orderId} failed with ${response.status}: ${await response.text()}`);
  }
}

let position = await loadPosition();
for (;;) {
  const query = new URLSearchParams({ wait: '10', limit: '100', ...(position ? { after: position } : {}) });
  const response = await call(`/fulfilment-queue/changes?${query}`, { headers });
  if (!response.ok) {
    refused(response);
    await new Promise((r) => setTimeout(r, 1000));
    continue;
  }
  const page = (await response.json()) as { changes: Change[]; next: string | null };
  for (const change of page.changes) {
    if (change.change === 'entered') await ship(change.orderId);
    position = change.position;
    await savePosition(position);
  }
  if (page.next && page.next !== position) {
    position = page.next;
    await savePosition(position);
  }
}
