#!/usr/bin/env node
// @ts-check
/**
 * One heavy answer, the way a person pulls one: get_global_metrics_historical for 10,000 points in
 * four currencies (about 14 MB from the service), over stdio, answered a page at a time and kept.
 * The cache is on, as a person runs it; each call asks for a count of its own, so that every call
 * is fetched (the same call again is answered from its kept result, which is measured too). The
 * service's generation time is left out: the sandbox's answer is fetched once and served again,
 * byte for byte, by a loopback server of the bench's own. Measured: our call's time
 * (the first page, which also keeps the whole) against a bare fetch of the same bytes plus
 * JSON.parse; the server's peak resident memory; its resident memory's growth over the calls; and
 * the same call asked again.
 * Run `npm run build` first.
 *
 *   node tools/bench/heavy.mjs [--calls 5]
 *
 * BENCH_NODE_ARGS adds Node options to the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { CLI, connectStdio, percentile, rssMb, startSandboxProcess } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '5' } } });
const CALLS = countOption(values, 'calls', 100);
const KEY = 'sandbox-enterprise';
const PATH = '/v1/global-metrics/quotes/historical';
const ARGS = { count: 10_000, interval: '5m', convert: 'USD,EUR,BTC,ETH' };
const QUERY = new URLSearchParams({ ...ARGS, count: String(ARGS.count) }).toString();
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** The sandbox's answer to the heavy request, fetched once. */
async function heavyBody(url) {
  const res = await request(`${url}${PATH}?${QUERY}`, { headers: { 'X-SVC_PRO_API_KEY': KEY } });
  if (res.statusCode !== 200) throw new Error(`the sandbox answered ${res.statusCode}`);
  return Buffer.from(await res.body.arrayBuffer());
}

/** A loopback server that answers every request with `body`, at once. */
async function replay(body) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}`, server };
}

async function timed(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const { url: sandboxUrl, child: sandbox } = await startSandboxProcess();
const body = await heavyBody(sandboxUrl);
sandbox.kill();
const { url, server } = await replay(body);
const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-heavy-'));
try {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const bareCall = () =>
    timed(async () => {
      const res = await request(`${url}${PATH}?${QUERY}`, { dispatcher: agent });
      JSON.parse(await res.body.text());
    });
  const env = {
    SVC_API_KEY: KEY,
    SVC_BASE_URL: url,
    SVC_STATE_DIR: state,
    SVC_MAX_CREDITS_PER_CALL: '1000',
  };
  const { client, pid } = await connectStdio([...NODE_ARGS, CLI, 'stdio'], env);
  const call = (count) =>
    client.callTool({ name: 'get_global_metrics_historical', arguments: { ...ARGS, count, format: 'json' } });
  // The first of each warms what it loads; the rest are measured, a bare one beside each of ours,
  // so that both meet the machine in the same state (a shared machine's speed drifts).
  await bareCall();
  await call(ARGS.count);
  const rssBefore = rssMb(pid);
  const bare = [];
  const ours = [];
  for (let i = 1; i <= CALLS; i++) {
    bare.push(await bareCall());
    ours.push(await timed(() => call(ARGS.count - i)));
  }
  const rssAfter = rssMb(pid);
  const rssPeak = rssMb(pid, 'VmHWM');
  const again = [];
  for (let i = 0; i < CALLS; i++) again.push(await timed(() => call(ARGS.count - CALLS)));
  await client.close();
  await agent.close();
  const bareMs = percentile(bare, 50);
  const oursMs = percentile(ours, 50);
  const mb = body.length / 1e6;
  console.log(
    `answer of ${mb.toFixed(1)} MB: bare fetch + parse ${bareMs.toFixed(0)} ms, ours ${oursMs.toFixed(0)} ms`,
  );
  console.log(
    `resident memory: peak ${rssPeak.toFixed(0)} MB, ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
  );
  saveResults('heavy', 'node tools/bench/heavy.mjs', [
    figure('the service answer, in MB', mb, 'MB'),
    figure('a bare fetch and JSON.parse of it, median', bareMs, 'ms'),
    figure('our call (the first page, the whole kept), median', oursMs, 'ms'),
    figure('our call over the bare fetch and parse', oursMs / bareMs, '×', { most: 2 }),
    figure('peak resident memory of the server', rssPeak, 'MB', { most: 250 }),
    figure(`resident memory's growth over ${CALLS} calls`, rssAfter - rssBefore, 'MB', { most: 30 }),
    figure('the same call again (from its kept result, free), median', percentile(again, 50), 'ms'),
  ]);
} finally {
  server.close();
  rmSync(state, { recursive: true, force: true });
}
