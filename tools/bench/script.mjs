#!/usr/bin/env node
// @ts-check
/**
 * What a script adds, over stdio against the sandbox in a process of its own, the cache on: an empty
 * script (a runner thread's runtime started, the code run, its answer back) beside a direct cached
 * call; each cached call inside a script (a script of 20 against the empty one) beside the same
 * call made directly; and the server's resident memory after 100 scripts back to back, each making
 * five cached calls, against before them. Run `npm run build` first.
 *
 *   node tools/bench/script.mjs [--calls 50]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, connectStdio, percentile, rssMb, startSandboxProcess } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '50' } } });
const CALLS = countOption(values, 'calls', 10_000);
const INNER = 20;

const { url, child: sandbox } = await startSandboxProcess();
const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-script-'));
try {
  const env = { SVC_API_KEY: 'sandbox-enterprise', SVC_BASE_URL: url, SVC_STATE_DIR: state };
  const { client, pid } = await connectStdio([CLI, 'stdio'], env);
  /** The median time of `call` over CALLS rounds, after a few to warm up. */
  const median = async (/** @type {() => Promise<unknown>} */ call) => {
    for (let i = 0; i < 5; i++) await call();
    const times = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    return percentile(times, 50);
  };
  const checked = async (/** @type {string} */ name, /** @type {Record<string, unknown>} */ args) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
  };
  const direct = () => checked('get_fear_and_greed_latest', {});
  const script = (/** @type {string} */ code) => () => checked('run_script', { code });
  const calls = (/** @type {number} */ n) =>
    `for (let i = 0; i < ${n}; i++) await tools.get_fear_and_greed_latest(); return 1;`;

  const directMs = await median(direct);
  const emptyMs = await median(script('return 1;'));
  const twentyMs = await median(script(calls(INNER)));
  const perCall = (twentyMs - emptyMs) / INNER;

  const before = rssMb(pid);
  for (let i = 0; i < 100; i++) await script(calls(5))();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const after = rssMb(pid);
  await client.close();

  console.log(
    `empty script ${emptyMs.toFixed(2)} ms (a direct cached call ${directMs.toFixed(2)} ms); a cached call inside ${perCall.toFixed(3)} ms; RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB after 100 scripts`,
  );
  saveResults('script', 'node tools/bench/script.mjs', [
    figure('an empty script, request to answer, median', emptyMs, 'ms', { most: 50 }),
    figure('a direct cached call, request to answer, median', directMs, 'ms'),
    figure('the empty script above the direct cached call, median', emptyMs - directMs, 'ms'),
    figure('a cached call inside a script, each', perCall, 'ms'),
    figure('a cached call inside a script, against the same call made directly', perCall / directMs, '×', {
      most: 1,
    }),
    figure('resident memory grown over 100 scripts of 5 cached calls', after - before, 'MB', { most: 30 }),
  ]);
} finally {
  sandbox.kill();
  rmSync(state, { recursive: true, force: true });
}
