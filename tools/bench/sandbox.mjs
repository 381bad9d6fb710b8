#!/usr/bin/env node
// @ts-check
/**
 * Sandbox benchmark: starts the built sandbox (dist/) in a child process, so that the load client
 * does not share its event loop, and measures on loopback:
 *   - requests per second at concurrency 16 for fear-and-greed latest and listings limit=100;
 *   - median and p95 latency of listings limit=5000, one request at a time.
 * Bounded in count and time. Run `npm run build` first. Usage: node tools/bench/sandbox.mjs
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { figure, saveResults } from './results.mjs';

const SELF = fileURLToPath(import.meta.url);
const KEY = { 'X-SVC_PRO_API_KEY': 'sandbox-enterprise' };

if (process.argv[2] === '--serve') {
  const { startSandbox } = await (await import('../../dist/for-scripts.js')).forSandbox();
  const sandbox = await startSandbox({ rateLimit: false });
  process.stdout.write(`${sandbox.url}\n`);
  process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
} else {
  await main();
}

async function startServer() {
  const child = spawn(process.execPath, [SELF, '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = await Promise.race([
    once(child.stdout, 'data'),
    new Promise((_, reject) => setTimeout(() => reject(new Error('sandbox did not start in 10 s')), 10_000)),
  ]);
  return { child, url: String(chunk).trim() };
}

/** One request; throws on a non-200 so a broken run cannot report good numbers. */
async function get(pool, path) {
  const { statusCode, body } = await pool.request({ path, method: 'GET', headers: KEY });
  const text = await body.text();
  if (statusCode !== 200) throw new Error(`${path}: HTTP ${statusCode} ${text.slice(0, 200)}`);
  return text.length;
}

/** Requests per second with `concurrency` loops, stopping at maxRequests or maxMs. */
async function throughput(pool, path, { concurrency = 16, maxRequests = 60_000, maxMs = 4_000 } = {}) {
  let sent = 0;
  const started = performance.now();
  const deadline = started + maxMs;
  async function loop() {
    while (sent < maxRequests && performance.now() < deadline) {
      sent++;
      await get(pool, path);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  return { requests: sent, rps: sent / seconds };
}

/** Latency of sequential requests: median and p95 in milliseconds. */
async function latency(pool, path, { maxRequests = 200, maxMs = 10_000 } = {}) {
  const times = [];
  const deadline = performance.now() + maxMs;
  while (times.length < maxRequests && performance.now() < deadline) {
    const t0 = performance.now();
    await get(pool, path);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { requests: times.length, median: at(0.5), p95: at(0.95) };
}

async function main() {
  const { child, url } = await startServer();
  const pool = new Pool(url, { connections: 16, pipelining: 1 });
  try {
    const fearAndGreed = '/v3/fear-and-greed/latest';
    const listings100 = '/v3/cryptocurrency/listings/latest?limit=100';
    const listings5000 = '/v3/cryptocurrency/listings/latest?limit=5000';
    // Warm-up: JIT, caches and connections.
    await throughput(pool, fearAndGreed, { maxRequests: 3_000, maxMs: 1_500 });
    await throughput(pool, listings100, { maxRequests: 300, maxMs: 1_500 });
    await latency(pool, listings5000, { maxRequests: 20 });

    const fg = await throughput(pool, fearAndGreed);
    const l100 = await throughput(pool, listings100);
    const l5000 = await latency(pool, listings5000);
    const bytes = await get(pool, listings5000);
    console.log(`sandbox benchmark (${url}, node ${process.version}, loopback)`);
    console.log(
      `fear-and-greed latest, concurrency 16: ${fg.rps.toFixed(0)} req/s (${fg.requests} requests)`,
    );
    console.log(
      `listings limit=100, concurrency 16:    ${l100.rps.toFixed(0)} req/s (${l100.requests} requests)`,
    );
    console.log(
      `listings limit=5000, sequential:        median ${l5000.median.toFixed(1)} ms, p95 ${l5000.p95.toFixed(1)} ms (${l5000.requests} requests, ${(bytes / 1024).toFixed(0)} KiB each)`,
    );
    saveResults('sandbox', 'node tools/bench/sandbox.mjs', [
      figure('fear-and-greed latest, concurrency 16', fg.rps, 'req/s', { least: 5_000 }),
      figure('listings limit=100, concurrency 16', l100.rps, 'req/s'),
      figure('listings limit=5000 (every asset), sequential, median', l5000.median, 'ms', { most: 30 }),
    ]);
  } finally {
    await pool.close();
    child.kill('SIGTERM');
  }
}
