#!/usr/bin/env node
// @ts-check
/**
 * `npm test`: the build, then vitest (every test but the package's, test/dist/, which
 * `npm run release:check` runs) beside the type check and the lint. The end-to-end tests need
 * the build; nothing in them waits for the checks, which run at a lower priority so that they take
 * the cores only when the tests leave them idle (on two cores the suite is bound by CPU). vitest
 * prints as it goes; each check's output is printed whole when all have ended. Arguments go to
 * vitest (`npm test -- test/call`). Exit 1 when the build, a check or a test failed.
 *
 *   node scripts/test.mjs [vitest arguments]
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const CHECKS = ['typecheck', 'lint'];
/** How much the checks give way to the tests (a nice value: 0 is the default, 19 the lowest). */
const CHECK_NICENESS = 10;

/** Runs a command to its end: its exit code, and its output when captured. */
function run(command, args, { capture = false, niceness = 0 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (capture) {
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
    }
    if (niceness > 0 && child.pid !== undefined) {
      try {
        setPriority(child.pid, niceness);
      } catch {
        // Where priorities cannot be set, the checks run at the tests' priority: slower, not wrong.
      }
    }
    child.once('error', (error) => resolve({ code: 1, output: String(error) }));
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const built = await run(npm, ['run', '--silent', 'build']);
if (built.code !== 0) {
  console.error(`npm run build failed (exit ${built.code})`);
  process.exit(1);
}
const checks = CHECKS.map((script) =>
  run(npm, ['run', '--silent', script], { capture: true, niceness: CHECK_NICENESS }),
);
const tests = await run(process.execPath, [VITEST, 'run', ...process.argv.slice(2)]);
let failed = tests.code !== 0;
for (const [i, check] of (await Promise.all(checks)).entries()) {
  console.log(`--- npm run ${CHECKS[i]}: ${check.code === 0 ? 'ok' : `failed (exit ${check.code})`}`);
  if (check.output.trim() !== '') console.log(check.output.trimEnd());
  failed ||= check.code !== 0;
}
process.exit(failed ? 1 : 0);
