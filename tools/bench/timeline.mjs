#!/usr/bin/env node
// @ts-check
/**
 * Where an uncached call's time goes inside the server, beside the least any server can do here.
 * Each server runs on stdio with tools/bench/timeline-preload.mjs, which times every
 * get_fear_and_greed_latest call at the same three places in any server, without a build of its
 * own: before the upstream request (the request read, checked, priced, put on the ledger, sent),
 * the upstream round trip (to the first bytes of its answer), and after it (the answer read,
 * normalised, summarised and written to stdout). Ours with SVC_CACHE=off and no budget, then the
 * reference (an SDK server whose one tool makes the same GET with undici), `--rounds` times each in
 * turn, the sandbox in its own process with the rate limit off; `--calls` calls recorded after as
 * many to warm up, one at a time, after the sandbox has answered SANDBOX_WARMUP direct GETs.
 * Prints each span's median per server and round, and ours less the reference's; the figures kept
 * are the medians of those over the rounds. Bounded in count; prints numbers. Run `npm run build`
 * first.
 *
 * In use the service is on another machine. Here the sandbox gets a core of its own, and this
 * process and the servers it starts the others (taskset, where there is more than one core): on
 * shared cores, which core the scheduler wakes the sandbox on decides the round trip more than
 * the server under test does.
 *
 *   node tools/bench/timeline.mjs [--calls 2000] [--rounds 5]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { cliArgs, connectStdio, forwardingServer, percentile, startSandboxProcess } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' } },
});
const CALLS = countOption(values, 'calls', 100_000);
const ROUNDS = countOption(values, 'rounds', 10);
const KEY = 'sandbox-enterprise';
const PATH = '/v3/fear-and-greed/latest';
const TOOL = 'get_fear_and_greed_latest';
const PRELOAD = fileURLToPath(new URL('./timeline-preload.mjs', import.meta.url));
/** Direct GETs the sandbox answers before the first round. */
const SANDBOX_WARMUP = 30_000;
const SPANS = ['before the request', 'upstream round trip', 'after the answer'];

/** The three spans' medians (ms), and the median of their sum, of `--calls` calls to a server started with `args` and `env`. */
async function spans(args, env) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-timeline-'));
  const out = join(dir, 'spans.json');
  const { client } = await connectStdio(['--import', PRELOAD, ...args], {
    ...env,
    SVC_STATE_DIR: dir,
    TIMELINE_OUT: out,
    TIMELINE_SKIP: String(CALLS),
  });
  try {
    for (let i = 0; i < 2 * CALLS; i++) {
      const result = await client.callTool({ name: TOOL, arguments: {} });
      if (result.isError) throw new Error(result.content[0]?.text);
    }
  } finally {
    await client.close();
  }
  const recorded = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  if (recorded.length !== CALLS) throw new Error(`${recorded.length} calls recorded, ${CALLS} expected`);
  const median = (of) => percentile(recorded.map(of), 50);
  return [...SPANS.map((_, i) => median((call) => call[i])), median((call) => call[0] + call[1] + call[2])];
}

/** Pins the sandbox (`pid`) to the last core and this process to the others; says where each runs. */
function coresApart(pid) {
  const cores = availableParallelism();
  if (cores < 2) return 'one core, shared';
  const ours = cores === 2 ? '0' : `0-${cores - 2}`;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cores - 1), String(pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', ours, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return 'cores shared (no taskset here)';
  }
  return `the sandbox on core ${cores - 1}, the servers and the client on ${cores === 2 ? 'core 0' : `cores ${ours}`}`;
}

/**
 * The sandbox answers a fresh process's first tens of thousands of requests more slowly, for both
 * servers alike: it is warmed with direct GETs first, so that the rounds time the servers.
 */
async function warmSandbox(url) {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  try {
    for (let i = 0; i < SANDBOX_WARMUP; i++) {
      const res = await request(`${url}${PATH}`, {
        dispatcher: agent,
        headers: { 'X-SVC_PRO_API_KEY': KEY },
      });
      await res.body.dump();
    }
  } finally {
    await agent.close();
  }
}

const { url, child: sandbox } = await startSandboxProcess();
const placement = coresApart(sandbox.pid);
await warmSandbox(url);
const upstream = { SVC_API_KEY: KEY, SVC_BASE_URL: url };
const servers = [
  ['ours (SVC_CACHE=off, no budget)', cliArgs('stdio'), { ...upstream, SVC_CACHE: 'off' }],
  ['reference (the SDK and the same GET)', ['--input-type=module', '-e', forwardingServer(PATH)], upstream],
];
const us = (ms) => `${(ms * 1000).toFixed(0).padStart(4)} µs`;
console.log(
  `Node ${process.versions.node}, ${placement}; medians of ${CALLS} calls after ${CALLS}: ${SPANS.join(' | ')} | in all`,
);
const rounds = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const medians = [];
    for (const [label, args, env] of servers) {
      const figures = await spans(args, env);
      medians.push(figures);
      console.log(`round ${round}, ${label}: ${figures.map(us).join(' | ')}`);
    }
    const extra = medians[0].map((ms, i) => ms - medians[1][i]);
    console.log(`round ${round}, ours less the reference: ${extra.map(us).join(' | ')}`);
    rounds.push({ ours: medians[0], extra });
  }
  // Each figure is the median over the rounds, so that one round the machine was busy in moves none.
  const overRounds = (of) =>
    [...SPANS, 'in all'].map((_, i) =>
      percentile(
        rounds.map((r) => r[of][i]),
        50,
      ),
    );
  const labels = [...SPANS, 'in all'];
  const kept = [
    ...overRounds('ours').map((ms, i) => figure(`ours: ${labels[i]}, median`, ms * 1000, 'µs')),
    ...overRounds('extra').map((ms, i) =>
      // An uncached call in all: within 250 µs of the least a server can do.
      figure(
        `ours less the reference: ${labels[i]}, median`,
        ms * 1000,
        'µs',
        i === SPANS.length ? { most: 250 } : undefined,
      ),
    ),
  ];
  saveResults('timeline', 'node tools/bench/timeline.mjs', kept);
} finally {
  sandbox.kill();
}
