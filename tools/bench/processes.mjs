// @ts-check
/**
 * What the benchmarks share: the sandbox and a redis-server in processes of their own on loopback,
 * a server on stdio with an SDK client, the floor server, percentiles, and a process's resident memory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Node's arguments for `svc-mcp …args`, as npx, a global install and the desktop bundle start it. */
export function cliArgs(...args) {
  return [CLI, ...args];
}

/**
 * The floor: a server on the SDK ours uses (v2), with one constant tool and an output schema and
 * no HTTP behind it; run with `node --input-type=module -e`.
 */
export const CONSTANT_SERVER = `
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
const server = new McpServer({ name: 'constant', version: '1' });
server.registerTool('constant', { outputSchema: z.object({ value: z.number() }) }, () => ({
  content: [{ type: 'text', text: 'Fear & Greed 62 – Greed' }],
  structuredContent: { value: 62 },
}));
await server.connect(new StdioServerTransport());
`;

/**
 * The least any server can do here: an SDK server whose one tool makes the same GET of `path` with
 * undici (SVC_BASE_URL, SVC_API_KEY); run with `node --input-type=module -e`.
 */
export function forwardingServer(path) {
  return `
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { Agent, request } from 'undici';
const agent = new Agent({ keepAliveTimeout: 30_000 });
const server = new McpServer({ name: 'forwarding', version: '1' });
server.registerTool('get_fear_and_greed_latest', {}, async () => {
  const res = await request(process.env.SVC_BASE_URL + '${path}', {
    dispatcher: agent,
    headers: { 'X-SVC_PRO_API_KEY': process.env.SVC_API_KEY },
  });
  const { data } = await res.body.json();
  return { content: [{ type: 'text', text: 'Fear & Greed ' + data.value + ' – ' + data.value_classification }] };
});
await server.connect(new StdioServerTransport());
`;
}

/**
 * Spawn `node …args` as a server on stdio and connect an SDK 1.x client over the 2025 handshake, as
 * hosts do today; resolves once `initialize` is answered.
 */
export async function connectStdio(args, env = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: args[0] === CLI ? cliArgs(...args.slice(1)) : args,
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  const started = performance.now();
  await client.connect(transport);
  return { client, pid: transport.pid, startupMs: performance.now() - started };
}

export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Resident memory now (VmRSS), or the most it has been (VmHWM), in MB. */
export function rssMb(pid, field = 'VmRSS') {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))[1]) / 1024;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `child`'s output shows `pattern`, with the match; rejects if it exits first. */
function waitForOutput(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 10 s:\n${out}`)), 10_000);
    const read = (chunk) => {
      out += chunk;
      const match = out.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${out}`));
    });
  });
}

/** `svc-mcp sandbox` in its own process, rate limit off; resolves with its base URL. */
export async function startSandboxProcess() {
  const child = spawn(process.execPath, cliArgs('sandbox', '--port', '0', '--no-rate-limit'), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [url] = await waitForOutput(child, /http:\/\/127\.0\.0\.1:\d+/, 'the sandbox');
  return { url, child };
}

/** A redis-server of the benchmark's own on a free loopback port, data in a temporary directory. */
export async function startRedisServer() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await waitForOutput(child, /Ready to accept connections/, 'redis-server');
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `warmup + calls` rounds of `call` and `direct` taken in turn, so that a change in the machine's
 * speed hits both alike; the samples after the warm-up, in ms.
 */
export async function beside(call, direct, { warmup, calls }) {
  const samples = { call: [], direct: [] };
  for (let i = 0; i < warmup + calls; i++) {
    for (const [name, measure] of [
      ['call', call],
      ['direct', direct],
    ]) {
      const t = performance.now();
      await measure();
      if (i >= warmup) samples[name].push(performance.now() - t);
    }
  }
  return samples;
}
