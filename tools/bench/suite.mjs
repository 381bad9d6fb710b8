#!/usr/bin/env node
/**
 * The test suite's own time, as `npm test` spends it: the checks (`tools/check.mjs`: the build,
 * the type check and the lint at once), then vitest, each timed from start to exit, with the CPU
 * time their processes took (Linux: this process's waited-for children, /proc/self/stat), which
 * says whether the machine's cores were the limit. The target: the suite in under 150 s on the
 * 2-core machine the project is developed on. Exit 1 when either part fails.
 *
 *   npm run build && node tools/bench/suite.mjs
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { figure, saveResults } from './results.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds of the children waited for so far (cutime + cstime), where /proc has them. */
function childCpuSeconds() {
  if (!existsSync('/proc/self/stat')) return Number.NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

/** Runs a part of `npm test`: its wall time and its processes' CPU time, in seconds. */
function timed(title, args) {
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) {
    console.error(`${title} failed (exit ${run.status})`);
    process.exit(1);
  }
  const cpu = childCpuSeconds() - cpuBefore;
  console.log(`${title}: ${seconds.toFixed(1)} s, ${cpu.toFixed(0)} s of CPU`);
  return { seconds, cpu };
}

const check = timed('checks', ['tools/check.mjs']);
const tests = timed('vitest', ['node_modules/vitest/vitest.mjs', 'run']);
const figures = [
  figure(`npm test on ${cpus().length} cores`, check.seconds + tests.seconds, 's', { most: 150 }),
  figure('of which the checks (build, type check, lint at once)', check.seconds, 's'),
  figure('of which vitest', tests.seconds, 's'),
];
if (Number.isFinite(check.cpu)) {
  figures.push(figure('CPU time of all its processes', check.cpu + tests.cpu, 's'));
}
saveResults('suite', 'node tools/bench/suite.mjs', figures);
