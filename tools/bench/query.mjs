#!/usr/bin/env node
// @ts-check
/**
 * A query over large kept tables, as a model asks it: 10,000 hourly candles of ten assets
 * (100,000 rows), pulled over stdio from the sandbox in a process of its own as two calls of 5,000
 * each (one answer of all of them passes the 32 MiB the client reads), then a GROUP BY per symbol
 * over both through query_data. Measured: the first query (the engine started and the tables
 * loaded into it) and the query again, once loaded, both from the request to the answer over
 * stdio. Run `npm run build` first.
 *
 *   node tools/bench/query.mjs [--calls 10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, connectStdio, percentile, startSandboxProcess } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '10' } } });
const CALLS = countOption(values, 'calls', 1_000);
const TEN = 'BTC,ETH,SOL,BNB,XRP,ADA,DOGE,TRX,AVAX,LINK';

const { url, child: sandbox } = await startSandboxProcess();
const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-query-'));
try {
  const env = {
    SVC_API_KEY: 'sandbox-enterprise',
    SVC_BASE_URL: url,
    SVC_STATE_DIR: state,
    SVC_MAX_CREDITS_PER_CALL: '2000',
  };
  const { client } = await connectStdio([CLI, 'stdio'], env);
  const HOUR = 3_600_000;
  /** 5,000 hourly candles of ten assets up to `end`: its kept table. */
  const pull = async (end) => {
    const pulled = await client.callTool({
      name: 'get_ohlcv_historical',
      arguments: {
        symbol: TEN,
        time_period: 'hourly',
        count: 5_000,
        time_end: new Date(end).toISOString(),
        format: 'json',
      },
    });
    const kept = /** @type {{ kept?: { table: string, rows: number } }} */ (pulled.structuredContent).kept;
    if (kept?.rows !== 50_000)
      throw new Error(`expected 50,000 rows kept: ${JSON.stringify(pulled.content).slice(0, 300)}`);
    return kept.table;
  };
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  const [recent, earlier] = [await pull(now), await pull(now - 5_000 * HOUR)];
  const sql = `SELECT symbol, count(*), max(quote_usd_high), avg(quote_usd_close) FROM (SELECT * FROM ${recent} UNION ALL SELECT * FROM ${earlier}) GROUP BY symbol`;
  const query = async () => {
    const started = performance.now();
    const result = await client.callTool({ name: 'query_data', arguments: { sql, format: 'json' } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return performance.now() - started;
  };
  const first = await query();
  const again = [];
  for (let i = 0; i < CALLS; i++) again.push(await query());
  await client.close();
  const loaded = percentile(again, 50);
  console.log(`GROUP BY over 100,000 kept rows: first ${first.toFixed(0)} ms, then ${loaded.toFixed(1)} ms`);
  saveResults('query', 'node tools/bench/query.mjs', [
    figure('GROUP BY over 100,000 kept rows, the first (engine started, table loaded)', first, 'ms'),
    figure('GROUP BY over 100,000 kept rows, once loaded, median', loaded, 'ms', { most: 200 }),
  ]);
} finally {
  sandbox.kill();
  rmSync(state, { recursive: true, force: true });
}
