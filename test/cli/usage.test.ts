/**
 * The command line's words, whatever Node runs it: the tool list it prints, help, version, and a
 * command or a call written wrong (CI runs these on one Node; test/cli/cli.test.ts starts the CLI on
 * each).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { DEFAULT_TOOLS } from '../helpers/tool-names.js';
import { readToolsnap } from '../helpers/toolsnaps.js';

const VERSION = JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, 'utf8')).version as string;

describe('svc-mcp call, written wrong', () => {
  it('JSON that is not an object: exit 2', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_historical', '[1,2]']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/JSON-ARGS must be a JSON object/);
  });

  it('a mistyped tool: the closest names are suggested', async () => {
    const run = await runCli(['call', 'get_fear_greed']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'svc-mcp: Unknown tool "get_fear_greed". Did you mean get_fear_and_greed_latest or get_fear_and_greed_historical? `svc-mcp tools` lists them.\n',
    );
  });
});

describe('svc-mcp tools', () => {
  it('lists every tool with its toolset and one-line description', async () => {
    const run = await runCli(['tools']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(DEFAULT_TOOLS.length);
    for (const line of lines) expect(line).toMatch(/^[a-z0-9_]+ +[a-z_]+ +\S.{20,}$/);
    expect(lines[0]).toMatch(/^get_global_metrics_latest +global_metrics +Whole crypto market now/);
    expect(lines.find((l) => l.startsWith('get_credit_usage '))).toMatch(/^get_credit_usage +account +/);
  });

  it("--json prints the full definitions, the same as tools/list (each tool's committed file)", async () => {
    const run = await runCli(['tools', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const definitions = JSON.parse(run.stdout) as { name: string }[];
    expect(definitions.map((d) => d.name)).toEqual(DEFAULT_TOOLS);
    for (const definition of definitions) expect(definition).toEqual(readToolsnap(definition.name));
  });

  it('honours SVC_TOOLSETS', async () => {
    const run = await runCli(['tools'], { SVC_TOOLSETS: 'dex' });
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(' ')[0]),
    ).toEqual(['list_dex_platforms', 'get_dex_platform']);
  });
});

describe('help, version, unknown command', () => {
  it('--version prints the package version', async () => {
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(VERSION);
  });

  it('--help lists the commands', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['[stdio]', 'http', 'sandbox', 'call', 'tools', 'demo'])
      expect(run.stdout).toContain(`svc-mcp ${command}`);
  });

  it('an unknown command exits 2 with one line naming the commands', async () => {
    const run = await runCli(['serve']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'svc-mcp: unknown command "serve"; commands: stdio, http, sandbox, call, tools, demo (svc-mcp --help)\n',
    );
  });
});
