/**
 * The MCP conformance suite against `svc-mcp http`: version 0.1.13 (a devDependency, the last
 * release that runs on Node 20) for the 2025 server scenarios that apply to us, and a later release
 * (the devDependency `conformance-next`, an npm alias) for the 2026-07-28 scenarios, on a Node 22
 * that `npm exec` fetches from the npm registry, leaving the machine's Node alone. A check that
 * fails must be one this server has nothing to test it with; each is listed below with the reason.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/in-process.js';
import { record } from '../helpers/recorder.js';
import type { HttpServer } from '../helpers/session.js';

const CONFORMANCE_0_1 = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The later release (its version pinned in package-lock.json). */
const CONFORMANCE_NEXT = join(REPO_ROOT, 'node_modules/conformance-next/dist/index.js');
/**
 * The Node it needs, named as .ci/run names the Node of its suite on 22: npm exec keeps one install
 * per name, so that one download serves both.
 */
const NODE_22 = 'node@22';

/** The version of a dependency that npm installed. */
function installedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8'));
  return (manifest as { version: string }).version;
}

/** Checks that cannot pass here, by id, and why. */
const NOT_APPLICABLE: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability':
    'calls the suite’s own test_missing_capability tool; no tool of ours needs a client capability',
  'sep-2575-missing-capability-http-400': 'the same check’s HTTP status',
};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  errorMessage?: string;
}

/** Run a command (killed after `timeoutMs`, unless 0); resolves with its exit code and output. */
function run(command: string, args: string[], cwd: string, timeoutMs: number) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = timeoutMs > 0 ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : undefined;
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      record('conformance', output);
      resolve({ code, output });
    });
  });
}

/** Every check the runs saved under `dir`. */
function savedChecks(dir: string): Check[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('checks.json'))
    .flatMap((path) => JSON.parse(readFileSync(join(dir, path), 'utf8')) as Check[]);
}

function failures(checks: Check[]): string[] {
  return checks.filter((check) => check.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`);
}

let server: HttpServer;
let workDir: string;
beforeAll(async () => {
  server = await startHttpServer();
  workDir = mkdtempSync(join(tmpdir(), 'svc-conformance-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('conformance 0.1.13 (2025 revisions)', () => {
  // One run of its whole active suite (one process, where a run a scenario took one each), of
  // which these scenarios apply to us; the others exercise the suite's own test server's tools,
  // resources and prompts.
  const out = () => join(workDir, '0.1.13');
  let output = '';
  beforeAll(async () => {
    ({ output } = await run(
      process.execPath,
      [CONFORMANCE_0_1, 'server', '--url', server.url, '-o', out()],
      workDir,
      60_000,
    ));
  });

  for (const scenario of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']) {
    it(`${scenario} passes`, () => {
      const [saved, ...more] = readdirSync(out()).filter((name) =>
        new RegExp(`^server-${scenario}-\\d{4}-`).test(name),
      );
      expect(saved, output).toBeDefined();
      expect(more).toEqual([]);
      const checks = savedChecks(join(out(), saved!));
      expect(checks.length, output).toBeGreaterThan(0);
      expect(failures(checks), output).toEqual([]);
    });
  }
});

describe(`conformance ${installedVersion('conformance-next')} on ${NODE_22} (2026-07-28)`, () => {
  /** npm exec of the Node, which installs it into npm's cache the first time. */
  const onNode22 = (call: string) => ['exec', '--yes', `--package=${NODE_22}`, `--call=${call}`];
  // The install, not bounded in time: on a new machine it is a download, which takes what it takes.
  beforeAll(async () => {
    const { code, output } = await run('npm', onNode22('node --version'), workDir, 0);
    expect(code, output).toBe(0);
  }, 0);

  it('server-stateless, caching and http-header-validation pass every check that applies', async () => {
    const out = join(workDir, 'later');
    const scenarios = ['server-stateless', 'caching', 'http-header-validation'];
    const commands = scenarios.map(
      (scenario) =>
        `node "${CONFORMANCE_NEXT}" server --url ${server.url} --scenario ${scenario} -o ${out}/${scenario}`,
    );
    const { output } = await run(
      'npm',
      onNode22(['node --version', ...commands].join(' ; ')),
      workDir,
      240_000,
    );
    expect(output, 'the later release ran on Node 22').toMatch(/^v22\./m);
    const checks = savedChecks(out);
    for (const scenario of scenarios) {
      expect(
        readdirSync(join(out, scenario)).length,
        `${scenario} saved no results:\n${output}`,
      ).toBeGreaterThan(0);
    }
    expect(checks.filter((check) => check.status === 'SUCCESS').length, output).toBeGreaterThan(40);
    const unexpected = failures(checks).filter((failure) => !(failure.split(':')[0]! in NOT_APPLICABLE));
    expect(unexpected, output).toEqual([]);
  }, 300_000);
});
