/**
 * analyze_assets on the sandbox: every figure matches one recomputed (test/helpers/analysis-reference.ts)
 * from the candles that `source` names, read back through get_ohlcv_historical; the call costs
 * what those candle requests cost, which estimate_cost says first, and the cache serves either for
 * the other; the text stays compact; bad input is refused before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aligned, pearson, referenceFigures, type Series } from '../helpers/analysis-reference.js';
import { creditUsage, firstText, newStateDir, textOf } from '../helpers/cli.js';
import { openSession, startMcp } from '../helpers/in-process.js';
import { NOW, NOW_MS } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { type Answerer, SESSION_KINDS, type Session } from '../helpers/session.js';

const OHLCV = '/v2/cryptocurrency/ohlcv/historical';
const TEN = 'ETH, SOL, XRP, DOGE, ADA, BNB, TRX, LINK, DOT, LTC';

interface Candle {
  time_open: string;
  time_close?: string;
  quote: { currency: string; close?: number }[];
}
interface Analysis {
  interval: string;
  convert: string;
  benchmark: { id: number; symbol: string };
  source: { tool: string; arguments: Record<string, unknown> };
  assets: (Record<string, unknown> & { id: number; symbol: string })[];
  correlations: { a: string; b: string; value: number | null }[];
}

let sandbox: Sandbox;
const sessions: Session[] = [];
const requests = () => sandbox.stats.byPath.get(OHLCV) ?? 0;

/** A server of its own on the sandbox, with a ledger of its own; `extra` settings besides. */
async function server(extra: Record<string, string> = {}): Promise<Session> {
  const mcp = await startMcp(
    sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_NOW: NOW,
      SVC_STATE_DIR: newStateDir(),
      ...extra,
    }),
  );
  sessions.push(mcp);
  return mcp;
}

/** Every candle get_ohlcv_historical gives for `args`, following `next`, and what the pages cost. */
async function candlesOf(mcp: Session, args: Record<string, unknown>) {
  const byId = new Map<number, { symbol: string; candles: Candle[] }>();
  let credits = 0;
  let next: Record<string, unknown> | undefined = args;
  while (next) {
    const result = await mcp.call('get_ohlcv_historical', { ...next, format: 'json' });
    expect(result.isError, firstText(result)).toBeFalsy();
    credits += Number(result._meta?.credits);
    const data = result.structuredContent as {
      items: { id: number; symbol: string; quotes: Candle[] }[];
      next?: Record<string, unknown>;
    };
    for (const item of data.items) {
      const entry = byId.get(item.id) ?? { symbol: item.symbol, candles: [] };
      entry.candles.push(...item.quotes);
      byId.set(item.id, entry);
    }
    next = data.next === undefined ? undefined : { ...data.next, format: undefined };
  }
  return { byId, credits };
}

/** One asset's complete candles (closed by the frozen now), oldest first, once each. */
function seriesOf(candles: Candle[], currency: string): Series {
  const now = NOW_MS;
  const kept = new Map<string, number>();
  for (const c of candles) {
    const close = c.quote.find((q) => q.currency === currency)?.close;
    if (close !== undefined && c.time_close !== undefined && Date.parse(c.time_close) <= now)
      kept.set(c.time_open, close);
  }
  const times = [...kept.keys()].sort();
  return { times, closes: times.map((t) => kept.get(t) as number) };
}

/** Equal, or both null, or within a relative 1e-9: the figures are unrounded. */
function expectSame(actual: unknown, expected: unknown, what: string): void {
  if (expected === null || typeof expected !== 'number') {
    expect(actual, what).toEqual(expected);
    return;
  }
  expect(typeof actual, what).toBe('number');
  expect(Math.abs((actual as number) - expected), what).toBeLessThanOrEqual(
    1e-9 * Math.max(1, Math.abs(expected)),
  );
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sandbox?.close();
});

describe('the figures', () => {
  it('every figure is the one recomputed from the candles that source names', async () => {
    const mcp = await server();
    const result = await mcp.call('analyze_assets', { symbol: 'ETH, SOL', format: 'json' });
    expect(result.isError, firstText(result)).toBeFalsy();
    const data = result.structuredContent as unknown as Analysis;
    expect(data.source.tool).toBe('get_ohlcv_historical');
    expect(data.benchmark).toEqual({ id: 1, symbol: 'BTC' });
    const { byId, credits } = await candlesOf(mcp, data.source.arguments);
    // The candles were the analysis's: read again, they come from the cache.
    expect(credits).toBe(0);
    const series = new Map([...byId].map(([id, e]) => [id, seriesOf(e.candles, data.convert)]));
    const btc = series.get(1) as Series;
    expect(data.assets.map((a) => a.symbol)).toEqual(['ETH', 'SOL']);
    for (const asset of data.assets) {
      const own = series.get(asset.id) as Series;
      expect(own.closes.length, asset.symbol).toBe(90);
      const expected = referenceFigures(own, btc, 365);
      for (const [key, value] of Object.entries(expected)) {
        if (key === 'highest_close' || key === 'lowest_close') {
          expectSame((asset[key] as { close: number }).close, value, `${asset.symbol}.${key}`);
        } else if (value !== null && typeof value === 'object') {
          for (const [inner, v] of Object.entries(value)) {
            expectSame((asset[key] as Record<string, unknown>)[inner], v, `${asset.symbol}.${key}.${inner}`);
          }
        } else {
          expectSame(asset[key], value, `${asset.symbol}.${key}`);
        }
      }
      expect(asset.first).toEqual({ time: own.times[0], close: own.closes[0] });
      expect(asset.last).toEqual({ time: own.times.at(-1), close: own.closes.at(-1) });
    }
    const [eth, sol] = [series.get(1027) as Series, series.get(5426) as Series];
    expect(data.correlations).toHaveLength(1);
    expectSame(data.correlations[0]!.value, pearson(...aligned(eth, sol)), 'ETH/SOL');
  });

  it('hourly candles are annualised over 8,760 hours; a short window leaves the long figures null and says why', async () => {
    const mcp = await server();
    const hourly = await mcp.call('analyze_assets', {
      id: '1027',
      days: 2,
      interval: 'hourly',
      format: 'json',
    });
    const data = hourly.structuredContent as unknown as Analysis;
    expect(data.benchmark).toEqual({ id: 1, symbol: 'BTC' });
    const { byId } = await candlesOf(mcp, data.source.arguments);
    const eth = seriesOf(byId.get(1027)?.candles ?? [], 'USD');
    expect(eth.closes).toHaveLength(48);
    expectSame(
      data.assets[0]!.volatility_pct,
      referenceFigures(eth, eth, 8760).volatility_pct,
      'hourly volatility',
    );

    // Counts past a thousand are grouped, as the kept table's line (the benchmark's candles too) writes them.
    const long = await mcp.call('analyze_assets', { id: '1027', days: 45, interval: 'hourly' });
    expect(firstText(long)).toMatch(
      /^Hourly closes in USD, 1,080 complete candles an asset; against BTC\.$/m,
    );
    expect(firstText(long)).toMatch(/^2,162 candles kept as /m);

    const short = await mcp.call('analyze_assets', { symbol: 'ETH', days: 10 });
    const text = firstText(short);
    expect(short.structuredContent).toMatchObject({
      assets: [{ points: 10, sma: { '20': null, '50': null, '200': null }, macd: null, rsi_14: null }],
    });
    expect(text).toMatch(
      /^Too few closes \(10 an asset\) for SMA200 \(needs 200\), SMA50 \(50\), MACD \(34\), SMA20 and Bollinger %b \(20\), RSI \(15\): not computed \(n\/a, null in json\); a longer window gives them\.$/m,
    );
  });
});

describe('what it costs', () => {
  it('what estimate_cost says, what its one candle request is charged; then free for the candles tool', async () => {
    const mcp = await server();
    const args = { symbol: TEN };
    const planned = await mcp.call('estimate_cost', { calls: [{ tool: 'analyze_assets', arguments: args }] });
    const estimate = (planned.structuredContent as { total: number }).total;
    const before = requests();
    const result = await mcp.call('analyze_assets', args);
    expect(result.isError, firstText(result)).toBeFalsy();
    expect(requests() - before).toBe(1);
    expect(result._meta?.credits).toBe(estimate);
    expect((await creditUsage(mcp)).spent).toBe(estimate);

    // On a server of its own, the same candles cost the same; then the analysis is free.
    const other = await server();
    const source = (
      (await mcp.call('analyze_assets', { ...args, format: 'json' })).structuredContent as unknown as Analysis
    ).source.arguments;
    const { credits } = await candlesOf(other, source);
    expect(credits).toBe(estimate);
    const afterCandles = requests();
    const again = await other.call('analyze_assets', args);
    expect(again._meta).toMatchObject({ credits: 0, cached: true });
    expect(requests()).toBe(afterCandles);
  });

  it('over the per-call limit or the budget: refused before anything is sent, saying the estimate', async () => {
    const mcp = await server();
    const before = requests();
    const big = await mcp.call('analyze_assets', { symbol: TEN, days: 30, interval: 'hourly' });
    expect(big.isError).toBe(true);
    expect(firstText(big)).toMatch(
      /^Refused before sending: this call is estimated at \d+ credits, over the limit of 25 per call \(SVC_MAX_CREDITS_PER_CALL\)/,
    );
    const poor = await server({ SVC_CREDIT_BUDGET: '2' });
    const refused = await poor.call('analyze_assets', { symbol: TEN });
    expect(firstText(refused)).toMatch(
      /^Refused before sending: this call is estimated at \d+ credits, but 2 credits of the day's budget of 2 are left/,
    );
    expect(refused._meta?.credits).toBe(0);
    expect(requests()).toBe(before);
  });
  it('the confirmation question is asked once, at the estimate of its candles; declined, nothing is sent', async () => {
    const args = { symbol: 'ETH, SOL' };
    const planned = await (await server()).call('estimate_cost', {
      calls: [{ tool: 'analyze_assets', arguments: args }],
    });
    const estimate = (planned.structuredContent as { total: number }).total;
    let reply: 'accept' | 'decline' = 'decline';
    const asked: string[] = [];
    const person: Answerer = (message) => {
      asked.push(message);
      return reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    };
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_NOW: NOW,
      SVC_STATE_DIR: newStateDir(),
      SVC_CONFIRM_CREDITS: String(estimate),
    });
    const question = `Analyze assets: this call is estimated at ${estimate} credits. No budget is set. Send it?`;
    // Each client's own way of asking: the 2025 handshake's elicitation, 2026-07-28's question in the answer.
    for (const kind of SESSION_KINDS.filter((k) => k.transport === 'stdio')) {
      const session = await openSession(kind, env, person);
      try {
        reply = 'decline';
        asked.length = 0;
        const before = requests();
        const declined = await session.call('analyze_assets', args);
        expect(textOf(declined)).toBe(
          `Not sent: the call was not confirmed (estimated at ${estimate} credits; SVC_CONFIRM_CREDITS=${estimate} asks first). Nothing was charged.`,
        );
        expect(declined._meta?.credits).toBe(0);
        expect(requests()).toBe(before);
        reply = 'accept';
        const accepted = await session.call('analyze_assets', args);
        expect(accepted.isError, textOf(accepted)).toBeFalsy();
        expect(asked).toEqual([question, question]);
        expect(requests() - before).toBe(1);
        expect(accepted._meta?.credits).toBe(estimate);
        // Again: the candles are in the cache, free, so nothing is asked.
        asked.length = 0;
        const again = await session.call('analyze_assets', args);
        expect(again._meta).toMatchObject({ credits: 0, cached: true });
        expect(asked).toEqual([]);
      } finally {
        await session.close();
      }
    }
  });
});

describe('the candles it paid for', () => {
  it('are kept as a table the answer names: a GROUP BY per symbol gives the counts and highest closes of every page, free', async () => {
    const mcp = await server();
    const result = await mcp.call('analyze_assets', { symbol: TEN, format: 'json' });
    expect(result.isError, firstText(result)).toBeFalsy();
    const { source, kept } = result.structuredContent as unknown as Analysis & {
      kept: { table: string; rows: number; columns: Record<string, string> };
    };
    expect(kept.table).toMatch(/^ohlcv_[a-z0-9]{4}$/);
    expect(kept.columns).toMatchObject({ symbol: 'text', time_open: 'text', quote_usd_close: 'real' });
    const text = firstText(await mcp.call('analyze_assets', { symbol: TEN }));
    expect(text).toContain(`${kept.rows.toLocaleString('en-US')} candles kept as ${kept.table} until`);

    // Every page of the same candles (the cache's: free), walked, against one query over the table.
    const before = requests();
    const { byId, credits } = await candlesOf(mcp, source.arguments);
    expect(credits).toBe(0);
    const sql = `SELECT symbol, count(*) AS n, max(quote_usd_close) AS top FROM ${kept.table} GROUP BY symbol ORDER BY symbol`;
    const answer = await mcp.call('query_data', { sql, format: 'json' });
    expect(answer.isError, firstText(answer)).toBeFalsy();
    expect(answer._meta?.credits).toBe(0);
    expect(requests()).toBe(before);
    const walked = [...byId.values()]
      .map(({ symbol, candles }): [string, number, number] => [
        symbol,
        candles.length,
        Math.max(...candles.map((c) => c.quote.find((q) => q.currency === 'USD')?.close ?? -1)),
      ])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
    expect(walked).toHaveLength(11);
    expect((answer.structuredContent as { rows: unknown[] }).rows).toEqual(walked);
    expect(kept.rows).toBe(walked.reduce((sum, [, n]) => sum + n, 0));
  });
});

describe('the text', () => {
  it('ten assets: a headline, a table, the correlation matrix, in under 2,500 characters', async () => {
    const mcp = await server();
    const text = firstText(await mcp.call('analyze_assets', { symbol: TEN }));
    expect(text.length).toBeLessThan(2500);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^ETH [+-]\d+\.\d% over 90 days, volatility \d+%, (max drawdown -\d+% \(\d+ [A-Z][a-z]{2} → \d+ [A-Z][a-z]{2}\)|no drawdown)$/,
    );
    expect(lines[1]).toBe('Asset | Return | Volatility | Drawdown | RSI | vs SMA50 | Corr BTC | Beta');
    expect(lines).toContain('Correlation | ETH | SOL | XRP | DOGE | ADA | BNB | TRX | LINK | DOT | LTC');
    expect(text).toMatch(/\nDaily closes in USD, 90 complete candles an asset; against BTC\.\n/);
  });

  it("a stablecoin's figures under 1% keep their digits, as its return does", async () => {
    const mcp = await server();
    const result = await mcp.call('analyze_assets', { symbol: 'USDT', format: 'json' });
    const [usdt] = (
      result.structuredContent as { assets: { volatility_pct: number; max_drawdown_pct: number }[] }
    ).assets;
    expect(Math.abs(usdt?.volatility_pct ?? 1)).toBeLessThan(1);
    expect(Math.abs(usdt?.max_drawdown_pct ?? 1)).toBeLessThan(1);
    const [headline, , row] = firstText(await mcp.call('analyze_assets', { symbol: 'USDT' })).split('\n');
    const volatility = usdt?.volatility_pct.toFixed(2);
    const drawdown = usdt?.max_drawdown_pct.toFixed(2);
    expect(headline).toMatch(
      new RegExp(`, volatility ${volatility}%, max drawdown ${drawdown}% \\(\\d+ [A-Z][a-z]{2} → `),
    );
    expect(row).toMatch(new RegExp(`^USDT \\| [+-]0\\.\\d\\d% \\| ${volatility}% \\| ${drawdown}% \\| `));
  });
});

describe('bad input', () => {
  it.each([
    [
      { symbol: 'ETH,SOL,XRP,DOGE,ADA,BNB,TRX,LINK,DOT,LTC,BCH' },
      /Invalid value for "symbol": must name at most 10 assets/,
    ],
    [{ symbol: 'ETH', days: 1 }, /"days".*2/],
    [{ symbol: 'ETH', days: 366 }, /"days".*365/],
    [
      { symbol: 'ETH', days: 30, time_start: '2026-10-01T00:00:00Z' },
      /Invalid value for "time_start": must not be combined with days/,
    ],
    [
      { id: '1027', benchmark: 'BTC' },
      /Invalid value for "benchmark": must be an id when the assets are given by id/,
    ],
    [
      { symbol: 'ETH', time_start: '2025-01-01T00:00:00Z' },
      /Invalid value for "time_start": must be 2 to 365 days before time_end/,
    ],
  ])('%j: refused, nothing sent, nothing charged', async (args, message) => {
    const mcp = await server();
    const before = requests();
    const result = await mcp.call('analyze_assets', args);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(message);
    expect(requests()).toBe(before);
    expect((await creditUsage(mcp)).spent).toBe(0);
  });

  it("a range longer than SVC_PLAN's history: refused naming the plan and its depth, nothing sent", async () => {
    const mcp = await server({ SVC_PLAN: 'startup' });
    const before = requests();
    const result = await mcp.call('analyze_assets', { symbol: 'ETH' });
    expect(firstText(result)).toMatch(
      /^This analysis reaches back to 2026-08-24, but the Startup plan \(SVC_PLAN=startup\) has 1 month of candle history, back to 2026-10-22: ask for days=31 or fewer/,
    );
    expect(requests()).toBe(before);
    expect((await mcp.call('analyze_assets', { symbol: 'ETH', days: 30 })).isError).toBeFalsy();
  });

  it('an unknown symbol: the service refuses it (free), and the answer points at search_cryptocurrencies', async () => {
    const mcp = await server();
    const result = await mcp.call('analyze_assets', { symbol: 'ETH, NOSUCHCOIN' });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(
      /NOSUCHCOIN.*search_cryptocurrencies \(free\) finds the id, slug and symbol of an asset by its name\.$/s,
    );
    expect(result._meta?.credits).toBe(0);
    expect((await creditUsage(mcp)).spent).toBe(0);
  });

  it('hidden where the plan has no candles (SVC_PLAN=basic), saying which plans have it', async () => {
    const mcp = await server({ SVC_PLAN: 'basic' });
    expect(mcp.tools.map((t) => t.name)).not.toContain('analyze_assets');
    expect(firstText(await mcp.call('analyze_assets', { symbol: 'ETH' }))).toBe(
      'The tool "analyze_assets" is hidden by SVC_PLAN=basic: the service includes it on the Startup, Standard, Professional, Enterprise plans.',
    );
  });
});
