/**
 * run_script's calls, through a real MCP client against the server built here and the sandbox on
 * loopback, counting what reached it: the same figures as the direct calls, charged their sum; a
 * cap that stops the call past it, catchably; the ledger booking each call to its tool and the
 * script as a call; declarations generated from the tools; errors a model can act on; the price
 * estimate_cost and the person's confirmation see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess, startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

type Script = { result: unknown; logs: string[]; calls: number; credits: number; note?: string };

let sandbox: Sandbox;
let mcp: InProcessSession;
const env = (more: Record<string, string> = {}) =>
  sandboxEnv(sandbox, 'sandbox-enterprise', {
    SVC_NOW: NOW,
    SVC_CACHE: 'off',
    SVC_STATE_DIR: newStateDir(),
    ...more,
  });

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(env());
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

const run = (args: Record<string, unknown>, session: InProcessSession = mcp) =>
  session.call('run_script', { format: 'json', ...args });
const scriptOf = (result: { structuredContent?: unknown }) => result.structuredContent as Script;
const credits = (result: { _meta?: unknown }) => (result._meta as { credits: number }).credits;

describe('a script of tool calls', () => {
  it('returns the same figures as the direct calls, and is charged their sum', async () => {
    const direct = await Promise.all([
      mcp.call('get_fear_and_greed_latest', { format: 'json' }),
      mcp.call('get_global_metrics_latest', { format: 'json' }),
    ]);
    const before = sandbox.stats.requests;
    const result = await run({
      code: `const [fear, metrics] = await Promise.all([
        tools.get_fear_and_greed_latest(),
        tools.get_global_metrics_latest({}),
      ]);
      return { fear, metrics };`,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(scriptOf(result).result).toEqual({
      fear: direct[0]?.structuredContent,
      metrics: direct[1]?.structuredContent,
    });
    expect(sandbox.stats.requests - before).toBe(2);
    const sum = credits(direct[0] ?? {}) + credits(direct[1] ?? {});
    expect(credits(result)).toBe(sum);
    expect(scriptOf(result)).toMatchObject({ calls: 2, credits: sum });
  });

  it("a list's call gives every row asked for, where a direct call gives pages", async () => {
    type Page = { items: unknown[]; next?: Record<string, unknown> };
    let page = (await mcp.call('get_cryptocurrency_listings_latest', { limit: 300, format: 'json' }))
      .structuredContent as Page;
    let rows = page.items.length;
    let pages = 1;
    while (page.next) {
      page = (await mcp.call('get_cryptocurrency_listings_latest', page.next)).structuredContent as Page;
      rows += page.items.length;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    const result = await run({
      code: 'const list = await tools.get_cryptocurrency_listings_latest({ limit: 300 }); return list.items.length;',
    });
    expect(scriptOf(result).result).toBe(rows);
  });

  it("a list's rows are kept as a table, which the script and later calls query, free", async () => {
    const result = await run({
      code: `const list = await tools.get_cryptocurrency_listings_latest({ limit: 30 });
      const { rows } = await query(\`SELECT count(*), max(quote_usd_price) FROM \${list.kept.table}\`);
      const top = Math.max(...list.items.map((asset) => asset.quote[0].price));
      return { table: list.kept.table, kept: list.kept.rows, counted: rows[0][0], max: rows[0][1], top };`,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { table, kept, counted, max, top } = scriptOf(result).result as Record<string, number | string>;
    expect([kept, counted, max]).toEqual([30, 30, top]);
    const before = sandbox.stats.requests;
    const direct = await mcp.call('query_data', { sql: `SELECT count(*) FROM ${table}`, format: 'json' });
    expect((direct.structuredContent as { rows: unknown[][] }).rows).toEqual([[30]]);
    expect(credits(direct)).toBe(0);
    expect(sandbox.stats.requests).toBe(before);
  });

  it('a cap of 2 stops the third one-credit call before it is sent, and the script can catch it', async () => {
    const before = sandbox.stats.requests;
    const result = await run({
      max_credits: 2,
      code: `let got = 0;
      for (let i = 0; i < 3; i++) {
        try { await tools.get_fear_and_greed_latest(); got++; }
        catch (error) { return { got, refused: error.message }; }
      }
      return { got };`,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { result: value } = scriptOf(result) as { result: { got: number; refused: string } };
    expect(value.got).toBe(2);
    expect(value.refused).toMatch(
      /^Refused before sending: this call is estimated at 1 credit, and the script has spent 2 of its max_credits of 2\. Nothing was charged for it\.$/,
    );
    expect(credits(result)).toBe(2);
    expect(sandbox.stats.requests - before).toBe(2);
  });

  it('a script that fails after paid calls says what they were charged, not that they may have been', async () => {
    const result = await run({
      max_credits: 2,
      code: 'for (let i = 0; i < 3; i++) await tools.get_fear_and_greed_latest(); return 1;',
    });
    expect(result.isError).toBe(true);
    expect(credits(result)).toBe(2);
    expect(textOf(result).split('\n').slice(1)).toEqual([
      '3 calls, 2 credits.',
      '2 credits charged, for the requests the call sent before it ended: the service charges a request that reaches it, answered or not.',
    ]);
  });

  it('get_credit_usage books each call to its tool and counts the script as a call', async () => {
    const session = await startMcp(env());
    try {
      await run(
        { code: 'await tools.get_fear_and_greed_latest(); await query("SELECT 1"); return 1;' },
        session,
      );
      const usage = await session.call('get_credit_usage', { format: 'json' });
      const byTool = (
        usage.structuredContent as { by_tool: Record<string, { calls: number; credits: number }> }
      ).by_tool;
      expect(byTool.get_fear_and_greed_latest).toMatchObject({ calls: 1, credits: 1 });
      expect(byTool.run_script).toMatchObject({ calls: 1, credits: 0 });
      expect(byTool.query_data).toMatchObject({ calls: 1, credits: 0 });
    } finally {
      await session.close();
    }
  });

  it('a refusal inside reads as the tool gives it directly', async () => {
    const direct = await mcp.call('get_fear_and_greed_historical', { limit: -1 });
    const result = await run({
      code: 'try { await tools.get_fear_and_greed_historical({ limit: -1 }); } catch (e) { return e.message; }',
    });
    expect(scriptOf(result).result).toBe(textOf(direct));
  });

  it("takes the ids of one tool's data in another's call: numbers, and lists of them", async () => {
    const sandboxBefore = sandbox.stats.requests;
    const result = await run({
      code: `const l = await tools.get_cryptocurrency_listings_latest({ limit: 3 });
        const ids = l.items.map((a) => a.id);
        const one = await tools.get_cryptocurrency_quotes_latest({ id: ids[0] });
        const all = await tools.get_cryptocurrency_quotes_latest({ id: ids, convert_id: 2790 });
        return [ids, one.items.map((a) => a.id), all.items.map((a) => a.id), all.items[0].quote[0].currency];`,
    });
    const [ids, one, all, currency] = scriptOf(result).result as [number[], number[], number[], string];
    expect(ids).toHaveLength(3);
    expect(one).toEqual([ids[0]]);
    expect(all).toEqual(ids);
    expect(currency).toBe('2790');
    expect(sandbox.stats.requests - sandboxBefore).toBe(3);
  });

  it('a value that is not a whole number or a list of them is refused where text is taken', async () => {
    const result = await run({
      code: `const tries = [{ id: 1.5 }, { id: [1, { a: 1 }] }, { id: true }, JSON.parse('{"__proto__": {"id": "1"}}')];
        const out = [];
        for (const args of tries) {
          try { await tools.get_cryptocurrency_quotes_latest(args); out.push('sent'); } catch (e) { out.push(e.message); }
        }
        return out;`,
    });
    const messages = scriptOf(result).result as string[];
    expect(messages[0]).toMatch(/^Invalid value for "id": 1.5 is a number; it takes text/);
    expect(messages[1]).toMatch(/^Invalid value for "id": .*list/);
    expect(messages[2]).toMatch(/^Invalid value for "id": /);
    expect(messages[3]).toMatch(/^Unknown parameter "__proto__"/);
    expect(scriptOf(result).calls).toBe(4);
    expect(scriptOf(result).credits).toBe(0);
  });
});

describe('how a script ends', () => {
  it('cancelled with a call in flight: the ledger holds what reached the service, and nothing more', async () => {
    const session = await startMcp(env());
    const path = '/v3/fear-and-greed/latest';
    sandbox.faults.clear();
    sandbox.faults.add({ path, kind: 'delay', ms: 1_500, count: 1 });
    const before = sandbox.stats.byPath.get(path) ?? 0;
    try {
      const cancel = new AbortController();
      const call = session.call(
        'run_script',
        {
          code: 'await tools.get_fear_and_greed_latest(); await tools.get_fear_and_greed_latest(); return 1;',
        },
        { signal: cancel.signal },
      );
      // Cancelled once its first request reached the service (it answers 1.5 s later), however
      // long the script's thread took to start on a busy machine.
      await until(() => (sandbox.stats.byPath.get(path) ?? 0) > before);
      cancel.abort();
      await expect(call).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const sent = (sandbox.stats.byPath.get(path) ?? 0) - before;
      expect(sent).toBe(1);
      const usage = await session.call('get_credit_usage', { format: 'json' });
      expect(usage.structuredContent).toMatchObject({ spent: sent, reserved: 0 });
    } finally {
      await session.close();
    }
  });

  it('past its deadline with a call in flight: stopped then, the request cut and charged as sent', async () => {
    const session = await startMcp(env({ SVC_SCRIPT_TIMEOUT_MS: '1000' }));
    const path = '/v3/fear-and-greed/latest';
    sandbox.faults.clear();
    sandbox.faults.add({ path, kind: 'delay', ms: 5_000, count: 1 });
    const before = sandbox.stats.byPath.get(path) ?? 0;
    try {
      const started = performance.now();
      const result = await run({ code: 'await tools.get_fear_and_greed_latest(); return 1;' }, session);
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(textOf(result)).toMatch(/^The script was stopped at its deadline/);
      const sent = (sandbox.stats.byPath.get(path) ?? 0) - before;
      expect(sent).toBe(1);
      expect(credits(result)).toBe(sent);
      const usage = await session.call('get_credit_usage', { format: 'json' });
      expect(usage.structuredContent).toMatchObject({ spent: sent, reserved: 0 });
    } finally {
      await session.close();
    }
  });

  it('at its deadline, calls in flight are cut and calls waiting for a turn are never sent', async () => {
    const session = await startMcp(env({ SVC_SCRIPT_TIMEOUT_MS: '1000' }));
    const path = '/v3/cryptocurrency/quotes/latest';
    sandbox.faults.clear();
    // Eight answer half a second past the deadline: a ninth waiting for a turn would then be sent.
    sandbox.faults.add({ path, kind: 'delay', ms: 1_500, count: 8 });
    const before = sandbox.stats.byPath.get(path) ?? 0;
    try {
      // Nine different calls at once: eight in flight (a script's most), the ninth waiting.
      const code =
        "const symbols = ['BTC', 'LTC', 'XRP', 'DOGE', 'DASH', 'XMR', 'XLM', 'USDT', 'ETH'];\n" +
        'await Promise.all(symbols.map((symbol) => tools.get_cryptocurrency_quotes_latest({ symbol }))); return 1;';
      const result = await run({ code }, session);
      expect(textOf(result)).toMatch(/^The script was stopped at its deadline/);
      const sent = (sandbox.stats.byPath.get(path) ?? 0) - before;
      expect(sent).toBe(8);
      expect(credits(result)).toBe(sent);
    } finally {
      sandbox.faults.clear();
      await session.close();
    }
  });

  it('a return value past its bound is left out, with a note that says how to return less', async () => {
    const result = await run({ code: 'return "x".repeat(200000);' });
    expect(result.isError).toBeFalsy();
    expect(scriptOf(result).result).toBeNull();
    expect(scriptOf(result).note).toMatch(
      /^The return value is 200,002 characters of JSON, over 100,000: return less/,
    );
  });

  it('a return value nested past 64 levels is left out, with a note, in JSON and in text', async () => {
    const code = 'let x = [];\nfor (let i = 0; i < 8000; i++) x = [x];\nreturn x;';
    const result = await run({ code });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(scriptOf(result).result).toBeNull();
    expect(scriptOf(result).note).toBe(
      'The return value nests arrays and objects more than 64 levels deep: return something flatter.',
    );
    const text = await mcp.call('run_script', { code });
    expect(textOf(text)).toMatch(/^Script ran: 0 calls, 0 credits\.\nResult: null\nThe return value nests/);
  });

  it('its cap is never above what is left of the budget', async () => {
    const session = await startMcp(env({ SVC_CREDIT_BUDGET: '3' }));
    try {
      const estimate = await session.call('estimate_cost', {
        format: 'json',
        calls: [{ tool: 'run_script', arguments: { code: 'return 1' } }],
      });
      expect((estimate.structuredContent as { calls: { credits: number }[] }).calls[0]?.credits).toBe(3);
      const over = await run({ code: 'return 1', max_credits: 4 }, session);
      expect(textOf(over)).toMatch(
        /^Refused before sending: this call is estimated at 4 credits, but 3 credits/,
      );
    } finally {
      await session.close();
    }
  });
});

describe('what a script can call', () => {
  it('is declared from the tools, free: a resource, and the declarations of named tools', async () => {
    const { contents } = await mcp.client.readResource({ uri: 'svc://scripts/declarations' });
    const text = (contents[0] as { text: string }).text;
    expect(text).toContain(
      'tools.get_fear_and_greed_latest(args?: {}): Promise<{ value: number; value_classification: string; update_time?: string }>;',
    );
    expect(text).not.toContain('tools.run_script(');
    const named = await run({ declarations: ['get_fear_and_greed_latest'] });
    expect(credits(named)).toBe(0);
    expect(scriptOf(named)).toMatchObject({ calls: 0, credits: 0 });
    expect((named.structuredContent as { declarations: string }).declarations.split('\n')).toHaveLength(4);
    const unknown = await run({ declarations: ['get_fear_and_greed'] });
    expect(textOf(unknown)).toMatch(/^No tool a script can call is named get_fear_and_greed\./);
  });

  it('an unknown function answers did you mean; a syntax error gives its line and column', async () => {
    const unknown = await run({ code: 'return await tools.get_fear_and_greed_lates();' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(
      /^The script failed at line 1, column \d+: Error: Unknown tool "get_fear_and_greed_lates"\. Did you mean get_fear_and_greed_latest/,
    );
    const syntax = await run({ code: 'const a = 1;\nreturn a +* 2;' });
    expect(textOf(syntax)).toMatch(/^SyntaxError at line 2, column \d+: /);
    // Left open to its end, a script is not told of a line it does not have.
    for (const code of ['return (', 'const a = [1,\n2', 'if (true) {\n  return 1;']) {
      expect(textOf(await run({ code })), code).toMatch(
        /^SyntaxError at the end of the script: something it opens is not closed \(a bracket, a brace, a string or an expression\)\.\n/,
      );
    }
    const typed = await run({ code: 'const a: number = 1;\nreturn a;' });
    expect(textOf(typed)).toMatch(
      /TypeScript is not taken: write plain JavaScript, without type annotations\./,
    );
    const none = await run({});
    expect(textOf(none)).toMatch(/^Give code \(the script to run\), or declarations \(tool names\)\./);
    const nested = await run({ code: 'return await tools.run_script({ code: "return 1" });' });
    expect(textOf(nested)).toContain('A script cannot run a script.');
  });
});

describe('the price of a script', () => {
  it('estimate_cost prices it at its max_credits, and the per-call limit by default', async () => {
    const estimate = await mcp.call('estimate_cost', {
      format: 'json',
      calls: [
        { tool: 'run_script', arguments: { code: 'return 1', max_credits: 7 } },
        { tool: 'run_script', arguments: { code: 'return 1' } },
      ],
    });
    const calls = (estimate.structuredContent as { calls: { credits: number }[] }).calls;
    expect(calls.map((c) => c.credits)).toEqual([7, 25]);
  });

  it('whose cap reaches the confirmation threshold asks the person once, for the cap', async () => {
    const asked: string[] = [];
    const session = await openInProcess(env({ SVC_CONFIRM_CREDITS: '3' }), 'v2', (message) => {
      asked.push(message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const result = await run(
        {
          max_credits: 5,
          code: 'await tools.get_fear_and_greed_latest(); await tools.get_global_metrics_latest(); return 1;',
        },
        session,
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^Run a script: this call is estimated at 5 credits\./);
      const small = await run({ max_credits: 2, code: 'return 1;' }, session);
      expect(small.isError).toBeFalsy();
      expect(asked).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});
