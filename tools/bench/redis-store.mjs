#!/usr/bin/env node
// @ts-check
/**
 * Operations per second of the Redis stores, as one replica sees them: the ledger's scripts (what
 * a budgeted call adds: a reservation and its settlement; a cache hit's record; the figures) and the
 * cache's commands (a hit, a store, a claim and its release), each at concurrency 32 against a
 * redis-server on loopback, bounded in count and time. Run `npm run build` first.
 *
 *   node tools/bench/redis-store.mjs [--ops 20000] [--seconds 5] [--redis redis://127.0.0.1:6379]
 *
 * Without --redis it starts a redis-server of its own (Debian's package) on a free port.
 */
import { parseArgs } from 'node:util';
import { percentile, startRedisServer } from './processes.mjs';
import { figure, saveResults } from './results.mjs';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '5' },
    redis: { type: 'string' },
  },
});
const OPS = Number(values.ops);
const SECONDS = Number(values.seconds);
if (!Number.isInteger(OPS) || OPS < 1 || !(SECONDS > 0 && SECONDS <= 60)) {
  console.error('--ops must be a whole number of at least 1 and --seconds from 0 to 60');
  process.exit(2);
}
const CONCURRENCY = 32;

const { RedisConnection, RedisLedger, RedisCacheStore, SILENT_LOG } = await (
  await import('../../dist/for-scripts.js')
).forRedis();

/** Run `op` OPS times (or for SECONDS) by CONCURRENCY workers; prints rate and latency. */
async function measure(name, op) {
  const samples = [];
  const deadline = performance.now() + SECONDS * 1000;
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < OPS && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      await op(i);
      samples.push(performance.now() - t);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(samples.length / seconds).toLocaleString('en');
  kept.push(figure(`${name}, concurrency ${CONCURRENCY}`, samples.length / seconds, 'ops/s'));
  console.log(
    `${name.padEnd(34)} ${rate.padStart(7)} ops/s  p50 ${percentile(samples, 50).toFixed(2)} ms  p99 ${percentile(samples, 99).toFixed(2)} ms  (${samples.length} ops)`,
  );
}

/** What the results file keeps. */
const kept = [];
const own = values.redis === undefined ? await startRedisServer() : undefined;
const url = values.redis ?? own.url;
const connection = new RedisConnection(url, `svc-mcp-bench-${process.pid}`, SILENT_LOG);
try {
  const ledger = new RedisLedger(connection);
  const cache = new RedisCacheStore(connection);
  const call = {
    account: 'key:0123456789abcdef',
    window: 'day:2026-11-22',
    tool: 'get_fear_and_greed_latest',
  };
  // An answer of about 2 KB, as a small tool's normalised data is.
  const answer = {
    data: { rows: Array.from({ length: 40 }, (_, i) => ({ i, value: 62.5, label: 'Greed' })) },
    fetchedAt: Date.now(),
    credits: 1,
  };
  await cache.set('hit', answer, 600_000);
  console.log(
    `Redis at ${connection.location}, concurrency ${CONCURRENCY}, at most ${OPS} ops or ${SECONDS} s each`,
  );

  await measure('ledger: reserve + settle (a call)', async () => {
    const held = await ledger.reserve({ ...call, amount: 1, budget: 1e12 });
    if (held.ok) await ledger.settle(held.id, 1);
  });
  await measure('ledger: record a cache hit', () =>
    ledger.recordHit(call.account, call.window, call.tool, 1),
  );
  await measure('ledger: figures', () => ledger.figures(call.account, call.window));
  await measure('cache: get (a hit, 2 KB)', () => cache.get('hit'));
  await measure('cache: set (2 KB)', (i) => cache.set(`set-${i}`, answer, 60_000));
  await measure('cache: claim + release (a miss)', async (i) => {
    if (await cache.claims.claim(`claim-${i}`, 15_000)) await cache.claims.release(`claim-${i}`);
  });
  await ledger.close();
  saveResults('redis-store', 'node tools/bench/redis-store.mjs', kept);
} finally {
  await connection.close();
  own?.stop();
}
