#!/usr/bin/env node
// @ts-check
/**
 * Load on loopback: tool calls per second at concurrency 32, p50 and p99, and each server's
 * resident memory before and after the calls, for a cached call and an uncached one
 * (get_fear_and_greed_latest with SVC_CACHE on and off), for one process and for two replicas
 * on one Redis (calls alternate between them, as a load balancer would send them). The sandbox
 * and redis-server run in processes of their own. Bounded in count and time. `npm run build` first.
 *
 *   node tools/bench/load.mjs [--calls 10000] [--seconds 60] [--transport http|stdio]
 *
 * The transport is `svc-mcp http` when the build has it, else stdio (one SDK client per server).
 * Over HTTP an SDK client makes the handshake and one call; the load itself is the same `tools/call`
 * POST the SDK 1.x client sends (2025-06-18, JSON or an event stream accepted) on 32 keep-alive
 * connections, because the SDK client's own work would take most of the two cores the server
 * shares with it. Without redis-server (Debian's package) the two-replica runs are skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Pool } from 'undici';
import {
  CLI,
  cliArgs,
  freePort,
  percentile,
  ROOT,
  rssMb,
  startRedisServer,
  startSandboxProcess,
} from './processes.mjs';
import { figure, saveResults } from './results.mjs';

const hasHttp = /svc-mcp http/.test(
  spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }).stdout,
);
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '60' },
    transport: { type: 'string', default: hasHttp ? 'http' : 'stdio' },
  },
});
const CALLS = Number(values.calls);
const SECONDS = Number(values.seconds);
const TRANSPORT = values.transport;
if (!Number.isInteger(CALLS) || CALLS < 1 || !(SECONDS > 0 && SECONDS <= 600)) {
  console.error('--calls must be a whole number of at least 1 and --seconds from 0 to 600');
  process.exit(2);
}
if (TRANSPORT !== 'stdio' && TRANSPORT !== 'http') {
  console.error('--transport must be http or stdio');
  process.exit(2);
}
if (TRANSPORT === 'http' && !hasHttp) {
  console.error('this build has no `svc-mcp http`; use --transport stdio');
  process.exit(2);
}
const CONCURRENCY = 32;
const WARMUP = 200;
const TOOL = { name: 'get_fear_and_greed_latest', arguments: {} };

/** Resolves once the process is gone (its last ledger write done), within 10 s. */
async function exited(pid) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CALL_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: TOOL });

/** Whether a `tools/call` answer, as JSON or as an event stream, is a result without isError. */
function answered(text) {
  const json = text.startsWith('{') ? text : text.match(/^data: (.*)$/m)?.[1];
  const message = json ? JSON.parse(json) : {};
  return message.result !== undefined && message.result.isError !== true;
}

/** `callTool` over keep-alive POSTs, as the SDK client sends them once its handshake is done. */
function httpCaller(base, protocolVersion) {
  const pool = new Pool(base, { connections: CONCURRENCY });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': protocolVersion,
  };
  return {
    async callTool() {
      const res = await pool.request({ path: '/mcp', method: 'POST', headers, body: CALL_BODY });
      const text = await res.body.text();
      return { isError: res.statusCode !== 200 || !answered(text) };
    },
    close: () => pool.close(),
  };
}

/** A server process and a client connected to it. */
async function startServer(env) {
  const client = new Client({ name: 'bench', version: '1' });
  if (TRANSPORT === 'stdio') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs('stdio'),
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      stderr: 'ignore',
    });
    await client.connect(transport);
    const pid = transport.pid;
    return {
      client,
      pid,
      async stop() {
        await client.close();
        await exited(pid);
      },
    };
  }
  const port = await freePort();
  const child = spawn(process.execPath, cliArgs('http', '--port', String(port)), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 10_000; ; ) {
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`svc-mcp http did not answer /healthz at ${base}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
  await client.connect(transport);
  const first = await client.callTool(TOOL);
  await client.close();
  if (first.isError) throw new Error(`svc-mcp http answered an error: ${JSON.stringify(first.content)}`);
  const caller = httpCaller(base, transport.protocolVersion ?? LATEST_PROTOCOL_VERSION);
  return {
    client: caller,
    pid: child.pid,
    async stop() {
      await caller.close();
      child.kill();
      await exited(child.pid);
    },
  };
}

/** `count` calls by CONCURRENCY workers over the servers in turn; latencies of the answered ones. */
async function run(servers, count) {
  const samples = [];
  const deadline = performance.now() + SECONDS * 1000;
  let next = 0;
  let failed = 0;
  async function worker() {
    while (next < count && performance.now() < deadline) {
      const server = servers[next++ % servers.length];
      const t = performance.now();
      const result = await server.client.callTool(TOOL);
      if (result.isError) failed++;
      else samples.push(performance.now() - t);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { samples, failed, seconds: (performance.now() - started) / 1000 };
}

/** What the results file keeps. */
const kept = [];

async function scenario(name, replicas, env) {
  const dirs = [];
  const servers = [];
  try {
    for (let i = 0; i < replicas; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-state-'));
      dirs.push(dir);
      servers.push(await startServer({ ...env, SVC_STATE_DIR: dir }));
    }
    await run(servers, WARMUP);
    const before = servers.map((s) => rssMb(s.pid));
    const { samples, failed, seconds } = await run(servers, CALLS);
    const after = servers.map((s) => rssMb(s.pid));
    const rate = Math.round(samples.length / seconds).toLocaleString('en');
    const memory = before.map((b, i) => `${b.toFixed(0)} → ${after[i].toFixed(0)} MB`).join(', ');
    console.log(
      `${name.padEnd(36)} ${rate.padStart(6)} calls/s  p50 ${percentile(samples, 50).toFixed(2)} ms  p99 ${percentile(samples, 99).toFixed(2)} ms  RSS ${memory}  (${samples.length} answered${failed ? `, ${failed} failed` : ''})`,
    );
    const cached = name === 'one process, cached' && TRANSPORT === 'http';
    kept.push(
      figure(
        `${TRANSPORT}, ${name}`,
        samples.length / seconds,
        'calls/s',
        cached ? { least: 1_000 } : undefined,
      ),
      figure(
        `${TRANSPORT}, ${name}: resident memory growth`,
        Math.max(...after.map((a, i) => a - before[i])),
        'MB',
        cached ? { most: 20 } : undefined,
      ),
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const sandbox = await startSandboxProcess();
const hasRedis = !spawnSync('redis-server', ['--version']).error;
const redis = hasRedis ? await startRedisServer() : undefined;
try {
  const env = { SVC_API_KEY: 'sandbox-enterprise', SVC_BASE_URL: sandbox.url };
  console.log(
    `${TRANSPORT}, concurrency ${CONCURRENCY}, ${CALLS} calls after ${WARMUP} to warm up (at most ${SECONDS} s)`,
  );
  await scenario('one process, cached', 1, env);
  await scenario('one process, uncached', 1, { ...env, SVC_CACHE: 'off' });
  if (!redis) {
    console.log('two replicas on one Redis: skipped (redis-server is not installed)');
  } else {
    const shared = { ...env, SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: `bench-${process.pid}` };
    await scenario('two replicas on one Redis, cached', 2, shared);
    await scenario('two replicas on one Redis, uncached', 2, { ...shared, SVC_CACHE: 'off' });
  }
  saveResults(`load-${TRANSPORT}`, `node tools/bench/load.mjs --transport ${TRANSPORT}`, kept);
} finally {
  sandbox.child.kill();
  redis?.stop();
}
