// @ts-check
/**
 * A burst of heavy calls on the embedded sandbox, as a host sees it: calls written at once over
 * stdio (the cache off, so every call does its work), with a `ping` every 100 ms throughout. Prints
 * how long the pings took, how many calls were refused busy (each refusal must say so and cost
 * nothing), and the server's resident memory at the burst's end, a few seconds later and at most.
 * Two mixes:
 *
 * - `mixed` (default, 500 calls): the test's mix (test/reliability/burst.test.ts, from
 *   burst-mix.mjs). The test checks what does not depend on the machine's speed; the figures live
 *   here.
 * - `heaviest` (200 calls): a quarter each of listings limit=5000, global metrics count=10000 at
 *   5m in four currencies, the svc100 history count=100 and the latest fear and greed: the memory
 *   target's burst, run on each Node (`npm exec --yes --package=node@22 -- node …`).
 *
 *   npm run build && node tools/bench/burst.mjs [--mix mixed|heaviest] [--calls N] [--rounds 2]
 *
 * BENCH_NODE_ARGS adds Node options to the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 *
 * Linux only (it reads /proc).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MIXED_CALLS, mixedCall } from './burst-mix.mjs';
import { CLI, connectStdio, percentile, rssMb } from './processes.mjs';
import { figure, saveResults } from './results.mjs';

/** How long the server is left idle after a burst before its memory is read again (it collects once heavy work stops: src/idle-collection.ts). */
const SETTLE_MS = 20_000;

const HEAVIEST = [
  ['get_cryptocurrency_listings_latest', { limit: 5000 }],
  ['get_global_metrics_historical', { count: 10_000, interval: '5m', convert: 'USD,EUR,BTC,ETH' }],
  ['get_svc100_index_historical', { count: 100 }],
  ['get_fear_and_greed_latest', {}],
];

const MIXES = {
  mixed: { calls: MIXED_CALLS, call: mixedCall },
  heaviest: { calls: 200, call: (i) => HEAVIEST[i % HEAVIEST.length] },
};

const { values } = parseArgs({
  options: {
    mix: { type: 'string', default: 'mixed' },
    calls: { type: 'string' },
    rounds: { type: 'string', default: '2' },
  },
});
const mix = MIXES[values.mix];
const calls = Number(values.calls ?? mix?.calls);
const rounds = Number(values.rounds);
if (!mix || !(calls > 0 && calls <= 2000 && rounds > 0 && rounds <= 10)) {
  console.error('--mix takes mixed or heaviest, --calls 1 to 2000, --rounds 1 to 10');
  process.exit(2);
}
const burstCall = mix.call;
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-burst-'));
const { client, pid } = await connectStdio([...NODE_ARGS, CLI], {
  SVC_MAX_CREDITS_PER_CALL: '1000',
  SVC_CACHE: 'off',
  SVC_STATE_DIR: state,
});
try {
  await client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
  const before = rssMb(pid);
  const kept = [];
  // Every burst's pings: the first burst, on a server just started, is the one a person meets.
  const allPings = [];
  console.log(
    `Node ${process.version}, ${values.mix} mix; RSS after start-up and one call: ${before.toFixed(0)} MB`,
  );
  for (let round = 1; round <= rounds; round++) {
    let running = true;
    const pings = [];
    const pinging = (async () => {
      while (running) {
        const started = performance.now();
        await client.ping({ timeout: 120_000 });
        pings.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: calls }, (_, i) => {
        const [name, args] = burstCall(i);
        return client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    running = false;
    await pinging;
    allPings.push(...pings);
    const refusals = results.filter((r) => r.isError);
    const refused = refusals.length;
    // A refusal says the server is busy and costs nothing: anything else is a fault of the burst.
    const faulty = refusals.filter(
      (r) => !/The server is busy/.test(JSON.stringify(r.content)) || r._meta?.credits !== 0,
    ).length;
    const rssAtEnd = rssMb(pid);
    // Memory back: as it is once the server has been idle a moment (and has collected its garbage).
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const ms = (p) => `${percentile(pings, p).toFixed(0)} ms`;
    console.log(
      `burst ${round}: ${calls} calls in ${seconds.toFixed(1)} s (${refused} refused busy); ` +
        `ping p50 ${ms(50)}, p95 ${ms(95)}, max ${Math.max(...pings).toFixed(0)} ms over ${pings.length} pings; ` +
        `RSS ${rssAtEnd.toFixed(0)} MB at its end, ${rssMb(pid).toFixed(0)} MB ${SETTLE_MS / 1000} s later, ` +
        `${rssMb(pid, 'VmHWM').toFixed(0)} MB at most; ${faulty} refusals not busy or not free`,
    );
    if (round === rounds) {
      kept.push(
        figure(`${calls} calls (${values.mix} mix) at once, each answered or refused in`, seconds, 's'),
        figure('of them refused busy (no turn within the wait)', refused, 'calls'),
        figure('refusals that did not say busy, or were charged', faulty, 'calls', { most: 0 }),
        figure('ping during the bursts, p95', percentile(allPings, 95), 'ms'),
        figure('ping during the bursts (the first too), the longest', Math.max(...allPings), 'ms', {
          most: 1_000,
        }),
        figure('resident memory at the end of the last burst', rssAtEnd, 'MB'),
        figure(`resident memory ${SETTLE_MS / 1000} s after the last burst`, rssMb(pid), 'MB', { most: 200 }),
      );
    }
  }
  saveResults(
    `burst-${values.mix}`,
    `node tools/bench/burst.mjs --mix ${values.mix} --rounds ${rounds}`,
    kept,
  );
} finally {
  await client.close();
  rmSync(state, { recursive: true, force: true });
}
