/**
 * The npm package as `npx svc-mcp` gets it: `npm pack`, installed into an empty directory with
 * production dependencies only, and the installed `svc-mcp` run: --version, a call, a stdio session;
 * and docs/hosts.md's way before it is published, `npx -y ./svc-mcp-<version>.tgz`, run as written.
 */
import { execFileSync } from 'node:child_process';
import { type Dirent, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { readmeCommands } from '../helpers/readme.js';
import { record } from '../helpers/recorder.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));

describe('the npm package', () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-mcp-npm-test-'));
  const prefix = join(work, 'user');
  let bin: string;
  let tarball: string;

  beforeAll(() => {
    // The build is already in dist/ (npm test builds first): no scripts at pack time.
    const packed = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    tarball = join(work, JSON.parse(packed)[0].filename as string);
    writeFileSync(join(work, 'package.json'), '{}');
    // Without the optional better-sqlite3, which would compile here for a minute (its prebuilt
    // binaries are out of reach); the suite runs on it from the repository's own install.
    execFileSync(
      npm,
      [
        'install',
        '--omit=dev',
        '--omit=optional',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--prefix',
        prefix,
        tarball,
      ],
      {
        cwd: work,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    bin = join(prefix, 'node_modules', '.bin', process.platform === 'win32' ? 'svc-mcp.cmd' : 'svc-mcp');
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds the build, the manifest, server.json, the README and the LICENSE, and no sources or tests', () => {
    const installed = join(prefix, 'node_modules', pkg.name);
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
  });

  it('runs: --version, a call, and a stdio session', async () => {
    const env = { PATH: process.env.PATH ?? '', SVC_STATE_DIR: join(work, 'state') };
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8', env }).trim()).toBe(pkg.version);
    const answer = execFileSync(bin, ['call', 'get_fear_and_greed_latest'], {
      encoding: 'utf8',
      env,
      cwd: work,
    });
    expect(answer).toMatch(/^Fear & Greed \d+ – /);
    const client = new Client({ name: 'npx-user', version: '0' });
    const transport = new StdioClientTransport({ command: bin, args: [], env, cwd: work, stderr: 'pipe' });
    await client.connect(transport);
    try {
      // The installed command starts Node with the CLI's first line's flags (its memory bound).
      const started = readFileSync(`/proc/${transport.pid}/cmdline`, 'utf8').split('\0');
      expect(started).toContain('--max-semi-space-size=1');
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      const result = await client.callTool({ name: 'get_global_metrics_latest', arguments: {} });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('the tarball lines of docs/hosts.md (before the package is published) run as written', () => {
    const lines = readmeCommands('## Not on the npm registry yet', 'docs/hosts.md').filter((line) =>
      line.startsWith('npx '),
    );
    expect(lines).toEqual([
      `npx -y ./${pkg.name}-${pkg.version}.tgz --version`,
      `npx -y ./${pkg.name}-${pkg.version}.tgz call get_fear_and_greed_latest`,
    ]);
    expect(tarball.endsWith(`${sep}${pkg.name}-${pkg.version}.tgz`)).toBe(true);
    // A directory of its own: npx keys its cache by the tarball's path, so no older copy runs.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SVC_STATE_DIR: join(work, 'state'),
    };
    const [version, call] = lines.map((line) =>
      execFileSync('sh', ['-c', line], { cwd: work, encoding: 'utf8', env, timeout: 120_000 }),
    );
    expect(version.trim()).toBe(pkg.version);
    expect(call).toMatch(/^Fear & Greed \d+ – /);
  }, 180_000);
});
