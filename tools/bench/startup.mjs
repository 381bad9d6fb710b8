#!/usr/bin/env node
// @ts-check
/**
 * What a host waits for before the first answer: spawn to the `initialize` answer and to the
 * `tools/list` answer, for svc-mcp on stdio (default settings: the embedded sandbox, a state
 * directory of the benchmark's own) and for the floor, an SDK v2 server with one constant tool,
 * started in turn so that the machine's load hits both alike; the medians, and ours over the
 * floor's. The client is the SDK 1.x Client over the 2025 handshake, what most hosts speak. Run
 * `npm run build` first.
 *
 *   node tools/bench/startup.mjs [--starts 15]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, CONSTANT_SERVER, connectStdio, percentile } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { starts: { type: 'string', default: '15' } } });
const STARTS = countOption(values, 'starts', 1000);

const state = mkdtempSync(join(tmpdir(), 'svc-mcp-bench-startup-'));
/** Spawn to the initialize answer, and to the tools/list answer, in ms. */
async function start(args) {
  const started = performance.now();
  const { client, startupMs } = await connectStdio(args, { SVC_STATE_DIR: state });
  await client.listTools();
  const listed = performance.now() - started;
  await client.close();
  return { initialize: startupMs, list: listed };
}

const runs = { ours: [], floor: [] };
try {
  for (let i = 0; i < STARTS; i++) {
    runs.ours.push(await start([CLI, 'stdio']));
    runs.floor.push(await start(['--input-type=module', '-e', CONSTANT_SERVER]));
  }
} finally {
  rmSync(state, { recursive: true, force: true });
}
const median = (list, key) =>
  percentile(
    list.map((r) => r[key]),
    50,
  );
const [oursInit, oursList] = [median(runs.ours, 'initialize'), median(runs.ours, 'list')];
const [floorInit, floorList] = [median(runs.floor, 'initialize'), median(runs.floor, 'list')];
console.log(
  `svc-mcp: initialize ${oursInit.toFixed(0)} ms, tools/list ${oursList.toFixed(0)} ms (median of ${STARTS})`,
);
console.log(`SDK v2, one tool: initialize ${floorInit.toFixed(0)} ms, tools/list ${floorList.toFixed(0)} ms`);
console.log(
  `ours over the floor: initialize ×${(oursInit / floorInit).toFixed(2)}, tools/list ×${(oursList / floorList).toFixed(2)}`,
);
saveResults('startup', 'node tools/bench/startup.mjs', [
  figure('spawn to the tools/list answer, over the one-tool SDK server', oursList / floorList, '×', {
    most: 1.25,
  }),
  figure('spawn to the initialize answer, over the one-tool SDK server', oursInit / floorInit, '×'),
  figure('spawn to the tools/list answer, median', oursList, 'ms'),
  figure('the one-tool SDK server: spawn to the tools/list answer, median', floorList, 'ms'),
]);
