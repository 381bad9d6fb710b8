/**
 * The npm package as `npx svc-mcp` gets it: docs/hosts.md's way before it is published,
 * `npx -y ./svc-mcp-<version>.tgz`, run as written from the packed tarball; then the command that
 * npx installed (production dependencies only): its files, --version, a call, a stdio session.
 *
 * The install is a new user's first: an npm cache of its own, empty, so the production
 * dependencies come from the npm registry, whatever the machine's cache holds. It is not bounded in
 * time (an install on a busy machine takes what it takes); what the test bounds is the installed
 * command answering. The optional better-sqlite3 is left out: its compile is not what this test is
 * about, and a server without it (its ledger a JSON file) is a supported way to run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { type Dirent, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { readmeCommands } from '../helpers/readme.js';
import { record } from '../helpers/recorder.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const tarballName = `${pkg.name}-${pkg.version}.tgz`;
/** How long the installed command may take to answer, on a busy machine. */
const ANSWER_MS = 60_000;

describe('the npm package', () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-mcp-npm-test-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_omit: 'optional',
    npm_config_update_notifier: 'false',
    SVC_STATE_DIR: join(work, 'state'),
  };
  let bin: string;
  let installWarnings: string;

  beforeAll(() => {
    // The build is already in dist/ (npm test builds first): no scripts at pack time.
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', work], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    });
    // npx's install for the tarball (the package spec docs/hosts.md's lines use, so theirs too),
    // and the command it made.
    const installed = spawnSync(
      npm,
      ['exec', '--yes', `--package=./${tarballName}`, '--', 'sh', '-c', 'command -v svc-mcp'],
      { cwd: work, encoding: 'utf8', env },
    );
    bin = installed.stdout.trim();
    installWarnings = installed.stderr;
  }, 0);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs on the Node it runs on with no engine warning (every dependency supports Node 20.19)', () => {
    expect(bin).toMatch(/svc-mcp$/);
    expect(installWarnings).not.toMatch(/EBADENGINE/);
  });

  it('the tarball lines of docs/hosts.md (before the package is published) run as written', () => {
    const lines = readmeCommands('## Not on the npm registry yet', 'docs/hosts.md').filter((line) =>
      line.startsWith('npx '),
    );
    expect(lines).toEqual([
      `npx -y ./${tarballName} --version`,
      `npx -y ./${tarballName} call get_fear_and_greed_latest`,
    ]);
    const said = lines.map((line) =>
      execFileSync('sh', ['-c', line], { cwd: work, encoding: 'utf8', env, timeout: ANSWER_MS }),
    );
    expect(said[0]!.trim()).toBe(pkg.version);
    expect(said[1]).toMatch(/^Fear & Greed \d+ – /);
  });

  it('holds the build, the manifest, server.json, the README and the LICENSE, and no sources or tests', () => {
    const installed = join(dirname(bin), '..', pkg.name);
    const files = (readdirSync(installed, { recursive: true, withFileTypes: true }) as Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => `./${relative(installed, join(entry.parentPath, entry.name)).split(sep).join('/')}\n`)
      .filter((file) => !file.startsWith('./node_modules/'))
      .join('');
    record('npm package files', files);
    for (const file of [
      './dist/cli.js',
      './manifest.json',
      './server.json',
      './README.md',
      './LICENSE',
      './package.json',
    ]) {
      expect(files).toContain(`${file}\n`);
    }
    expect(files).not.toMatch(/^\.\/(src|test|tools)\//m);
    // Production dependencies only.
    expect(existsSync(join(dirname(bin), '..', 'vitest'))).toBe(false);
    expect(existsSync(join(dirname(bin), '..', 'typescript'))).toBe(false);
  });

  it('runs: --version, a call, and a stdio session', async () => {
    const answering = { encoding: 'utf8', env, cwd: work, timeout: ANSWER_MS } as const;
    expect(execFileSync(bin, ['--version'], answering).trim()).toBe(pkg.version);
    const answer = execFileSync(bin, ['call', 'get_fear_and_greed_latest'], answering);
    expect(answer).toMatch(/^Fear & Greed \d+ – /);
    const client = new Client({ name: 'npx-user', version: '0' });
    const transport = new StdioClientTransport({ command: bin, args: [], env, cwd: work, stderr: 'pipe' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      const result = await client.callTool({ name: 'get_global_metrics_latest', arguments: {} });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
