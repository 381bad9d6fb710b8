/**
 * The desktop bundle as a person gets it: `npm run bundle` builds it from a production-only install,
 * it stays under 5 MB and passes `mcpb validate`, and unpacked into an empty directory it starts the
 * way a desktop host starts it (the manifest's command, args and env, with every placeholder the
 * user left empty still in place), lists its tools and answers a call.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { record } from '../helpers/recorder.js';

const MCPB = join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

describe('the MCP Bundle', () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-mcp-bundle-test-'));
  const bundle = join(work, 'svc-mcp.mcpb');
  const unpacked = join(work, 'unpacked');

  // Not bounded in time: the bundle is built from an install, which takes what it takes on a busy
  // machine; what the tests bound is the bundle starting and answering.
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/bundle.mjs', '--out', bundle], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
    execFileSync(process.execPath, [MCPB, 'unpack', bundle, unpacked], { stdio: 'pipe' });
  }, 0);
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
      // optional, for Node 20 only: a binary packed here would suit this machine alone
      'better-sqlite3',
    ]) {
      expect(() => statSync(join(unpacked, 'node_modules', dev)), dev).toThrow();
    }
    expect(() => statSync(join(unpacked, 'src'))).toThrow();
    expect(() => statSync(join(unpacked, 'test'))).toThrow();
    expect(statSync(join(unpacked, 'icon.png')).size).toBeGreaterThan(0);
  });

  it('starts as a desktop host starts it, with unfilled settings, and answers', async () => {
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
    const transport = new StdioClientTransport({
      command: config.command === 'node' ? process.execPath : config.command,
      args,
      env: { PATH: process.env.PATH ?? '', ...config.env, SVC_STATE_DIR: join(work, 'state') },
      cwd: tmpdir(),
      stderr: 'pipe',
    });
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
      expect((result.content as { text: string }[])[0]!.text).toMatch(/^Fear & Greed \d+ – /);
    } finally {
      await client.close();
    }
  });
});
