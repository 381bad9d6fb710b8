#!/usr/bin/env node
/**
 * Memory after a burst of heavy calls: the built CLI (dist/cli.js) on stdio with the embedded
 * sandbox and the cache off, driven by an SDK client; 200 calls at once, a quarter each of
 * listings (limit=5000), global metrics (count=10000 at 5m in four currencies), the svc100
 * history (count=100) and the latest fear and greed. Prints the server's peak resident memory
 * (VmHWM) and its resident memory once the burst is over (VmRSS), in MB, for the Node that runs it.
 *
 *   npm run build && node tools/bench/memory-burst.mjs
 *   npm exec --yes --package=node@22 -- node tools/bench/memory-burst.mjs
 *   npm exec --yes --package=node@24 -- node tools/bench/memory-burst.mjs
 *
 * Linux only (it reads /proc). A figure, not a test: the README's Performance section has them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const CALLS = 200;
const BURST = [
  ['get_cryptocurrency_listings_latest', { limit: 5000 }],
  ['get_global_metrics_historical', { count: 10_000, interval: '5m', convert: 'USD,EUR,BTC,ETH' }],
  ['get_svc100_index_historical', { count: 100 }],
  ['get_fear_and_greed_latest', {}],
];

/** A /proc/<pid>/status figure in MB. */
function statusMb(pid, field) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.match(/(\d+) kB/)?.[1]) / 1024);
}

const env = { ...process.env, SVC_CACHE: 'off', SVC_MAX_CREDITS_PER_CALL: '1000', SVC_TOOLSETS: 'all' };
delete env.SVC_API_KEY;
delete env.SVC_BASE_URL;
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [CLI, 'stdio'],
  env,
  stderr: 'ignore',
});
const client = new Client({ name: 'memory-burst', version: '1' });
await client.connect(transport);
const pid = transport.pid;
const before = statusMb(pid, 'VmRSS');

const started = performance.now();
const results = await Promise.all(
  Array.from({ length: CALLS }, (_, i) => {
    const [name, args] = BURST[i % BURST.length];
    return client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
  }),
);
const seconds = (performance.now() - started) / 1000;
const failed = results.filter((r) => r.isError);
const after = statusMb(pid, 'VmRSS');
const peak = statusMb(pid, 'VmHWM');
await client.close();

console.log(
  `node ${process.versions.node}: ${CALLS} calls in ${seconds.toFixed(1)} s (${failed.length} errors), ` +
    `resident ${before} MB before, peak ${peak} MB, ${after} MB after the burst`,
);
for (const r of failed.slice(0, 3)) console.log(`  error: ${r.content?.[0]?.text}`);
