/**
 * The CLI's one-shot commands (call, demo) on the Node that runs them, the stdio server's clean exit,
 * and Node's compile cache.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTROLS, newStateDir, REPO_ROOT, runCli, spawnCli } from '../helpers/cli.js';
import { startFakeUpstream } from '../helpers/fake-upstream.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { DEFAULT_TOOLS } from '../helpers/tool-names.js';

const VERSION = JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, 'utf8')).version as string;
const FEAR_AND_GREED_LINE = /^Fear & Greed \d{1,3} – (Extreme Fear|Fear|Neutral|Greed|Extreme Greed)$/;

describe('svc-mcp call', () => {
  it('prints the text answer on stdout and exits 0', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_latest']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(FEAR_AND_GREED_LINE);
    expect(lines.at(-1)).toBe('1 credit · sandbox data');
    expect(run.stderr).toBe('');
  });

  it("one call's next page, in another process, comes free from the result the first kept", async () => {
    // Text pages of 2,000 characters: the first of the 50 rows asked for carries a cursor.
    const env = { SVC_STATE_DIR: newStateDir(), SVC_CACHE: 'off', SVC_TEXT_PAGE_CHARS: '2000' };
    const first = await runCli(['call', 'get_cryptocurrency_map', '{"limit": 50}'], env);
    const line = first.stdout.split('\n').find((l) => l.startsWith('Next page: '));
    expect(line, first.stdout).toBeDefined();
    const second = await runCli(
      ['call', 'get_cryptocurrency_map', line?.slice('Next page: '.length) ?? ''],
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    const shown = /^Rows 1–(\d+) of 50/m.exec(first.stdout)?.[1];
    expect(second.stdout).toMatch(new RegExp(`^\\d+ cryptocurrencies from start=${Number(shown) + 1}`));
    expect(second.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^from the kept result of the call that paid for it, 0 credits · \d+ s old · sandbox data$/,
    );
  });

  it("the embedded sandbox's key info agrees with the ledger across restarts", async () => {
    const env = { SVC_STATE_DIR: newStateDir(), SVC_CACHE: 'off' };
    for (let i = 0; i < 2; i++)
      expect((await runCli(['call', 'get_fear_and_greed_latest'], env)).code).toBe(0);
    const info = await runCli(['call', 'get_key_info'], env);
    expect(info.stdout).toMatch(/^Today: 2 used, /m);
    expect(info.stdout).toMatch(/^This server's budget \(day\): no budget set, 2 spent,/m);
  });

  it('a reader that goes away before the answer: exit 0, and the charge is kept all the same', async () => {
    const env = { SVC_STATE_DIR: newStateDir(), SVC_CACHE: 'off' };
    // Nothing reads the answer: writing it fails (EPIPE) and the process ends at once, before it
    // has closed the embedded sandbox.
    const proc = spawnCli(['call', 'get_fear_and_greed_latest'], env);
    proc.child.stdout?.destroy();
    expect((await proc.exited).code).toBe(0);
    const info = await runCli(['call', 'get_key_info'], env);
    expect(info.stdout).toMatch(/^Today: 1 used, /m);
  });

  it('passes JSON arguments through', async () => {
    const run = await runCli(['call', 'get_cryptocurrency_listings_latest', '{"limit": 3}']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Cryptocurrencies 1–3 by market_cap/);
    expect(run.stdout).toContain('Bitcoin (BTC)');
  });

  it('format=json prints one JSON text that parses whole, without the sandbox line', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_latest', '{"format":"json"}']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('sandbox data');
    expect(JSON.parse(run.stdout)).toMatchObject({ value: expect.any(Number) });
  });

  it('--json prints the structured data as JSON', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_latest', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout);
    expect(Object.keys(data).sort()).toEqual(['update_time', 'value', 'value_classification']);
    expect(data.value).toBeGreaterThanOrEqual(0);
    expect(data.value).toBeLessThanOrEqual(100);
  });

  it("prints a third party's control characters as spaces in text, escaped with --json", async () => {
    // A terminal would take them as commands: ESC starts a clipboard write and a clear, CSI too.
    const name = 'Moon\u001b]52;c;ZWNobyBoaQ==\u0007\u001b[2J\u009b31m\u007f\u2028';
    const upstream = await startFakeUpstream();
    upstream.reply('/v1/community/trending/token', {
      body: {
        status: { error_code: '0', error_message: '', credit_count: 1 },
        data: [{ rank: 1, id: 1, name, symbol: 'MOON', slug: 'moon', market_cap_rank: 1 }],
      },
    });
    try {
      const env = { SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: upstream.url, SVC_STATE_DIR: newStateDir() };
      const text = await runCli(['call', 'get_trending_community_tokens'], env);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('Moon ]52;c;ZWNobyBoaQ== [2J 31m');
      const json = await runCli(['call', 'get_trending_community_tokens', '--json'], env);
      expect(json.code, json.stderr).toBe(0);
      for (const printed of [text.stdout, json.stdout]) expect(printed).not.toMatch(CONTROLS);
      expect(JSON.parse(json.stdout)).toMatchObject({ items: [{ name }] });
    } finally {
      await upstream.close();
    }
  });

  it('--json with arguments', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_historical', '{"limit":4}', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout);
    expect(data.start).toBe(1);
    expect(data.items).toHaveLength(4);
  });

  it('a refused argument: exit 1, the message names the parameter and its bounds, nothing on stdout', async () => {
    const run = await runCli(['call', 'get_fear_and_greed_historical', '{"limit": 501}']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/"limit"/);
    expect(run.stderr).toMatch(/500/);
  });

  it('the quotes tool with no arguments says one of id, slug or symbol is needed', async () => {
    const run = await runCli(['call', 'get_cryptocurrency_quotes_latest']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('Missing parameter: one of "id", "slug" or "symbol" is required.');
  });

  it('an upstream failure: exit 1 with the error result on stderr', async () => {
    // Nothing listens on port 9 of loopback: a network error after the bounded retries.
    const run = await runCli(['call', 'get_fear_and_greed_latest'], {
      SVC_API_KEY: 'sandbox-enterprise',
      SVC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/could not be reached|connection/i);
    expect(run.stderr).toMatch(/SVC_BASE_URL/);
  });
});

describe('svc-mcp demo', () => {
  it('runs a client session and prints several answers', async () => {
    const run = await runCli(['demo']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Connected to svc-mcp ${VERSION.replaceAll('.', '\\.')} \\(protocol 2026-07-28\\): ${DEFAULT_TOOLS.length} tools`,
      ),
    );
    const calls = run.stdout.match(/^> \w+ /gm) ?? [];
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expect(run.stdout).toMatch(/^> get_fear_and_greed_latest \{\}\nFear & Greed \d{1,3} – /m);
    expect(run.stdout).toContain('· sandbox data');
    expect(run.stdout).not.toMatch(/isError|Error:/);
  });

  it('exits 1 when no call is answered (a budget of 0 refuses every one), saying so', async () => {
    const run = await runCli(['demo'], { SVC_CREDIT_BUDGET: '0' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Refused before sending/);
    expect(run.stderr).toMatch(/^svc-mcp: none of the \d+ calls was answered/m);
  });
});

describe('svc-mcp stdio', () => {
  it('exits with code 0 when stdin closes', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner; stderr: ${proc.stderr()}`)), 10_000);
      proc.child.stderr?.on('data', () => {
        if (proc.stderr().includes('tools')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const started = performance.now();
    proc.child.stdin?.end();
    const exit = await proc.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(proc.stdout()).toBe('');
  });

  it('answers a call still in flight when stdin ends, then exits 0', async () => {
    const upstream = await startFakeUpstream();
    upstream.reply('/v3/fear-and-greed/latest', {
      delayMs: 800,
      body: {
        status: { error_code: 0, error_message: null, credit_count: 1 },
        data: { value: 51, value_classification: 'Neutral', update_time: '2026-11-22T12:00:00.000Z' },
      },
    });
    try {
      const proc = spawnCli(['stdio'], { SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: upstream.url }, 'pipe');
      const messages = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '0' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'get_fear_and_greed_latest', arguments: {} },
        },
      ];
      proc.child.stdin?.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      const answers = proc
        .stdout()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      const call = answers.find((m) => m.id === 2);
      expect(call?.result?.content?.[0]?.text).toMatch(/^Fear & Greed 51 – Neutral/);
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  });
});

describe("Node's compile cache", () => {
  const nodeHasOne = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

  it('is written for the next start on a Node that has one (22.1 and later), and not on Node 20', async () => {
    // Where NODE_COMPILE_CACHE is not set, Node keeps it in the system's temporary directory.
    const temp = mkdtempSync(join(tmpdir(), 'svc-mcp-compile-cache-'));
    try {
      const run = await runCli(['tools'], { TMPDIR: temp });
      expect(run.code, run.stderr).toBe(0);
      const cache = join(temp, 'node-compile-cache');
      if (nodeHasOne) expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
      else expect(existsSync(cache)).toBe(false);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
