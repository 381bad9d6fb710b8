#!/usr/bin/env node
// @ts-check
/**
 * What the credit ledger (SQLite, SVC_STATE_DIR/ledger.sqlite) costs. First the store alone, in
 * this process: reserve + settle, and reserve + mark sent + settle (what a budgeted call adds), p50
 * and p95, on a ledger holding 1 key and one holding 10,000 keys (calls spread over all of them).
 * Then what it adds to a call: an uncached get_fear_and_greed_latest over stdio (SVC_CACHE=off)
 * beside a direct keep-alive GET of the same endpoint, taken in turn, without a budget and with
 * one; the sandbox in a process of its own with the rate limit off. Each pair is measured twice on
 * one server: fresh (the 1,000 calls after the first 100, while V8 is still compiling the hot
 * paths of the server, the sandbox and the bench, the direct GET's too) and warmed (`--calls`
 * after 2,100, the figure the targets are read at); then, the same way, the least any server can
 * do here: an SDK server whose one tool makes the same GET. Prints which SQLite library this Node uses
 * (node:sqlite, or better-sqlite3 on Node 20). Bounded in count; prints numbers. Run
 * `npm run build` first.
 *
 *   node tools/bench/ledger.mjs [--ops 10000] [--calls 2000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import {
  beside,
  CLI,
  connectStdio,
  forwardingServer,
  percentile,
  ROOT,
  startSandboxProcess,
} from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({
  options: { ops: { type: 'string', default: '10000' }, calls: { type: 'string', default: '2000' } },
});
const OPS = countOption(values, 'ops', 1_000_000);
const CALLS = countOption(values, 'calls', 1_000_000);
const WARMUP = 100;
/** Calls measured fresh, and the further calls before the warmed measure. */
const FRESH = 1_000;
const WARMING = 1_000;
const KEY = 'sandbox-enterprise';
const PATH = '/v3/fear-and-greed/latest';
const WINDOW = 'day:2026-11-23';
const TOOL = 'get_fear_and_greed_latest';

const { SqliteLedger, loadSqlite } = await (await import(join(ROOT, 'dist', 'for-scripts.js'))).forLedger();
const sqlite = loadSqlite();
if (!sqlite) {
  console.error(
    `Node ${process.versions.node} loads no SQLite: Node 22.13 and later have it built in, Node 20 needs better-sqlite3 (npm rebuild better-sqlite3)`,
  );
  process.exit(2);
}
const ms = (value) => `${value.toFixed(3)} ms`;
const figures = (samples) => `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}`;

/** `ops` reserve + (mark sent +) settle, each on one of `keys` accounts in turn. */
async function storeRun(keys, markSent) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-ledger-'));
  const ledger = new SqliteLedger(dir, sqlite);
  const call = async (i) => {
    const reserved = await ledger.reserve({
      account: `key:${i % keys}`,
      window: WINDOW,
      tool: TOOL,
      amount: 1,
      budget: 1e12,
    });
    if (markSent) await ledger.markSent(reserved.id);
    await ledger.settle(reserved.id, 1);
  };
  try {
    // Every key holds a window with spend by tool before the measure.
    for (let i = 0; i < keys; i++) await call(i);
    const samples = [];
    for (let i = 0; i < WARMUP + OPS; i++) {
      const t = performance.now();
      await call(i * 7919); // a prime stride: calls spread over the keys
      if (i >= WARMUP) samples.push(performance.now() - t);
    }
    const kb =
      statSync(join(dir, 'ledger.sqlite')).size / 1024 + statSync(join(dir, 'ledger.sqlite-wal')).size / 1024;
    return { samples, kb };
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`SQLite library: ${sqlite.library} (Node ${process.versions.node})`);
/** What the results file keeps, beside what is printed. */
const kept = [];
for (const keys of [1, 10_000]) {
  for (const markSent of [false, true]) {
    const { samples, kb } = await storeRun(keys, markSent);
    const what = markSent ? 'reserve + mark sent + settle' : 'reserve + settle';
    console.log(
      `${what}, ${keys} key${keys === 1 ? '' : 's'} (${OPS} ops, database + log ${kb.toFixed(0)} KB): ${figures(samples)}`,
    );
    const measure = `${sqlite.library}: ${what}, a ledger of ${keys.toLocaleString('en-US')} key${keys === 1 ? '' : 's'}, p50`;
    kept.push(figure(measure, percentile(samples, 50), 'ms', markSent ? undefined : { most: 0.2 }));
  }
}

console.log(
  'for reference, the JSON file ledger (where no SQLite loads): reserve + settle p50 3.5 ms with 1 key, 4.0 ms with 100, 10.9 ms with 1,000',
);

const { url, child: sandbox } = await startSandboxProcess();
const agent = new Agent({ keepAliveTimeout: 30_000 });
const direct = async () => {
  const res = await request(`${url}${PATH}`, { dispatcher: agent, headers: { 'X-SVC_PRO_API_KEY': KEY } });
  await res.body.text();
};
/** Calls `call` beside the direct GET, fresh then warmed, printing each under `label`. */
async function measure(label, call, target) {
  for (const [when, warmup, calls] of [
    ['fresh', WARMUP, FRESH],
    ['warmed', WARMING, CALLS],
  ]) {
    const run = await beside(call, direct, { warmup, calls });
    const [callP50, directP50] = [percentile(run.call, 50), percentile(run.direct, 50)];
    console.log(
      `${label}, ${when} (${calls} calls): ${figures(run.call)}; direct keep-alive GET: ${figures(run.direct)}; above the GET at p50: ${ms(callP50 - directP50)}`,
    );
    if (when === 'warmed')
      kept.push(figure(`${label}, above a direct GET, warmed, p50`, callP50 - directP50, 'ms', target));
  }
}

/** A server on stdio, called with TOOL (which must answer without an error) and measured. */
async function measureServer(label, args, env, target) {
  const { client } = await connectStdio(args, env);
  try {
    await measure(
      label,
      async () => {
        const result = await client.callTool({ name: TOOL, arguments: {} });
        if (result.isError) throw new Error(result.content[0]?.text);
      },
      target,
    );
  } finally {
    await client.close();
  }
}

try {
  // The reference warmed first too: the bench's own client is as new as the server.
  for (let i = 0; i < WARMING * 2; i++) await direct();
  for (const budget of [undefined, '1000000000']) {
    const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-ledger-'));
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: url, SVC_CACHE: 'off', SVC_STATE_DIR: state };
    if (budget) env.SVC_CREDIT_BUDGET = budget;
    try {
      await measureServer(
        `uncached ${TOOL} over stdio, ${budget ? 'with a budget' : 'no budget'}`,
        [CLI, 'stdio'],
        env,
        { most: budget ? 1 : 0.5 },
      );
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }
  await measureServer(
    'for reference, an SDK server whose one tool makes the same GET with undici',
    ['--input-type=module', '-e', forwardingServer(PATH)],
    { SVC_API_KEY: KEY, SVC_BASE_URL: url },
  );
  saveResults('ledger', 'node tools/bench/ledger.mjs', kept);
} finally {
  await agent.close();
  sandbox.kill();
}
