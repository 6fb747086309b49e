// npm run chaos [-- --kills 20 --clients 6 --buyers 6 --seed 42 --topology scaled]: the full chaos
// run (tests/chaos/chaos.ts); `--topology scaled` kills the processes of the scaled-out service,
// `--buyers` is how many clients race for the hot SKU's little stock.
// Prints each check, then "N passed, N failed"; exits 1 on any failure.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runChaos } from './chaos.js';

const { values } = parseArgs({ options: { kills: { type: 'string', default: '20' }, clients: { type: 'string', default: '6' }, buyers: { type: 'string', default: '6' }, seed: { type: 'string' }, topology: { type: 'string', default: 'single' } } });
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 1_000_000;
const kills = Number(values.kills);
const clients = Number(values.clients);
const buyers = Number(values.buyers);
const topology = values.topology;
if (!Number.isInteger(kills) || kills < 1 || !Number.isInteger(clients) || clients < 1 || !Number.isInteger(buyers) || buyers < 1 || !Number.isInteger(seed) || (topology !== 'single' && topology !== 'scaled')) {
  console.error('usage: npm run chaos -- [--kills N] [--clients N] [--buyers N] [--seed N] [--topology single|scaled]');
  process.exit(2);
}
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`chaos: ${kills} SIGKILLs, ${clients} clients, ${buyers} hot-SKU buyers, seed ${seed}, topology ${topology}, load average ${load()}`);
const started = performance.now();
const result = await runChaos({ kills, clients, buyers, seed, topology, log: (line) => console.log(`  ${line}`) });
const { stats } = result;
console.log(
  `\n${stats.requests} requests (${stats.retries} retries), ${stats.acknowledged} acknowledged writes, ${stats.erasures} erasures, ${stats.soldOut} hot-SKU placements refused for want of stock, slowest restart ${(stats.slowestRestartMs / 1000).toFixed(1)} s, ${((performance.now() - started) / 1000).toFixed(1)} s, load average ${load()}\n`,
);
console.log(`webhooks: ${stats.webhookMessages} messages received, ${stats.webhookExpected} expected from acknowledged writes, ${stats.webhookDuplicates} duplicates (same webhook-id again), ${stats.webhookBadSignatures} bad signatures\n`);
for (const check of result.checks) console.log(`${check.passed ? 'ok  ' : 'FAIL'} ${check.name}${check.detail ? ` (${check.detail})` : ''}`);
console.log(`\n${result.passed} passed, ${result.failed} failed`);
process.exit(result.failed === 0 ? 0 : 1);
