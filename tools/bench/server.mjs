#!/usr/bin/env node
// @ts-check
/**
 * Benchmarks of the MCP server over stdio against the sandbox running as a separate process (rate
 * limit off; start-up is tools/bench/startup.mjs's): per-call latency of get_fear_and_greed_latest
 * (the cache on, as configured by default: every call after the first is a cache hit; what an
 * uncached call costs is tools/bench/ledger.mjs's) beside a direct keep-alive HTTP GET of the same
 * endpoint, after WARMUP calls, and over the p50 of the floor (an SDK server, v2, with one constant
 * tool); resident memory; and tools/list size; for reference, a bare server whose one tool forwards
 * the same GET with undici. The client is the SDK 1.x Client over the 2025 handshake,
 * what most hosts speak. Bounded in count; prints numbers. Run `npm run build` first.
 *
 *   node tools/bench/server.mjs [--calls 1000]
 *
 * BENCH_NODE_ARGS adds Node options to the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import {
  beside,
  CONSTANT_SERVER,
  CLI as cli,
  connectStdio as connect,
  forwardingServer,
  percentile,
  rssMb,
  startSandboxProcess,
} from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000' } } });
const CALLS = countOption(values, 'calls', 1_000_000);
const WARMUP = 1_000;
const rounds = { warmup: WARMUP, calls: CALLS };
const KEY = 'sandbox-enterprise';
const PATH = '/v3/fear-and-greed/latest';
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

function ms(value) {
  return `${value.toFixed(3)} ms`;
}

const { url, child: sandbox } = await startSandboxProcess();
// A ledger of the bench's own, not the user's.
const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-server-'));
try {
  const env = { SVC_API_KEY: KEY, SVC_BASE_URL: url, SVC_STATE_DIR: state };
  const ours = [...NODE_ARGS, cli, 'stdio'];
  const { client, pid } = await connect(ours, env);
  const rssAfterStart = rssMb(pid);
  const { tools } = await client.listTools();
  const toolsListBytes = Buffer.byteLength(JSON.stringify({ tools }));

  const fearAndGreed = { name: 'get_fear_and_greed_latest', arguments: {} };
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const direct = async () => {
    const res = await request(`${url}${PATH}`, { dispatcher: agent, headers: { 'X-SVC_PRO_API_KEY': KEY } });
    await res.body.text();
  };
  const ourRun = await beside(() => client.callTool(fearAndGreed), direct, rounds);
  // Ours beside the floor, in turn, so that the machine's load hits both alike.
  const floor = await connect(['--input-type=module', '-e', CONSTANT_SERVER]);
  const floorRun = await beside(
    () => client.callTool(fearAndGreed),
    () => floor.client.callTool({ name: 'constant', arguments: {} }),
    rounds,
  );
  await floor.client.close();
  const rssAfterCalls = rssMb(pid);
  const rssPeak = rssMb(pid, 'VmHWM');
  await client.close();

  const forwarding = await connect(['--input-type=module', '-e', forwardingServer(PATH)], env);
  const forwardingRun = await beside(() => forwarding.client.callTool(fearAndGreed), direct, rounds);
  const forwardingRss = rssMb(forwarding.pid);
  await forwarding.client.close();
  await agent.close();

  const floorP50 = percentile(floorRun.direct, 50);
  const besideFloorP50 = percentile(floorRun.call, 50);
  const [mcpP50, httpP50] = [percentile(ourRun.call, 50), percentile(ourRun.direct, 50)];
  const forwardingOverhead = percentile(forwardingRun.call, 50) - percentile(forwardingRun.direct, 50);
  console.log(
    `get_fear_and_greed_latest over stdio, cache hits (${CALLS} sequential calls after ${WARMUP}): p50 ${ms(mcpP50)}, p95 ${ms(percentile(ourRun.call, 95))}`,
  );
  console.log(
    `direct keep-alive GET ${PATH} (${CALLS} requests): p50 ${ms(httpP50)}, p95 ${ms(percentile(ourRun.direct, 95))}`,
  );
  console.log(`overhead at p50 (MCP minus direct): ${ms(mcpP50 - httpP50)}`);
  console.log(
    `server RSS: ${rssAfterStart.toFixed(1)} MB after start-up, ${rssAfterCalls.toFixed(1)} MB after ${CALLS + WARMUP} calls, ${rssPeak.toFixed(1)} MB at most`,
  );
  console.log(`tools/list (default toolsets, ${tools.length} tools): ${toolsListBytes} bytes`);
  console.log(
    `an SDK server with one constant tool, in turn with ours: p50 ${ms(floorP50)} per call, ours ${ms(besideFloorP50)}: ×${(besideFloorP50 / floorP50).toFixed(2)}`,
  );
  console.log(
    `for reference, an SDK server whose one tool makes the same GET with undici: overhead at p50 ${ms(forwardingOverhead)}, RSS ${forwardingRss.toFixed(1)} MB after ${CALLS + WARMUP} calls`,
  );
  saveResults('server', 'node tools/bench/server.mjs', [
    figure(
      'cached get_fear_and_greed_latest, p50, over the one-tool SDK server',
      besideFloorP50 / floorP50,
      '×',
      {
        most: 1.2,
      },
    ),
    figure('cached get_fear_and_greed_latest over stdio above a direct GET, p50', mcpP50 - httpP50, 'ms', {
      most: 1,
    }),
    figure('resident memory after start-up', rssAfterStart, 'MB'),
    figure(`resident memory after ${CALLS + WARMUP} calls`, rssAfterCalls, 'MB', { most: 80 }),
    figure('tools/list, default toolsets', toolsListBytes, 'bytes'),
    figure('for reference: the SDK and the same GET, above the GET, p50', forwardingOverhead, 'ms'),
  ]);
} finally {
  sandbox.kill();
  rmSync(state, { recursive: true, force: true });
}
