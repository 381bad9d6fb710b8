/**
 * Mistakes a person makes at the command line: each is one line on stderr that names what was wrong
 * and what is allowed, with exit code 2 and no stack trace.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';

async function mistake(args: string[], message: string | RegExp, env: Record<string, string> = {}) {
  const run = await runCli(args, env);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n'), 'every line the CLI writes ends with a newline').toBe(true);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  if (typeof message === 'string') expect(lines[0]).toBe(message);
  else expect(lines[0]).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  return run;
}

describe('one-line errors, exit 2', () => {
  it('call with no tool, an unknown tool, an unknown option, bad JSON', async () => {
    await mistake(
      ['call'],
      'svc-mcp: call needs a tool name: svc-mcp call TOOL [JSON-ARGS]; `svc-mcp tools` lists them',
    );
    await mistake(
      ['call', 'get_nothing'],
      'svc-mcp: Unknown tool "get_nothing". `svc-mcp tools` lists them.',
    );
    await mistake(['call', '--bogus'], 'svc-mcp: call has no option --bogus; it takes --json');
    await mistake(
      ['call', 'get_fear_and_greed_latest', '{limit: 5}'],
      /^svc-mcp: JSON-ARGS must be a JSON object/,
    );
    await mistake(['tools', 'extra'], 'svc-mcp: tools takes no arguments; it takes --json');
  });

  it('a refused call: its one line on stderr, ending with a newline, exit 1', async () => {
    const run = await runCli(['call', 'get_cryptocurrency_quotes_latest', '{"symbl": "BTC"}']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'Unknown parameter "symbl": did you mean "symbol"? This tool takes: id, slug, symbol, convert, convert_id, skip_invalid, cursor, format.\n',
    );
  });

  it('sandbox --now not a date, a bad --port, and a port in use', async () => {
    await mistake(
      ['sandbox', '--now', 'notadate'],
      'svc-mcp: --now must be an ISO 8601 instant such as 2026-11-22T12:00:00Z (got "notadate")',
    );
    await mistake(['sandbox', '--port', '99999'], 'svc-mcp: --port must be 0 to 65535 (got "99999")');
    await mistake(
      ['sandbox', '--port', '-1'],
      'svc-mcp: --port needs a value; a value starting with a dash is written --port=-1',
    );
    await mistake(['sandbox', '--port=-1'], 'svc-mcp: --port must be 0 to 65535 (got "-1")');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await mistake(
        ['sandbox', '--port', String(port)],
        `svc-mcp: port ${port} is in use; choose another with --port (0 picks a free one)`,
      );
    } finally {
      taken.close();
    }
  });

  it('SVC_BASE_URL without SVC_API_KEY, where no caller brings a key: on stdio, for call and for demo', async () => {
    const env = { SVC_BASE_URL: 'http://127.0.0.1:1' };
    const rest =
      'when SVC_BASE_URL is set: a key is needed to call the service (leave both unset to use the built-in sandbox).';
    await mistake([], `svc-mcp: SVC_API_KEY is required on stdio ${rest}`, env);
    await mistake(
      ['call', 'get_fear_and_greed_latest'],
      `svc-mcp: SVC_API_KEY is required by svc-mcp call ${rest}`,
      env,
    );
    await mistake(['demo'], `svc-mcp: SVC_API_KEY is required by svc-mcp demo ${rest}`, env);
  });

  it('svc-mcp http: a port in use, beyond loopback without a token, a short token, a bad --host or --port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await mistake(
        ['http', '--port', String(port)],
        new RegExp(`^svc-mcp: Cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is in use`),
      );
    } finally {
      taken.close();
    }
    await mistake(
      ['http', '--host', '0.0.0.0', '--port', '0'],
      /Refusing to listen on 0\.0\.0\.0 without SVC_HTTP_TOKEN: .* or listen on 127\.0\.0\.1\.$/,
    );
    const short = await mistake(
      ['http', '--host', '0.0.0.0', '--port', '0'],
      /SVC_HTTP_TOKEN must be 16 to 512 printable ASCII characters/,
      { SVC_HTTP_TOKEN: 'abc123' },
    );
    expect(short.stderr).not.toContain('abc123');
    await mistake(['http', '--host', 'two words'], /--host must be a host name or an IP address/);
    await mistake(['http', '--port', '70000'], /--port must be 0 to 65535/);
  });

  it('a setting out of range repeats the value and says what is allowed', async () => {
    await mistake(
      ['tools'],
      'svc-mcp: SVC_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000 (got "soon").',
      { SVC_TIMEOUT_MS: 'soon' },
    );
  });
});

describe('help', () => {
  it('every command has its own usage with --help, exit 0', async () => {
    for (const command of ['stdio', 'http', 'sandbox', 'call', 'tools', 'demo']) {
      const run = await runCli([command, '--help']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toMatch(new RegExp(`^Usage:\\n  svc-mcp (\\[)?${command}`));
    }
  });
});

describe('a reader that goes away', () => {
  it('demo | head: exit 0 and no EPIPE trace', async () => {
    const proc = spawnCli(['demo']);
    // Read the first line, then stop reading, as `head -1` would.
    await new Promise<void>((resolve) => proc.child.stdout?.once('data', () => resolve()));
    proc.child.stdout?.destroy();
    const { code } = await proc.exited;
    expect(code).toBe(0);
    expect(proc.stderr()).not.toMatch(/EPIPE|\n\s+at /);
  });
});
