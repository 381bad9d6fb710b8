#!/usr/bin/env node
// @ts-check
/**
 * What the cache and the guard cost and save, over stdio: the p50 of a cached
 * get_fear_and_greed_latest call over a fresh server's first 2,000 calls, beside the p50 of an SDK
 * server with one constant tool (the floor; the two are called in turn so that both see the same
 * machine load),
 * then a mixed workload of calls over every tool with repeats, with the cache on and off: upstream
 * requests made and credits spent. The sandbox runs in this process (its request counter is read
 * directly); cached calls never reach it. Bounded in count; prints numbers. Run `npm run build` first.
 *
 *   node tools/bench/cache.mjs [--calls 2000] [--mixed 1000]
 *
 * BENCH_SHOW_ERRORS=1 prints each error result of the mixed workload (there should be none).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONSTANT_SERVER, CLI as cli, connectStdio, percentile, ROOT } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, mixed: { type: 'string', default: '1000' } },
});
const CALLS = countOption(values, 'calls', 100_000);
const MIXED = countOption(values, 'mixed', 100_000);
/** None: the figure is a fresh server's first calls, as a host's session makes them. */
const WARMUP = 0;
const { startSandbox, tools, assetBySymbol, tokenAddress } = await (
  await import(join(ROOT, 'dist', 'for-scripts.js'))
).forSandbox();

async function connect(args, env) {
  return (await connectStdio(args, env)).client;
}

/** Calls taken in turn on each client, so that both see the same machine load; p50 and p95 of each. */
async function inTurn(calls) {
  const samples = calls.map(() => []);
  for (let i = 0; i < WARMUP + CALLS; i++) {
    for (const [k, { client, name }] of calls.entries()) {
      const t = performance.now();
      const result = await client.callTool({ name, arguments: {} });
      if (result.isError) throw new Error(`${name}: ${result.content[0]?.text}`);
      if (i >= WARMUP) samples[k].push(performance.now() - t);
    }
  }
  return samples.map((s) => ({ p50: percentile(s, 50), p95: percentile(s, 95) }));
}

/** Every tool (SVC_TOOLSETS=all) with a few argument sets the sandbox answers; a workload draws from them. */
function variants() {
  const bonk = { platform: 'solana', address: tokenAddress(assetBySymbol.get('BONK')) };
  const bitcoin = [{ id: '1' }, { symbol: 'ETH' }];
  const special = {
    get_dex_platform: [{ platformName: 'Ethereum' }, { platformName: 'Solana' }],
    get_cryptocurrency_quotes_latest: [{ id: '1' }, { symbol: 'ETH,SOL' }, { id: '1,1027', convert: 'EUR' }],
    get_cryptocurrency_listings_latest: [{}, { limit: 10 }, { limit: 300 }],
    get_global_metrics_historical: [{}, { count: 200, interval: '1h' }],
    get_fear_and_greed_historical: [{}, { limit: 7 }],
    get_cryptocurrency_info: bitcoin,
    get_cryptocurrency_quotes_historical: bitcoin,
    get_cryptocurrency_quotes_latest_v2: bitcoin,
    get_ohlcv_historical: bitcoin,
    get_ohlcv_latest: bitcoin,
    get_price_performance: bitcoin,
    get_market_pairs: [{ id: '1' }],
    convert_price: [
      { amount: 1, id: '1' },
      { amount: 2, symbol: 'ETH', convert: 'EUR' },
    ],
    search_cryptocurrencies: [{ query: 'bitcoin' }, { query: 'sol' }],
    query_data: [{ sql: 'SELECT 1 AS one' }],
    analyze_assets: [{ symbol: 'ETH' }],
    estimate_cost: [{ calls: [{ tool: 'get_fear_and_greed_latest' }] }],
    get_cryptocurrency_listings_historical: [{ date: '2026-11-01' }],
    get_category: [{ id: '7a3fa62a7b3fa7bd783fa304' }],
    get_post_comments: [{ post_id: '1795345200' }],
    get_kline_candles: [bonk],
    get_kline_points: [bonk],
  };
  return tools.flatMap((tool) => (special[tool.name] ?? [{}]).map((args) => ({ name: tool.name, args })));
}

/** A deterministic pick skewed towards the first variants, as an assistant repeats common questions. */
function workload(count) {
  const pool = variants();
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, () => pool[Math.floor(next() ** 2 * pool.length)]);
}

async function mixed(sandbox, cache) {
  const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-'));
  const client = await connect([cli, 'stdio'], {
    SVC_API_KEY: 'sandbox-enterprise',
    SVC_BASE_URL: sandbox.url,
    SVC_STATE_DIR: state,
    SVC_CACHE: cache,
    SVC_TOOLSETS: 'all',
  });
  const before = sandbox.stats.requests;
  const started = performance.now();
  let errors = 0;
  for (const { name, args } of workload(MIXED)) {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) {
      errors++;
      if (process.env.BENCH_SHOW_ERRORS) console.error(name, JSON.stringify(args), result.content[0]?.text);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  /** @type {any} */
  const usage = (await client.callTool({ name: 'get_credit_usage', arguments: {} })).structuredContent;
  await client.close();
  rmSync(state, { recursive: true, force: true });
  return {
    requests: sandbox.stats.requests - before,
    credits: usage.spent,
    hits: usage.cache_hits,
    errors,
    seconds,
  };
}

const sandbox = await startSandbox({ rateLimit: false });
try {
  const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-'));
  const server = await connect([cli, 'stdio'], {
    SVC_API_KEY: 'sandbox-enterprise',
    SVC_BASE_URL: sandbox.url,
    SVC_STATE_DIR: state,
  });
  const constant = await connect(['--input-type=module', '-e', CONSTANT_SERVER]);
  const [cached, floor] = await inTurn([
    { client: server, name: 'get_fear_and_greed_latest' },
    { client: constant, name: 'constant' },
  ]);
  await server.close();
  await constant.close();
  rmSync(state, { recursive: true, force: true });
  console.log(
    `cached get_fear_and_greed_latest, ${CALLS} calls: p50 ${cached.p50.toFixed(3)} ms, p95 ${cached.p95.toFixed(3)} ms`,
  );
  console.log(
    `SDK server with one constant tool:           p50 ${floor.p50.toFixed(3)} ms, p95 ${floor.p95.toFixed(3)} ms`,
  );
  console.log(`cached call / floor at p50: ${(cached.p50 / floor.p50).toFixed(2)}× (target ≤ 1.5×)`);
  const kept = [
    figure(
      `cached get_fear_and_greed_latest over a fresh server's first ${CALLS} calls, p50`,
      cached.p50,
      'ms',
    ),
    figure(
      `cached call over a fresh server's first ${CALLS} calls against an SDK server with one constant tool, at p50`,
      cached.p50 / floor.p50,
      '×',
      { most: 1.5 },
    ),
  ];

  const tools = new Set(workload(MIXED).map((w) => w.name)).size;
  console.log(
    `\nmixed workload: ${MIXED} calls over ${tools} tools (${variants().length} argument sets), with repeats`,
  );
  for (const cache of ['on', 'off']) {
    const r = await mixed(sandbox, cache);
    console.log(
      `cache ${cache.padEnd(3)}: ${r.requests} upstream requests, ${r.credits} credits spent, ${r.hits} cache hits, ${r.errors} errors, ${r.seconds.toFixed(1)} s`,
    );
    kept.push(
      figure(`mixed workload of ${MIXED} calls, cache ${cache}: credits spent`, r.credits, 'credits'),
    );
  }
  saveResults('cache', 'node tools/bench/cache.mjs', kept);
} finally {
  await sandbox.close();
}
