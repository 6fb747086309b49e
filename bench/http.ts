// npm run bench:http: the real service (bootstrap/main.ts, embedded stores) with 100,000 orders
// loaded, beside a bare Koa app answering a fixed order-sized JSON, both driven by autocannon in
// the same run (50 connections, BENCH_SECONDS each, default 10). Prints requests/s, p50 and p99
// per route and each route's ratio to the bare baseline. A catalogue of BENCH_PRODUCTS products
// (default 1,000) is defined through the write side first: placements price their lines from it
// (each placement names one of them at random), and GET /products pages through it.
//
// The servers run as child processes; autocannon runs here. On a small machine (2 cores) the
// load generator and the server under test compete for the same CPUs, and they compete the same
// way for every route and for the baseline, so the ratios stay fair even where the absolute
// figures are the machine's. The baseline also sends the same headers and builds each request
// dynamically (a random /orders/{id} path), so the client-side cost is the same as for the routes.
//
// A third server, the floor, shows how far a route's ratio can go at all on this machine: bare
// Koa doing only the store work of a route, through the same embedded stores: for POST /orders
// one durable append (the placements with stock reservations are read against it too), and for
// them also the write side's own placement (prices, reservations, key, order append) on a store of
// its own (the many-SKU placements, and the peer harnesses' one hot SKU, whose p99 is printed
// beside the service's, two runs each, alternately), and the two commits in sequence that any
// placement of this design makes (every line's reservation, then the order: what bounds a
// placement's latency from below); for GET /orders/{id} the order folded by the write side's order service
// (with its cache of folded orders); for the page one read-model query. None of the service's
// own work: no token, no validation, no idempotency, no projections, no signed cursors, no logs,
// no metrics. A route cannot beat its floor; the gap between the two is the service's own cost.
//
// A peer shows what the catalogue and the stock cost a placement (bench/http/without-stock.ts): the
// service wired as main.ts wires it, loaded alike, but placing with the client's prices and no
// stock, the reference issue 16's placement targets are set against ("about 30% of the floor").
// Its second row appends each line's reservation blind (no catalogue read, no stock read or
// decision) before the order: what this design's durable reservations and their projection cost
// alone, so what the service's placement can reach at most. Both many-SKU placements are printed
// against the peer without stock, by throughput and by CPU per request.
//
// Personal data (order addresses) is sealed with its customer's key (write-side/personal-data/).
// What that costs is measured against a second service, loaded alike but with its personal data
// written and kept in clear (BENCH_ONLY_PERSONAL_DATA_IN_CLEAR=1): POST /orders and GET
// /orders/{id} on both, in the same run, each twice, alternately. Sealing may cost at most 10% of
// either's throughput. The routes are driven only once both services are idle after their start.
// Nearly every read here is of an order not read before, so it opens one sealed address. Opened
// value after value, one AES-GCM open costs about 13 µs; opened once per request amid the
// request's other work it cost 45-60 µs (measured in the service, November 2026), its OpenSSL
// path cold in the CPU caches each time, which held GET /orders/{id} near 85% of its in-clear
// CPU per request. PersonalData opens the values asked for in one turn of the event loop
// together (about 20 per turn under this load), and the in-clear service's reads take the same
// turn, so the two differ by the decryption alone. The rates of a 10 s run on a shared machine
// vary by ±20% with what else runs (two identical services measured 80% to 101% of each other
// by rate, within 3% by CPU per request), so the CPU per request is printed beside them.
//
// BENCH_PROFILE=1 runs the (sealing) service under --cpu-prof and prints, for each route run on
// it, where its CPU went (own time, with callees, by file); BENCH_PROFILE=<dir> keeps the
// profiles in that directory.
//
// Each route also prints the service's threads by their share of a core (main, the event store's
// writer, the projections' thread, V8's helpers), read from /proc: whether the thread that serves
// requests is the one that limits them. BENCH_WARMUP_SECONDS (default 1) warms each route longer:
// with 1 s, V8's helper threads are still compiling the route's code during the measurement
// (about 16% of a core for POST /orders run alone, 2% after 10 s). BENCH_SERVICE_NODE_ARGS adds
// node flags to the sealing service (an experiment with V8's heap settings, --trace-gc).
//
// Two rows measure orders after payment: a shipment of one unit of a paid order's line (each paid
// order shipped once, so each becomes partially_shipped) and an edit's dry run on a pending order.
//
// This file is the driver; the servers it starts are in bench/http/ (servers.ts starts them).
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { signDevToken } from '../api/auth.js';
import { autocannon, loadOrders, pageChain, type AcInstance, type AcRequest, type AcResult } from './http/load.js';
import { startBaseline, startFloor, startService, startWithoutStock, stopServer, tail, type BenchServer } from './http/servers.js';
import { benchSku, defineCatalogue, manySkuPlacementBody, peerReservations, placementBody, RECONCILER_ORPHAN_WINDOW_MS, settle, untilIdle } from './http/setup.js';
import { cpuProfileArgs, monotonicUs, printProfile, readProfile } from './support/cpu-profile.js';
import { busiestThreads, cpuMs, threadCpuMs } from './support/cpu-time.js';

async function main(): Promise<void> {
  const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
  const HOT_ROUTE = 'POST /orders, all buying one hot SKU';
  const HOT_FLOOR_ROUTE = 'floor: Koa + the write side\'s placement only, one hot SKU';
  const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 1_000);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
  const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
  const CONNECTIONS = 50;
  const PAGE = 20;
  const SECRET = `bench-http-${randomUUID()}-${randomUUID()}`; // > 32 bytes
  const MAX_ERROR_SHARE = 0.01;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  // BENCH_ROUTES, a regular expression, runs only the routes it matches (and the baseline): a focused measurement.
  const only = process.env.BENCH_ROUTES ? new RegExp(process.env.BENCH_ROUTES) : null;
  // The SKUs the many-SKU placements draw their 1 to 3 lines from: the catalogue's first 1,000 (all of it by default).
  const MANY_SKUS = Math.min(1000, PRODUCTS);
  const MANY_ROUTE = `POST /orders, 1-3 lines of ${fmt(MANY_SKUS)} SKUs`;
  const PEER_ROUTE = `${MANY_ROUTE}, without catalogue and stock (peer)`;
  const BLIND_ROUTE = `${MANY_ROUTE}, reservations appended blind (peer)`;
  const SHIP_ROUTE = 'POST /orders/{id}/shipments, one line in part';
  const EDIT_ROUTE = 'POST /orders/{id}/edits, dryRun';

  // Under the working directory, not /tmp: a tmpfs would make every flush free.
  const dir = mkdtempSync(join(process.cwd(), '.bench-http-'));
  const PROFILE = (process.env.BENCH_PROFILE ?? '') !== '';
  const profileDir = PROFILE && process.env.BENCH_PROFILE !== '1' ? process.env.BENCH_PROFILE! : join(dir, 'profile');
  const servers: BenchServer[] = [];
  let current: AcInstance | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(servers.map(stopServer));
      rmSync(dir, { recursive: true, force: true });
    })());
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    console.error('\ninterrupted: stopping the servers and removing the data');
    current?.stop();
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSigint);

  try {
    // 1. Load the orders straight into the embedded event store, before the service opens it.
    console.log(`loading ${fmt(ORDERS)} orders (half of them paid) into the embedded event store ...`);
    const loadStarted = performance.now();
    const ids = await loadOrders(dir, ORDERS, true);
    await defineCatalogue(join(dir, 'events.sqlite3'), PRODUCTS);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const clearDir = join(dir, 'in-clear');
    console.log(`loading ${fmt(ORDERS)} orders again, their addresses in clear, for the service that does not seal ...`);
    const clearIds = await loadOrders(clearDir, ORDERS, false);
    await defineCatalogue(join(clearDir, 'events.sqlite3'), PRODUCTS);
    // The peer without catalogue and stock, loaded as the service is, when its row is run.
    const peerDir = join(dir, 'without-stock');
    const withPeer = !only || only.test(PEER_ROUTE) || only.test(BLIND_ROUTE);
    if (withPeer) {
      console.log(`loading ${fmt(ORDERS)} orders once more, for the peer that places without catalogue and stock ...`);
      await loadOrders(peerDir, ORDERS, true);
      await defineCatalogue(join(peerDir, 'events.sqlite3'), PRODUCTS);
    }
    const paid = Math.ceil(ORDERS / 2);
    console.log(`  ${fmt(ORDERS)} orders, ${fmt(ORDERS + paid)} events, and ${fmt(PRODUCTS)} products written in ${loadSeconds.toFixed(1)} s`);

    // 2. Start the servers: the baseline, the service, the floor (which appends to an event store
    // of its own and reads the service's orders and read models).
    const bare = await startBaseline();
    servers.push(bare);
    const serviceStarted = performance.now();
    const service = await startService(dir, SECRET, 600_000, {}, [...cpuProfileArgs(PROFILE ? profileDir : null), ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean)]);
    servers.push(service);
    // The floor's own event store holds the catalogue and the stock its placements need.
    mkdirSync(join(dir, 'floor'), { recursive: true });
    await defineCatalogue(join(dir, 'floor', 'events.sqlite3'), PRODUCTS);
    const floor = await startFloor(join(dir, 'floor'), dir);
    servers.push(floor);
    const inClearStarted = performance.now();
    const inClear = await startService(clearDir, SECRET, 600_000, { BENCH_ONLY_PERSONAL_DATA_IN_CLEAR: '1' });
    servers.push(inClear);
    const peer = withPeer ? await startWithoutStock(peerDir, SECRET, 600_000) : null;
    if (peer) servers.push(peer);
    await peer?.ready;
    await inClear.ready;
    await bare.ready;
    await floor.ready;
    await service.ready;
    const readySeconds = (performance.now() - serviceStarted) / 1000;
    console.log(`  service ready (projections caught up over ${fmt(ORDERS + paid)} events) ${readySeconds.toFixed(1)} s after start`);
    // Ready is not idle: once a service has been up for the stock reconciler's orphan window (30 s),
    // the reconciler reads the whole log once to catch up. That one-off start-up work must not be
    // billed to whichever route runs first (it was: the sealed POST /orders, at about 120 µs a request).
    const idleSeconds = await untilIdle([service, inClear, ...(peer ? [peer] : [])], inClearStarted + RECONCILER_ORPHAN_WINDOW_MS + 1_000);
    console.log(`  both services idle (their start-up catch-up done) ${idleSeconds.toFixed(1)} s later\n`);
    const [bareUrl, serviceUrl, floorUrl] = [bare.url, service.url, floor.url];

    // 3. Drive each target.
    const token = await signDevToken(SECRET, { sub: 'bench', scope: 'orders:read orders:write payments:write shipments:write catalogue:read' }, 3600);
    const auth = { authorization: `Bearer ${token}` };
    const randomId = () => ids[Math.floor(Math.random() * ids.length)]!;
    const samples = new Map<string, { status: number; body: string }>();
    const sampler = (route: string) => (status: number, body: string) => {
      if ((status < 200 || status > 299) && !samples.has(route)) samples.set(route, { status, body: body.slice(0, 300) });
    };
    // One of the catalogue's products at random, at its catalogue price (the floor computes the line total from it).
    const orderOf = (sku: string) => placementBody([{ sku, quantity: 2 }]);
    const newOrder = orderOf(benchSku(0));
    const productsPage = `/products?limit=${PAGE}`;
    const firstPage = `/orders?status=paid&limit=${PAGE}`;
    // The requests a route and its floor (or the baseline) are driven with alike; `route` names the samples.
    const randomReads = (route: string): AcRequest[] => [
      { method: 'GET', headers: auth, setupRequest: (req) => ({ ...req, path: `/orders/${randomId()}` }), onResponse: sampler(route) },
    ];
    const randomClearId = () => clearIds[Math.floor(Math.random() * clearIds.length)]!;
    const randomClearReads = (route: string): AcRequest[] => [
      { method: 'GET', headers: auth, setupRequest: (req) => ({ ...req, path: `/orders/${randomClearId()}` }), onResponse: sampler(route) },
    ];
    const manyPlacements = (route: string, path = '/orders'): AcRequest[] => [{
      method: 'POST', path,
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: manySkuPlacementBody(MANY_SKUS), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
      onResponse: sampler(route),
    }];
    const placements = (route: string): AcRequest[] => [{
      method: 'POST', path: '/orders', body: newOrder,
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: orderOf(benchSku(Math.floor(Math.random() * PRODUCTS))), headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
      onResponse: sampler(route),
    }];
    // The loaded orders alternate: even places paid, odd ones pending (http/load.ts).
    let nextPaid = 0;
    const partialShipments = (route: string): AcRequest[] => [{
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (req) => {
        const id = ids[(2 * nextPaid++) % ids.length]!;
        const body = JSON.stringify({ carrier: 'DHL', trackingNumber: `B${nextPaid}`, lines: [{ sku: 'SKU-1', quantity: 1 }] });
        return { ...req, path: `/orders/${id}/shipments`, body, headers: { ...req.headers, 'idempotency-key': randomUUID() } };
      },
      onResponse: sampler(route),
    }];
    const randomPending = () => ids[(2 * Math.floor(Math.random() * (ids.length / 2)) + 1) % ids.length]!;
    const editDryRuns = (route: string): AcRequest[] => [{
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ lines: [{ sku: 'SKU-1', quantity: 3 }], dryRun: true }),
      setupRequest: (req) => ({ ...req, path: `/orders/${randomPending()}/edits`, headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
      onResponse: sampler(route),
    }];
    // Every placement buys the same product (the one the settling write buys too): the peer harnesses' POST /orders.
    const hotPlacements = (route: string, path = '/orders'): AcRequest[] => [{
      method: 'POST', path, body: newOrder,
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
      onResponse: sampler(route),
    }];
    const hotFloorPlacements = (route: string) => hotPlacements(route, '/placements');

    interface Target {
      route: string;
      url: string;
      /** The requests to drive it with, given its route (which names the samples). */
      requests: (route: string) => AcRequest[];
      minRatio: number | null;
      /** The floor row this route is read against, and the share of it the route must reach. */
      ofFloor?: { readonly route: string; readonly min: number | null };
      settle?: boolean;
      /** Run before the route's warm-up. */
      before?: () => Promise<void>;
      note?: () => string;
    }
    let walk = { firstPages: 0, deepest: 0 };
    const targets: Target[] = [
      {
        route: 'bare Koa baseline',
        url: bareUrl,
        minRatio: null,
        requests: randomReads,
      },
      {
        route: 'POST /orders',
        url: serviceUrl,
        minRatio: 0.35,
        settle: true,
        requests: placements,
      },
      {
        route: 'POST /orders, personal data in clear',
        url: inClear.url,
        minRatio: null,
        settle: true,
        requests: placements,
      },
      // And once more, the other way round, so that neither side is always the first write run on its service.
      { route: 'POST /orders, personal data in clear (again)', url: inClear.url, minRatio: null, settle: true, requests: placements },
      { route: 'POST /orders (again)', url: serviceUrl, minRatio: null, settle: true, requests: placements },
      {
        route: 'floor: Koa + the append only',
        url: floorUrl,
        minRatio: null,
        requests: placements,
      },
      {
        route: 'GET /orders/{id}',
        url: serviceUrl,
        minRatio: 0.5,
        requests: randomReads,
      },
      {
        route: 'GET /orders/{id}, personal data in clear',
        url: inClear.url,
        minRatio: null,
        requests: randomClearReads,
      },
      {
        route: 'floor: Koa + the fold only',
        url: floorUrl,
        minRatio: null,
        requests: randomReads,
      },
      // The sealed and the in-clear read once more, in the other order, so that the sealing share
      // is read from two rounds each rather than from one short run each, and neither side is
      // always the first of its pair (the first read of each service also warms it up).
      { route: 'GET /orders/{id}, personal data in clear (again)', url: inClear.url, minRatio: null, requests: randomClearReads },
      { route: 'GET /orders/{id} (again)', url: serviceUrl, minRatio: null, requests: randomReads },
      // After payment (issue 32): one unit of a paid order's line shipped, each paid order once
      // (its other unit stays to ship, so the order becomes partially_shipped), and an edit's dry
      // run on a pending order (the decision and the balance, nothing written or reserved).
      { route: SHIP_ROUTE, url: serviceUrl, minRatio: null, requests: partialShipments },
      { route: EDIT_ROUTE, url: serviceUrl, minRatio: null, requests: editDryRuns },
      {
        route: MANY_ROUTE,
        url: serviceUrl,
        minRatio: null,
        ofFloor: { route: 'floor: Koa + the append only', min: 0.25 },
        settle: true,
        requests: manyPlacements,
      },
      // The same placements on the peer: without catalogue and stock (the reference of the row
      // above's target), then with only the durable writes and projection of this design's
      // reservations (no catalogue read, no stock read or decision, each line's StockReserved
      // appended blind before the order).
      ...(peer ? ([[PEER_ROUTE, 'none'], [BLIND_ROUTE, 'appended']] as const) : []).map(([route, reservations]) => ({
        route,
        url: peer!.url,
        minRatio: null,
        ofFloor: { route: 'floor: Koa + the append only', min: null },
        settle: true,
        before: () => peerReservations(peer!, reservations),
        requests: manyPlacements,
      })),
      {
        // The placement's own work on the write side, without the service's: what the row above can reach at most.
        route: 'floor: Koa + the write side\'s placement only, 1-3 lines',
        url: floorUrl,
        minRatio: null,
        ofFloor: { route: 'floor: Koa + the append only', min: 0.25 },
        requests: (route) => manyPlacements(route, '/placements'),
      },
      {
        // The least a placement of this design writes: the reservations, then the order (two commits in sequence).
        route: 'floor: Koa + a placement\'s two commits only (reservations, then order)',
        url: floorUrl,
        minRatio: null,
        ofFloor: { route: 'floor: Koa + the append only', min: 0.25 },
        requests: (route) => manyPlacements(route, '/reservations-then-order'),
      },
      {
        route: HOT_ROUTE,
        url: serviceUrl,
        minRatio: null,
        ofFloor: { route: 'floor: Koa + the append only', min: 0.15 },
        settle: true,
        requests: hotPlacements,
      },
      // The same placements on the write side alone, twice, alternately with the service: the
      // latency the row above can reach at most under this load (its p99 against the harnesses'
      // 50 ms), measured beside it.
      { route: HOT_FLOOR_ROUTE, url: floorUrl, minRatio: null, requests: hotFloorPlacements },
      { route: `${HOT_ROUTE} (again)`, url: serviceUrl, minRatio: null, settle: true, requests: hotPlacements },
      { route: `${HOT_FLOOR_ROUTE} (again)`, url: floorUrl, minRatio: null, requests: hotFloorPlacements },
      {
        route: `GET ${firstPage} (cursors)`,
        url: serviceUrl,
        minRatio: 0.4,
        ofFloor: { route: 'floor: Koa + the page query only', min: 0.6 },
        requests: (route) => pageChain(firstPage, Math.ceil(paid / PAGE) + 2, auth, sampler(route), (walk = { firstPages: 0, deepest: 0 })),
        note: () => `; ${fmt(walk.firstPages)} first pages, deepest page reached ${fmt(walk.deepest)} of ${fmt(Math.ceil(paid / PAGE))}`,
      },
      {
        route: 'floor: Koa + the page query only',
        url: floorUrl,
        minRatio: null,
        requests: (route) => pageChain(firstPage, Math.ceil(paid / PAGE) + 2, auth, sampler(route)),
      },
      {
        route: `GET ${productsPage} (cursors)`,
        url: serviceUrl,
        minRatio: null,
        requests: (route) => pageChain(productsPage, Math.ceil(PRODUCTS / PAGE) + 2, auth, sampler(route), (walk = { firstPages: 0, deepest: 0 })),
        note: () => `; ${fmt(walk.firstPages)} first pages, deepest page reached ${fmt(walk.deepest)} of ${fmt(Math.ceil(PRODUCTS / PAGE))}`,
      },
      {
        route: 'PATCH /orders/{id}',
        url: serviceUrl,
        minRatio: null,
        settle: true,
        requests: (route) => [{
          method: 'PATCH', headers: { ...auth, 'content-type': 'application/merge-patch+json' },
          setupRequest: (req) => ({ ...req, path: `/orders/${randomId()}`, body: JSON.stringify({ address: { city: `City ${Math.floor(Math.random() * 1e6)}` } }) }),
          onResponse: sampler(route),
        }],
      },
    ];

    const rows: Array<{ target: Target; result: AcResult; cpuMs: number; window: readonly [number, number] }> = [];
    const pidOf = (url: string) => servers.find((server) => server.url === url)!.child.pid!;
    for (const target of targets.filter((t, i) => i === 0 || !only || only.test(t.route))) {
      process.stdout.write(`  ${target.route}: warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s ... `);
      await target.before?.();
      current = autocannon({ url: target.url, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: target.requests(target.route) });
      await current;
      if (interrupted) return;
      samples.delete(target.route);
      const [cpuBefore, threadsBefore, from] = [cpuMs(pidOf(target.url)), threadCpuMs(pidOf(target.url)), monotonicUs()];
      current = autocannon({ url: target.url, connections: CONNECTIONS, duration: SECONDS, requests: target.requests(target.route) });
      const result = await current;
      const [cpuSpent, threads, to] = [cpuMs(pidOf(target.url)) - cpuBefore, busiestThreads(threadsBefore, threadCpuMs(pidOf(target.url)), SECONDS * 1000), monotonicUs()];
      current = null;
      if (interrupted) return;
      const failed = result.non2xx + result.errors;
      const total = result.requests.total + result.errors;
      console.log(`${fmt(result.requests.total)} responses, ${fmt(result.non2xx)} non-2xx, ${fmt(result.errors)} errors (${fmt(result.timeouts)} timeouts)${target.note?.() ?? ''}`);
      console.log(`    server threads (share of a core): ${threads}`);
      if (total === 0 || failed / total > MAX_ERROR_SHARE) {
        const sample = samples.get(target.route);
        throw new Error(
          `${target.route}: ${fmt(failed)} of ${fmt(total)} requests failed (non-2xx or connection errors), over ${MAX_ERROR_SHARE * 100}%; ` +
            `status codes ${JSON.stringify(result.statusCodeStats)}` +
            (sample ? `; a sample: ${sample.status} ${sample.body}` : '') +
            `\n${servers.map((server) => `--- ${server.name} output ---\n${tail(server)}`).join('\n')}`,
        );
      }
      rows.push({ target, result, cpuMs: cpuSpent, window: [from, to] });
      // Writes leave projection work behind: let it finish so that it is not billed to the next route.
      if (target.settle) await settle(target.url, auth, newOrder);
    }

    // 4. Report.
    const base = rows[0]!.result.requests.average;
    const P99_MS = 50;
    console.log(`\nservice on the embedded stores with ${fmt(ORDERS)} orders; ${CONNECTIONS} connections, ${SECONDS} s per route; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (1, 5, 15 min) at the end\n`);
    const header = ['route', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx', 'ratio', 'of floor', 'target', 'met'];
    const table = rows.map(({ target, result, cpuMs: spent }, index) => {
      const ratio = result.requests.average / base;
      const floorRow = target.ofFloor && rows.find((row) => row.target.route === target.ofFloor!.route);
      const ofFloor = floorRow ? result.requests.average / floorRow.result.requests.average : null;
      const ratioOk = (target.minRatio === null || ratio >= target.minRatio) && (ofFloor === null || ofFloor >= (target.ofFloor!.min ?? 0));
      const p99Ok = result.latency.p99 < P99_MS;
      const goal = [
        target.minRatio === null ? null : `>= ${Math.round(target.minRatio * 100)}%`,
        target.ofFloor?.min != null ? `>= ${Math.round(target.ofFloor.min * 100)}% of floor` : null,
        `p99 < ${P99_MS} ms`,
      ].filter(Boolean).join(', ');
      return [
        target.route,
        fmt(result.requests.average),
        result.latency.p50.toFixed(1),
        result.latency.p99.toFixed(1),
        fmt((spent * 1000) / result.requests.total),
        fmt(result.non2xx),
        index === 0 ? '(base)' : `${(ratio * 100).toFixed(1)}%`,
        ofFloor === null ? '' : `${(ofFloor * 100).toFixed(1)}%`,
        goal,
        ratioOk && p99Ok ? 'met' : `NOT met${ratioOk ? '' : ' (ratio)'}${p99Ok ? '' : ' (p99)'}`,
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 || i >= 8 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
    console.log(line(header));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const row of table) console.log(line(row));
    console.log('\n  A floor is bare Koa doing only the store work of its route (see the top of bench/http.ts): no route can beat it.');
    console.log('  CPU µs/req: the server process\'s CPU time (every thread) during the run, per response.');
    // A route's runs: a second round is named `<route> (again)`.
    const runsOf = (route: string) => rows.filter((row) => row.target.route === route || row.target.route === `${route} (again)`);
    const rate = (route: string) => {
      const runs = runsOf(route);
      return runs.length === 0 ? NaN : runs.reduce((sum, row) => sum + row.result.requests.average, 0);
    };
    const cpuPerRequest = (route: string) => {
      const runs = runsOf(route);
      return runs.reduce((sum, row) => sum + row.cpuMs, 0) / runs.reduce((sum, row) => sum + row.result.requests.total, 0);
    };
    for (const route of ['POST /orders', 'GET /orders/{id}']) {
      const clear = `${route}, personal data in clear`;
      const share = rate(route) / rate(clear);
      if (Number.isNaN(share)) continue; // not run (BENCH_ROUTES)
      // On a shared machine the rates follow whatever else runs; the CPU a request costs the server much less.
      const byCpu = cpuPerRequest(clear) / cpuPerRequest(route);
      console.log(
        `  sealing personal data: ${route} at ${(share * 100).toFixed(1)}% of its throughput in clear (target >= 90%: ${share >= 0.9 ? 'met' : 'NOT met'}); ` +
          `by server CPU per request ${(byCpu * 100).toFixed(1)}% (${fmt(cpuPerRequest(route) * 1000)} µs sealed, ${fmt(cpuPerRequest(clear) * 1000)} µs in clear)`,
      );
    }
    // The hot placement's p99, each run, beside its floor's in the same run.
    const p99s = (route: string) => runsOf(route).map((row) => `${row.result.latency.p99.toFixed(1)} ms`).join(' and ');
    if (runsOf(HOT_ROUTE).length > 0 && runsOf(HOT_FLOOR_ROUTE).length > 0) {
      console.log(`  one hot SKU: POST /orders p99 ${p99s(HOT_ROUTE)}; the write side's placement alone (its floor) p99 ${p99s(HOT_FLOOR_ROUTE)}, alternately`);
    }
    // What the catalogue and the stock cost a placement: the many-SKU row, and the peer's blind reservations, against the peer without them.
    const rowOf = (route: string) => rows.find((row) => row.target.route === route);
    const without = rowOf(PEER_ROUTE);
    for (const [route, what] of [[MANY_ROUTE, 'catalogue and stock'], [BLIND_ROUTE, 'reservations appended blind']] as const) {
      const row = rowOf(route);
      if (!row || !without) continue;
      const share = row.result.requests.average / without.result.requests.average;
      const [cpuWith, cpuWithout] = [row, without].map((r) => (r.cpuMs * 1000) / r.result.requests.total) as [number, number];
      console.log(
        `  ${what}: at ${(share * 100).toFixed(1)}% of the peer's throughput without them ` +
          `(by server CPU per request ${((cpuWithout / cpuWith) * 100).toFixed(1)}%: ${fmt(cpuWith)} µs with, ${fmt(cpuWithout)} µs without)`,
      );
    }
    console.log(`\n  loading: ${loadSeconds.toFixed(1)} s to write the events, ${readySeconds.toFixed(1)} s until /health/ready`);
    if (PROFILE) {
      await stopServer(service); // the profile is written as it exits
      const profile = readProfile(profileDir);
      for (const row of rows.filter((r) => r.target.url === serviceUrl)) printProfile(profile, [row.window], `${row.target.route} (the service)`, 25);
    }
  } catch (error) {
    // Stopping the servers on SIGINT makes whatever was waiting on them fail: not worth a report.
    if (!interrupted) throw error;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await cleanup();
  }
}

await main();
