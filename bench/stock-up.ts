// Prepares a running service for a load generator that orders SKUs of its own (the Emmett peer
// harness orders SKU-1 at 1999 EUR): defines each SKU as an active product at that EUR price and
// receives ample stock for it, through the API, as a staff client would. A placement is then
// priced and reserved as any other, instead of answered 422 (unknown product) or 409 (no stock).
//
//   AUTH_JWT_SECRET=<the service's> npx tsx bench/stock-up.ts http://127.0.0.1:PORT SKU-1=1999 [SKU=PRICE ...]
//
// The secret signs a short-lived staff token here (catalogue:write stock:write). Running it again
// replaces the products with the same content and receives the stock once more.
//
// The peer harness (../shared/peers/emmett/bench/compare.ts, copied out as its README says) starts
// the service on a fresh data directory and preloads right after /health/ready answers; its copy
// runs this in between, in the clone, with the secret it gave the service:
//   execFileSync(process.execPath, ['--import', 'tsx', 'bench/stock-up.ts', ours.url, 'SKU-1=1999'], { cwd: CLONE, env: { PATH: process.env.PATH ?? '', AUTH_JWT_SECRET: SECRET }, stdio: 'inherit' });
import { randomUUID } from 'node:crypto';
import { signDevToken } from '../api/auth.js';

const UNITS = 1_000_000_000;
const [url, ...products] = process.argv.slice(2);
const secret = process.env.AUTH_JWT_SECRET ?? '';
if (!url || products.length === 0 || !secret) {
  console.error('usage: AUTH_JWT_SECRET=<secret> tsx bench/stock-up.ts <service url> <SKU=EUR price in cents> ...');
  process.exit(2);
}

const token = await signDevToken(secret, { sub: 'bench-stock-up', scope: 'catalogue:write stock:write' }, 300);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
for (const product of products) {
  const [sku, price] = product.split('=');
  if (!sku || !Number.isSafeInteger(Number(price))) throw new Error(`${product}: give SKU=price, the EUR price in cents`);
  const defined = await fetch(`${url}/products/${encodeURIComponent(sku)}`, {
    method: 'PUT', headers, body: JSON.stringify({ name: sku, prices: { EUR: Number(price) }, status: 'active' }),
  });
  if (!defined.ok) throw new Error(`PUT /products/${sku} answered ${defined.status}: ${await defined.text()}`);
  const received = await fetch(`${url}/stock/${encodeURIComponent(sku)}/adjustments`, {
    method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify({ delta: UNITS, reason: 'received', note: 'bench stock' }),
  });
  if (received.status !== 201) throw new Error(`POST /stock/${sku}/adjustments answered ${received.status}: ${await received.text()}`);
  const { available } = (await received.json()) as { available: number };
  console.error(`${sku}: active at ${price} EUR cents, ${available.toLocaleString('en-US')} units available`);
}
