/** The generated docs and the bundle manifest follow the catalog, and the manifest is a valid MCP Bundle. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

describe('generated docs', () => {
  it('README tool and settings tables and manifest.json match the catalog', async () => {
    const { stdout } = await run(process.execPath, ['tools/gen-docs.mjs', '--check'], { cwd: root });
    expect(stdout).toContain('match the catalog');
  });

  it('manifest.json passes mcpb validate and lists every tool (SVC_TOOLSETS=all) with the key as a sensitive setting', async () => {
    const { stdout } = await run(`${root}node_modules/.bin/mcpb`, ['validate', 'manifest.json'], {
      cwd: root,
    });
    expect(stdout).toMatch(/validation passes/i);
    const manifest = JSON.parse(readFileSync(`${root}manifest.json`, 'utf8'));
    expect(manifest.manifest_version).toBe('0.3');
    expect(manifest.user_config.api_key).toMatchObject({ sensitive: true, required: false });
    const { stdout: listed } = await run(process.execPath, ['dist/cli.js', 'tools', '--json'], {
      cwd: root,
      env: { PATH: process.env.PATH, SVC_TOOLSETS: 'all' },
    });
    const names = JSON.parse(listed).map((t: { name: string }) => t.name);
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual(names);
  });
});
