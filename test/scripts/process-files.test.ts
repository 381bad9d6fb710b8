/**
 * Test files start a process only where the process is what they test (docs/testing.md): the CLI,
 * stdio framing, signals and kills, Redis stopped or frozen, a browser, the package. At most 30 do,
 * so that the suite's time stays bound by the work it tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const MOST = 30;

/**
 * Node's process functions, the SDK's stdio client transport (it starts its server), and the helpers
 * that start one (the CLI, redis-server, chromium), named anywhere in the file.
 */
const STARTS =
  /\b(?:spawn|spawnSync|execFile|execFileSync|execSync|fork|StdioClientTransport|spawnCli|runCli|spawnHttpServer|spawnSession|spawnMcp|withProcess|startRedis|killWithCallsWaiting|launchChromium)\b|\bchromium\.launch\b/;

function* testFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.test.ts')) yield path;
  }
}

describe('test files that start a process', () => {
  it(`are at most ${MOST}`, () => {
    const starting = [...testFiles(join(REPO_ROOT, 'test'))]
      .filter((file) => file !== import.meta.filename && STARTS.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPO_ROOT, file))
      .sort();
    console.log(`${starting.length} test files start a process:\n${starting.join('\n')}`);
    expect(starting.length).toBeLessThanOrEqual(MOST);
    // The pattern still finds what it is for: the CLI's own tests start it.
    expect(starting).toContain('test/cli/cli.test.ts');
  });
});
