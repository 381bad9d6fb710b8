/**
 * The desktop bundle as a person gets it: `npm run bundle` builds it from a production-only install,
 * it stays under 5 MB and passes `mcpb validate`, and unpacked into an empty directory it starts the
 * way a desktop host starts it (the manifest's command, args and env, with every placeholder the
 * user left empty still in place), lists its tools and answers a call. It carries no native binary:
 * its ledger uses node:sqlite, so its manifest admits only a Node that has it, and on an older one
 * it says so in one line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { record } from '../helpers/recorder.js';

const MCPB = join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
/** Whether this Node is one the manifest admits (compatibility.runtimes.node, `>=MAJOR.MINOR.PATCH`). */
const admitted = (() => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'manifest.json'), 'utf8'));
  const least = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(manifest.compatibility.runtimes.node);
  if (!least) throw new Error(`unexpected runtimes.node: ${manifest.compatibility.runtimes.node}`);
  const [have, need] = [process.versions.node.split('.').map(Number), least.slice(1).map(Number)];
  const differs = have.findIndex((part, i) => part !== need[i]);
  return differs < 0 || have[differs] > need[differs];
})();

describe('the MCP Bundle', () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-mcp-bundle-test-'));
  const bundle = join(work, 'svc-mcp.mcpb');
  const unpacked = join(work, 'unpacked');

  beforeAll(() => {
    execFileSync(process.execPath, ['tools/bundle.mjs', '--out', bundle], { cwd: REPO_ROOT, stdio: 'pipe' });
    execFileSync(process.execPath, [MCPB, 'unpack', bundle, unpacked], { stdio: 'pipe' });
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is under 5 MB, validates, and carries no development files', () => {
    expect(statSync(bundle).size).toBeLessThan(5 * 1024 * 1024);
    const validated = execFileSync(process.execPath, [MCPB, 'validate', join(unpacked, 'manifest.json')], {
      encoding: 'utf8',
    });
    expect(validated).toMatch(/validation passes/i);
    const listing = execFileSync(process.execPath, [MCPB, 'info', bundle], { encoding: 'utf8' });
    record('mcpb info', listing);
    for (const dev of [
      'typescript',
      'vitest',
      '@biomejs',
      '@anthropic-ai/mcpb',
      '@modelcontextprotocol/sdk',
      'better-sqlite3',
    ]) {
      expect(() => statSync(join(unpacked, 'node_modules', dev)), dev).toThrow();
    }
    expect(() => statSync(join(unpacked, 'src'))).toThrow();
    expect(() => statSync(join(unpacked, 'test'))).toThrow();
    expect(statSync(join(unpacked, 'icon.png')).size).toBeGreaterThan(0);
  });

  /** How a desktop host starts the bundle: the manifest's command, args and env, placeholders filled as a host fills them. */
  function hostCommand() {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    const config = manifest.server.mcp_config as {
      command: string;
      args: string[];
      env: Record<string, string>;
    };
    // The host replaces ${__dirname}; settings the user left empty stay as ${user_config.…}.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's own placeholder, not a template
    const args = config.args.map((a) => a.replace('${__dirname}', unpacked));
    expect(Object.values(config.env).every((v) => /^\$\{user_config\.[a-z_]+\}$/.test(v))).toBe(true);
    return {
      manifest,
      command: config.command === 'node' ? process.execPath : config.command,
      args,
      env: { PATH: process.env.PATH ?? '', ...config.env, SVC_STATE_DIR: join(work, 'state') },
    };
  }

  it.runIf(admitted)('starts as a desktop host starts it, with unfilled settings, and answers', async () => {
    const { manifest, command, args, env } = hostCommand();
    const transport = new StdioClientTransport({ command, args, env, cwd: tmpdir(), stderr: 'pipe' });
    const client = new Client({ name: 'desktop-host', version: '0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('get_fear_and_greed_latest');
      // The manifest lists every tool; the default settings expose the default ones among them.
      const listed = new Set(manifest.tools.map((t: { name: string }) => t.name));
      expect(tools.filter((t) => !listed.has(t.name))).toEqual([]);
      const result = await client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect((result.content as { text: string }[])[0].text).toMatch(/^Fear & Greed \d+ – /);
    } finally {
      await client.close();
    }
  });

  it.skipIf(admitted)(
    'on a Node its manifest does not admit, says in one line what it needs (exit 2)',
    () => {
      const { command, args, env } = hostCommand();
      const run = spawnSync(command, args, { env, cwd: tmpdir(), encoding: 'utf8', input: '' });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /^svc-mcp: the credit ledger needs SQLite: Node [\d.]+ has no node:sqlite .*\n$/,
      );
    },
  );
});
