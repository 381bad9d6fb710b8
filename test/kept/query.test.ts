/**
 * Kept results as tables, through a real MCP client on the sandbox: a month of hourly candles for
 * ten assets names its table; a GROUP BY over it gives what walking every page gives; the query
 * costs nothing and sends nothing; its rows page with a free next; and a query that cannot run
 * says in one line what would (the caller's tables, a table's columns, SQLite's words and place,
 * an expired table's refetch with its price).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { moveClockAhead, restoreClock } from '../helpers/clock.js';
import { startMcp } from '../helpers/in-process.js';
import { NOW, NOW_MS } from '../helpers/now.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const TEN = 'BTC,ETH,SOL,BNB,XRP,ADA,DOGE,TRX,AVAX,LINK';
const HOUR = 3_600_000;
const MONTH = { time_start: new Date(NOW_MS - 31 * 24 * HOUR).toISOString(), time_end: NOW };

type Kept = { table: string; columns: Record<string, string>; rows: number; expires: string };
type Candles = {
  items: { symbol: string; quotes: { quote: { currency: string; high: number }[] }[] }[];
  next?: Record<string, unknown>;
  kept?: Kept;
};
type Rows = { columns: string[]; rows: unknown[][]; next?: Record<string, unknown> };

let sandbox: Sandbox;
let mcp: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_CACHE: 'off', SVC_STATE_DIR: newStateDir() }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

const requests = () => [...sandbox.stats.byPath.values()].reduce((a, b) => a + b, 0);

async function query(sql: string, more: Record<string, unknown> = {}) {
  return mcp.call('query_data', { sql, format: 'json', ...more });
}

describe('a month of hourly candles for ten assets, kept as a table', () => {
  let kept: Kept;
  /** Per symbol, from walking every page: how many candles and the highest high. */
  const walked = new Map<string, { count: number; max: number }>();

  beforeAll(async () => {
    let next: Record<string, unknown> | undefined = {
      symbol: TEN,
      time_period: 'hourly',
      ...MONTH,
      format: 'json',
    };
    for (let page = 0; next !== undefined; page++) {
      expect(page).toBeLessThan(100);
      const result = await mcp.call('get_ohlcv_historical', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      const data = result.structuredContent as Candles;
      if (page === 0) kept = data.kept as Kept;
      else expect(data.kept?.table).toBe(kept.table);
      for (const asset of data.items) {
        const figures = walked.get(asset.symbol) ?? { count: 0, max: Number.NEGATIVE_INFINITY };
        for (const candle of asset.quotes) {
          figures.count++;
          figures.max = Math.max(figures.max, candle.quote[0]?.high ?? Number.NEGATIVE_INFINITY);
        }
        walked.set(asset.symbol, figures);
      }
      next = data.next;
    }
  }, 60_000);

  it('the answer names its table, its columns with their types, its rows and when it expires', async () => {
    expect(kept.table).toMatch(/^ohlcv_[0-9a-z]{4}$/);
    expect(kept.rows).toBe(7_440);
    expect(kept.columns).toMatchObject({ symbol: 'text', time_open: 'text', quote_usd_high: 'real' });
    expect(Date.parse(kept.expires)).toBeGreaterThan(Date.now());
    const text = textOf(
      await mcp.call('get_ohlcv_historical', { symbol: TEN, time_period: 'hourly', ...MONTH }),
    );
    expect(text).toMatch(
      /^7,440 candles kept as ohlcv_[0-9a-z]{4} until \d\d:\d\d UTC: query them with query_data \(SQL\), free\. Columns: id, name, symbol, /m,
    );
  });

  it('a table kept for a day says until which day, not only the hour', async () => {
    const args = { date: '2026-11-20', limit: 3 };
    const json = await mcp.call('get_cryptocurrency_listings_historical', { ...args, format: 'json' });
    const { expires } = (json.structuredContent as { kept: Kept }).kept;
    expect(Date.parse(expires) - Date.now()).toBeGreaterThan(23 * HOUR);
    const text = textOf(await mcp.call('get_cryptocurrency_listings_historical', args));
    const [, until] =
      /^3 assets kept as listings_[0-9a-z]{4} until (\d{4}-\d\d-\d\d \d\d:\d\d) UTC: query them/m.exec(
        text,
      ) ?? [];
    expect(Math.abs(Date.parse(`${until}Z`) - Date.parse(expires))).toBeLessThan(2 * 60_000);
  });

  it('a GROUP BY per symbol gives the counts and maxima of every page, free, with nothing sent', async () => {
    const before = requests();
    const result = await query(
      `SELECT symbol, count(*) AS n, max(quote_usd_high) AS high FROM ${kept.table} GROUP BY symbol ORDER BY symbol`,
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result._meta).toMatchObject({ credits: 0 });
    expect(requests()).toBe(before);
    const { rows } = result.structuredContent as Rows;
    const fromPages = [...walked].sort(([a], [b]) => a.localeCompare(b)).map(([s, f]) => [s, f.count, f.max]);
    expect(rows).toEqual(fromPages);
  });

  it('SELECT * pages with a free next, every row once', async () => {
    const seen = new Set<string>();
    let next: Record<string, unknown> | undefined = {
      sql: `SELECT symbol, time_open FROM ${kept.table}`,
      format: 'json',
    };
    let pages = 0;
    for (; next !== undefined; pages++) {
      expect(pages).toBeLessThan(10);
      const result = await mcp.call('query_data', next);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result._meta).toMatchObject({ credits: 0 });
      const data = result.structuredContent as Rows;
      for (const [symbol, time] of data.rows) seen.add(`${symbol} ${time}`);
      next = data.next;
    }
    expect(seen.size).toBe(7_440);
    expect(pages).toBeGreaterThan(1);
    const text = textOf(await mcp.call('query_data', { sql: `SELECT * FROM ${kept.table}` }));
    // The text page shows as many rows as its 20,000 characters hold, and next goes on from there;
    // its headline counts all the query's rows.
    expect(text).toMatch(/^7,440 rows of id, name, symbol, /);
    const shown = /^Rows 1–([\d,]+) of 7,440; /m.exec(text)?.[1];
    expect(Number(shown)).toBeGreaterThan(20);
    expect(text).toMatch(
      new RegExp(
        `^Next page: \\{"sql":"SELECT \\* FROM ohlcv_\\w+","cursor":"[\\w-]{16}\\.${shown}"\\}$`,
        'm',
      ),
    );
  });

  it('get_credit_usage counts each query as a free call', async () => {
    const usage = async () =>
      (await mcp.call('get_credit_usage', { format: 'json' })).structuredContent as {
        spent: number;
        by_tool: Record<string, { calls: number; credits: number }>;
      };
    const before = await usage();
    await query(`SELECT count(*) FROM ${kept.table}`);
    await query(`SELECT max(time_open) FROM ${kept.table}`);
    const after = await usage();
    expect(after.spent).toBe(before.spent);
    expect(after.by_tool.query_data?.calls).toBe((before.by_tool.query_data?.calls ?? 0) + 2);
    expect(after.by_tool.query_data?.credits).toBe(0);
  });

  it('a join across two kept tables', async () => {
    const listing = await mcp.call('get_cryptocurrency_listings_latest', { limit: 20, format: 'json' });
    const listed = (listing.structuredContent as { kept: Kept }).kept.table;
    const result = await query(
      `SELECT l.symbol, l.rank, max(c.quote_usd_high) FROM ${listed} l JOIN ${kept.table} c USING (symbol) GROUP BY l.symbol ORDER BY l.rank LIMIT 3`,
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as Rows).rows.map((r) => r[0])).toEqual([
      'BTC',
      'ETH',
      expect.any(String),
    ]);
  });

  it("quotes asked by a currency's id are columns named by its symbol, as the text names it", async () => {
    const quotes = await mcp.call('get_cryptocurrency_quotes_latest', {
      symbol: 'BTC,ETH',
      convert_id: '2790,1',
      format: 'json',
    });
    const table = (quotes.structuredContent as { kept: Kept }).kept;
    expect(Object.keys(table.columns)).toEqual(
      expect.arrayContaining(['quote_eur_price', 'quote_btc_price']),
    );
    expect(Object.keys(table.columns).filter((c) => /\d{4}/.test(c))).toEqual([]);
    const result = await query(`SELECT symbol, quote_eur_price > 0 FROM ${table.table} ORDER BY symbol`);
    expect((result.structuredContent as Rows).rows).toEqual([
      ['BTC', 1],
      ['ETH', 1],
    ]);
  });

  it('price performance is kept a row per asset and period, each figure a column', async () => {
    const args = { symbol: 'BTC,ETH', time_period: '7d,30d' };
    const text = textOf(await mcp.call('get_price_performance', args));
    expect(text).toMatch(/^4 periods kept as price_performance_\w+ until /m);
    const answer = await mcp.call('get_price_performance', { ...args, format: 'json' });
    const data = answer.structuredContent as {
      kept: Kept;
      items: { symbol: string; periods: { period: string; quote: { percent_change: number }[] }[] }[];
    };
    expect(data.kept.rows).toBe(4);
    expect(data.kept.columns).toMatchObject({
      symbol: 'text',
      period: 'text',
      quote_usd_percent_change: 'real',
    });
    const result = await query(
      `SELECT symbol, period, quote_usd_percent_change FROM ${data.kept.table} ORDER BY symbol, period`,
    );
    const expected = data.items
      .flatMap((a) => a.periods.map((p) => [a.symbol, p.period, p.quote[0]?.percent_change]))
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1])));
    expect((result.structuredContent as Rows).rows).toEqual(expected);
  });

  it('a blob is given as its size, grouped as the text writes numbers', async () => {
    const result = await query('SELECT zeroblob(1000000)', { format: 'json' });
    expect((result.structuredContent as Rows).rows).toEqual([['(a blob of 1,000,000 bytes)']]);
  });

  it('the text writes a number in plain digits, never an exponent, as the JSON keeps it', async () => {
    const sql = 'SELECT 0.000000001857 AS tiny, 1e21 AS huge, 123456789.123456789 AS long, 2026 AS year';
    const text = textOf(await query(sql, { format: 'text' }));
    expect(text).toContain('0.000000001857');
    expect(text).toContain('1000000000000000000000');
    expect(text).toContain('123456789.1');
    expect(text).toMatch(/\b2026\b/);
    expect(text).not.toMatch(/\de[+-]?\d/);
    const json = await query(sql, { format: 'json' });
    expect((json.structuredContent as Rows).rows).toEqual([[1.857e-9, 1e21, 123456789.12345679, 2026]]);
  });

  it('the standard deviation and variance a model writes, by group and over a window', async () => {
    const rowsOf = async (sql: string) => {
      const result = await query(sql);
      expect(result.isError, textOf(result)).toBeFalsy();
      return (result.structuredContent as Rows).rows;
    };
    // 1, 2, 3, 4 (a NULL and text that is no number left out): sample variance 5/3, population 5/4.
    const [stats] = await rowsOf(
      `SELECT stddev(column1), stdev(column1), stddev_samp(column1), stddev_pop(column1), variance(column1), var_samp(column1), var_pop(column1)
       FROM (VALUES (1), (2), (NULL), ('x'), (3), (4))`,
    );
    const expected = [5 / 3, 5 / 3, 5 / 3, 5 / 4].map(Math.sqrt).concat([5 / 3, 5 / 3, 5 / 4]);
    expected.forEach((value, i) => {
      expect(stats?.[i]).toBeCloseTo(value, 12);
    });
    expect(await rowsOf('SELECT stddev(column1), stddev_pop(column1) FROM (VALUES (7))')).toEqual([
      [null, 0],
    ]);
    const sliding = await rowsOf(
      'SELECT stddev_pop(column1) OVER (ORDER BY column1 ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1), (3), (7))',
    );
    [0, 1, 2].forEach((value, i) => {
      expect(sliding[i]?.[0]).toBeCloseTo(value, 12);
    });
    // Hourly volatility per asset: the population's by name, and by hand.
    const [byHand = [], byName = []] = await Promise.all(
      ['sqrt(avg(ret * ret) - avg(ret) * avg(ret))', 'stddev_pop(ret)'].map((figure) =>
        rowsOf(
          `WITH r AS (SELECT symbol, quote_usd_close / lag(quote_usd_close) OVER (PARTITION BY symbol ORDER BY time_open) - 1 AS ret FROM ${kept.table})
           SELECT symbol, ${figure} FROM r WHERE ret IS NOT NULL GROUP BY symbol ORDER BY symbol`,
        ),
      ),
    );
    expect(byName).toHaveLength(10);
    byName.forEach(([symbol, value], i) => {
      expect(symbol).toBe(byHand[i]?.[0]);
      expect(value).toBeCloseTo(byHand[i]?.[1] as number, 10);
    });
  });
});

describe('a query that cannot run says what would', () => {
  it("an unknown table lists the caller's tables", async () => {
    const result = await query('SELECT * FROM ohlcv_zzzz');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^No table ohlcv_zzzz\. Your tables: .*ohlcv_\w+ \(7,440 rows of get_ohlcv_historical\)/,
    );
  });

  it("an unknown column lists the table's columns", async () => {
    const { table } = (
      (await mcp.call('get_fear_and_greed_historical', { limit: 5, format: 'json' })).structuredContent as {
        kept: Kept;
      }
    ).kept;
    const result = await query(`SELECT valeu FROM ${table}`);
    expect(textOf(result)).toBe(
      `SQLite: no such column: valeu, at character 8 ("valeu FROM ${table}"). Did you mean value? ${table}'s columns: value, value_classification, timestamp.`,
    );
    // Qualified by its table, the closest column is named the same way.
    const qualified = textOf(await query(`SELECT t.value_clasification FROM ${table} t`));
    expect(qualified).toContain('no such column: t.value_clasification, at character 8');
    expect(qualified).toContain('. Did you mean value_classification? ');
    // Nothing close: the columns alone.
    expect(textOf(await query(`SELECT zzz FROM ${table}`))).toMatch(/\("zzz FROM \w+"\)\. \w+'s columns: /);
  });

  it('an unknown table close to one of the caller’s names it', async () => {
    const { table } = (
      (await mcp.call('get_fear_and_greed_historical', { limit: 5, format: 'json' })).structuredContent as {
        kept: Kept;
      }
    ).kept;
    const typo = `${table.slice(0, -1)}${table.endsWith('x') ? 'y' : 'x'}`;
    expect(textOf(await query(`SELECT * FROM ${typo}`))).toMatch(
      new RegExp(`^No table ${typo}: did you mean ${table}\\? Your tables: `),
    );
  });

  it("a wide table's columns are listed up to 600 characters; a query naming no table lists the tables", async () => {
    const convert = 'USD,EUR,GBP,JPY,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SEK,NOK,SGD,HKD,NZD,ZAR,TRY,PLN';
    const { table } = (
      (await mcp.call('get_cryptocurrency_listings_latest', { limit: 5, convert, format: 'json' }))
        .structuredContent as { kept: Kept }
    ).kept;
    const wide = textOf(await query(`SELECT nope FROM ${table}`));
    expect(wide).toMatch(new RegExp(`\\. ${table}'s columns: id, name, symbol, .+ and \\d+ more\\.$`));
    expect(wide.length).toBeLessThan(900);
    // Several tables are kept here by now: naming none, the query is told which there are.
    const none = textOf(await query('SELECT nope'));
    expect(none).toMatch(/^SQLite: no such column: nope, at character 8 \("nope"\)\. Your tables: /);
    expect(none.length).toBeLessThan(2000);
  });

  it("a syntax error gives SQLite's words and the place", async () => {
    const result = await query('SELECT symbol FROM x WHERE');
    expect(textOf(result)).toMatch(/^SQLite: incomplete input.*Send one SELECT in SQLite's dialect\.$/);
    const near = await query('SELEC 1');
    expect(textOf(near)).toBe(
      `SQLite: near "SELEC": syntax error, at character 1 ("SELEC 1"). Send one SELECT in SQLite's dialect.`,
    );
  });

  it("another dialect's form gives SQLite's for it", async () => {
    expect(textOf(await query("SELECT date_trunc('day', '2026-11-20T10:00:00Z')"))).toBe(
      `SQLite: no such function: date_trunc, at character 8 ("date_trunc('day', '2026-11-20T…"). In SQLite: date(x) for the day, strftime('%Y-%m-%d %H:00', x) for the hour, strftime('%Y-%m', x) for the month.`,
    );
    expect(textOf(await query('SELECT greatest(1, 2)'))).toMatch(/\. In SQLite: max\(a, b, …\)\.$/);
    expect(textOf(await query("SELECT '2026-11-20'::date"))).toBe(
      `SQLite: unrecognized token: ":", at character 20 ("::date"). In SQLite: CAST(x AS TEXT) (or REAL, INTEGER), not ::. Send one SELECT in SQLite's dialect.`,
    );
    expect(textOf(await query("SELECT 'a' ILIKE 'A'"))).toMatch(
      /\. In SQLite: LIKE, which ignores the case of ASCII letters, not ILIKE\. Send one SELECT in SQLite's dialect\.$/,
    );
    expect(textOf(await query('SELECT TOP 5 1'))).toMatch(/\. In SQLite: LIMIT n at the end, not TOP n\. /);
    expect(textOf(await query("SELECT EXTRACT(hour FROM '2026-11-20T10:00:00Z')"))).toMatch(
      /\. In SQLite: strftime\('%H', x\) \(%d, %m, %Y, %w too\), not EXTRACT\. /,
    );
    const median =
      'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM (SELECT 1 AS x UNION SELECT 3)';
    expect(textOf(await query(median))).toMatch(
      /\. In SQLite: percentile_cont\(x, 0\.5\) or median\(x\), not percentile_cont\(0\.5\) WITHIN GROUP \(ORDER BY x\)\. /,
    );
    const sqlite = await query(
      'SELECT percentile_cont(x, 0.5), median(x) FROM (SELECT 1 AS x UNION SELECT 3)',
    );
    expect((sqlite.structuredContent as Rows).rows).toEqual([[2, 2]]);
    // A function SQLite has, misused: its own words alone.
    expect(textOf(await query('SELECT max()'))).toBe(
      'SQLite: wrong number of arguments to function max(), at character 8 ("max()").',
    );
  });

  it('an expired table says so, and gives the call that fetches it again with its price', async () => {
    const { table } = (
      (await mcp.call('get_fear_and_greed_historical', { limit: 7, format: 'json' })).structuredContent as {
        kept: Kept;
      }
    ).kept;
    // Past its keep time (at least 10 minutes).
    moveClockAhead(11 * 60_000);
    const result = await query(`SELECT * FROM ${table}`).finally(restoreClock);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      new RegExp(
        `^The table ${table} expired at .* UTC: get_fear_and_greed_historical \\{"start":1,"limit":7\\} would fetch it again \\(1 credit\\), and its answer names the new table\\.$`,
      ),
    );
  });
});
