/**
 * The generated pages follow what generates them (the endpoints' table, the settings table, the benchmarks'
 * results), and the manifest and server.json are valid.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.js';

const run = promisify(execFile);
const root = REPO_ROOT;

describe('generated docs', () => {
  it("the README's tool list, docs/tools.md, docs/settings.md, docs/performance.md, manifest.json and server.json are as generated", async () => {
    const { stdout } = await run(process.execPath, ['scripts/gen-docs.mjs', '--check'], { cwd: root });
    expect(stdout).toContain('match the tools');
  });

  it('server.json validates against the MCP Registry schema of 2025-12-11 (a copy in schemas/), with its title, icon, repository, every setting and the HTTP form', () => {
    const schema = JSON.parse(readFileSync(`${root}schemas/server.schema.json`, 'utf8'));
    const server = JSON.parse(readFileSync(`${root}server.json`, 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
    (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(server), JSON.stringify(validate.errors)).toBe(true);
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(server.version).toBe(pkg.version);
    expect(server.packages[0]).toMatchObject({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
    });
    const variables = server.packages[0].environmentVariables;
    expect(variables.map((v: { name: string }) => v.name)).toContain('SVC_API_KEY');
    expect(variables.find((v: { name: string }) => v.name === 'SVC_API_KEY')).toMatchObject({
      isSecret: true,
    });
    expect(schema.$id).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(server.$schema).toBe(schema.$id);
    expect(server.title).toBe('Market Data Service');
    expect(server.icons).toEqual([
      { src: expect.stringMatching(/^data:image\/svg\+xml,/), mimeType: 'image/svg+xml', sizes: ['any'] },
    ]);
    expect(server.repository).toEqual({ url: 'https://github.com/svc-mcp/svc-mcp', source: 'github' });
    expect(server.remotes[0]).toMatchObject({ type: 'streamable-http', url: 'https://{host}/mcp' });
    // A broken entry fails: the schema copy is not a pass-everything stub.
    expect(validate({ ...server, name: 'no-slash' })).toBe(false);
    expect(validate({ ...server, icons: [{ src: `data:image/svg+xml,${'x'.repeat(300)}` }] })).toBe(false);
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
