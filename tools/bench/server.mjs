#!/usr/bin/env node
/**
 * Benchmarks of the MCP server over stdio against the sandbox running as a separate process (rate
 * limit off): start-up to the `initialize` answer, per-call latency of get_fear_and_greed_latest
 * beside a direct keep-alive HTTP GET of the same endpoint, resident memory, and tools/list size.
 * Bounded in count; prints numbers. Run `npm run build` first.
 *
 *   node tools/bench/server.mjs [--calls 1000] [--starts 15]
 *
 * BENCH_NODE_ARGS adds Node options to the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Agent, request } from 'undici';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '1000' }, starts: { type: 'string', default: '15' } },
});
const CALLS = Number(values.calls);
const STARTS = Number(values.starts);
const WARMUP = 100;
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const KEY = 'sandbox-enterprise';
const PATH = '/v3/fear-and-greed/latest';
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function ms(value) {
  return `${value.toFixed(3)} ms`;
}

/** Starts `svc-mcp sandbox` in its own process and resolves with its base URL. */
function startSandboxProcess() {
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--no-rate-limit'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (match) resolve({ url: match[0], child });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

/** The floor: an SDK server with one constant tool and an output schema, no HTTP behind it. */
const CONSTANT_SERVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'constant', version: '1' });
server.registerTool('constant', { outputSchema: { value: z.number() } }, () => ({
  content: [{ type: 'text', text: 'Fear & Greed 62 – Greed' }],
  structuredContent: { value: 62 },
}));
await server.connect(new StdioServerTransport());
`;

async function constantToolP50() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--input-type=module', '-e', CONSTANT_SERVER],
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const samples = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t = performance.now();
    await client.callTool({ name: 'constant', arguments: {} });
    if (i >= WARMUP) samples.push(performance.now() - t);
  }
  await client.close();
  return percentile(samples, 50);
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
}

async function connect(url) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_ARGS, cli, 'stdio'],
    env: {
      PATH: process.env.PATH,
      SVC_API_KEY: KEY,
      SVC_BASE_URL: url,
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  const started = performance.now();
  await client.connect(transport);
  return { client, transport, startupMs: performance.now() - started };
}

const { url, child: sandbox } = await startSandboxProcess();
try {
  // Start-up: spawn to the initialize answer, measured by an SDK client.
  const starts = [];
  for (let i = 0; i < STARTS; i++) {
    const { client, startupMs } = await connect(url);
    starts.push(startupMs);
    await client.close();
  }

  const { client, transport } = await connect(url);
  const pid = transport.pid;
  const rssAfterStart = rssMb(pid);
  const { tools } = await client.listTools();
  const toolsListBytes = Buffer.byteLength(JSON.stringify({ tools }));

  const call = () => client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const direct = async () => {
    const res = await request(`${url}${PATH}`, { dispatcher: agent, headers: { 'X-SVC_PRO_API_KEY': KEY } });
    await res.body.text();
  };
  for (let i = 0; i < WARMUP; i++) {
    await call();
    await direct();
  }
  const viaMcp = [];
  const viaHttp = [];
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await call();
    viaMcp.push(performance.now() - t);
    t = performance.now();
    await direct();
    viaHttp.push(performance.now() - t);
  }
  const rssAfterCalls = rssMb(pid);
  await client.close();
  await agent.close();

  const floorP50 = await constantToolP50();
  const mcpP50 = percentile(viaMcp, 50);
  const httpP50 = percentile(viaHttp, 50);
  console.log(
    `start-up to initialize (${STARTS} starts): median ${ms(percentile(starts, 50))}, max ${ms(Math.max(...starts))}`,
  );
  console.log(
    `get_fear_and_greed_latest over stdio (${CALLS} sequential calls): p50 ${ms(mcpP50)}, p95 ${ms(percentile(viaMcp, 95))}`,
  );
  console.log(
    `direct keep-alive GET ${PATH} (${CALLS} requests): p50 ${ms(httpP50)}, p95 ${ms(percentile(viaHttp, 95))}`,
  );
  console.log(`overhead at p50 (MCP minus direct): ${ms(mcpP50 - httpP50)}`);
  console.log(`for reference, an SDK server with one constant tool: p50 ${ms(floorP50)} per call`);
  console.log(
    `server RSS: ${rssAfterStart.toFixed(1)} MB after start-up, ${rssAfterCalls.toFixed(1)} MB after ${CALLS + WARMUP} calls`,
  );
  console.log(`tools/list (default toolsets, ${tools.length} tools): ${toolsListBytes} bytes`);
} finally {
  sandbox.kill();
}
