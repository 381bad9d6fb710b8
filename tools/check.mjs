#!/usr/bin/env node
/**
 * What `npm test` runs before the tests: the build, the type check of the sources with the tests,
 * and the lint, at once (they read the same files and write nothing the others read). Each one's
 * output is printed whole when it ends; the exit code is 1 when any failed.
 *
 *   node tools/check.mjs
 */
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const SCRIPTS = ['build', 'typecheck', 'lint'];

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', (error) => resolve({ script, code: 1, output: String(error) }));
    child.once('close', (code) => resolve({ script, code: code ?? 1, output }));
  });
}

const results = await Promise.all(SCRIPTS.map(run));
for (const { script, code, output } of results) {
  console.log(`--- npm run ${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`}`);
  if (output.trim() !== '') console.log(output.trimEnd());
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
