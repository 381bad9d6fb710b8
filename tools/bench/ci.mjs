#!/usr/bin/env node
// @ts-check
/**
 * The suite's time and CI's, as a clean checkout sees them: HEAD cloned into an empty directory and
 * `.ci/run` run there under CI=true (npm ci, the suite on Node 22 beside better-sqlite3's compile,
 * `npm test` on Node 20, the release check, the suite on Node 24), timed from start to exit, each
 * part's time read from the lines `.ci/run` prints ("--- npm test took 131 s"), with the CPU time
 * of all its processes (Linux: this process's waited-for children, /proc/self/stat), which says
 * whether the cores were the limit. Targets: `npm test` under 150 s and CI under 10 minutes on the
 * 2-core machine the project is developed on. What is measured is HEAD: commit first. Exit 1 when
 * CI fails; its output is then kept in the clone.
 *
 *   node tools/bench/ci.mjs
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The seconds `.ci/run` said a part took ("--- <part> took N s"). */
function partSeconds(log, part) {
  const said = log.match(new RegExp(`^--- ${part} took (\\d+) s$`, 'm'));
  if (!said) throw new Error(`.ci/run did not say how long "${part}" took`);
  return Number(said[1]);
}

const clone = mkdtempSync(join(tmpdir(), 'svc-mcp-ci-'));
if (spawnSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'inherit' }).status !== 0) {
  console.error(`git could not clone ${ROOT}`);
  process.exit(1);
}
const logFile = join(clone, 'ci.log');
const log = openSync(logFile, 'w');
const cpuBefore = childCpuSeconds();
const started = performance.now();
const run = spawnSync('bash', ['.ci/run'], {
  cwd: clone,
  env: { ...process.env, CI: 'true' },
  stdio: ['ignore', log, log],
});
const seconds = (performance.now() - started) / 1000;
const cpu = childCpuSeconds() - cpuBefore;
closeSync(log);
if (run.status !== 0) {
  console.error(`.ci/run failed (exit ${run.status}); its output: ${logFile}`);
  process.exit(1);
}
const said = readFileSync(logFile, 'utf8');
const cores = cpus().length;
const figures = [
  figure(`npm test on a fresh clone, ${cores} cores`, partSeconds(said, 'npm test'), 's', { most: 150 }),
  figure('the release check', partSeconds(said, 'npm run release:check'), 's'),
  figure('the suite on Node 22', partSeconds(said, 'the test suite on Node 22'), 's'),
  figure('the suite on Node 24', partSeconds(said, 'the test suite on Node 24'), 's'),
  figure('CI (.ci/run) on a fresh clone, npm ci included', seconds, 's', { most: 600 }),
];
if (Number.isFinite(cpu)) figures.push(figure('CPU time of all its processes', cpu, 's'));
for (const f of figures) console.log(`${f.measure}: ${f.value} ${f.unit}`);
saveResults('ci', 'node tools/bench/ci.mjs', figures);
rmSync(clone, { recursive: true, force: true });
