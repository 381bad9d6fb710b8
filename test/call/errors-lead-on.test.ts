/**
 * Errors a model can act on, each one line, tried as a new user would: the closest accepted name
 * for a mistyped parameter, a date after now called a date in the future with its value, an empty
 * value called empty, no validator wording, no HTTP status before a message that says it all, a
 * value another parameter takes named with it; and an unknown asset named on every tool that takes
 * one (the map, news and posts too), free, with the search offered. Each is refused before anything
 * is sent, or answered free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { openInProcess } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const SEARCH = 'search_cryptocurrencies (free) finds the id, slug and symbol of an asset by its name.';

let sandbox: Sandbox;
let mcp: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  mcp = await openInProcess(heavyCallsEnv(sandbox, { SVC_CACHE: 'off' }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

/** The refusal's one line, after checking that nothing was sent or charged for it. */
async function refusal(tool: string, args: Record<string, unknown>): Promise<string> {
  const before = sandbox.stats.requests;
  const result = await mcp.call(tool, args);
  expect(result.isError, textOf(result)).toBe(true);
  expect(result._meta?.credits).toBe(0);
  expect(sandbox.stats.requests, 'nothing sent').toBe(before);
  const text = textOf(result);
  expect(text).not.toContain('\n');
  return text;
}

describe('a refused argument', () => {
  it('a mistyped parameter: the closest one the tool takes', async () => {
    expect(await refusal('get_cryptocurrency_quotes_latest', { symbl: 'BTC' })).toMatch(
      /^Unknown parameter "symbl": did you mean "symbol"\? This tool takes: id, slug, symbol, /,
    );
  });

  it('a name other market-data services use: the one this tool takes for it', async () => {
    const meant = async (tool: string, args: Record<string, unknown>) =>
      /did you mean "(\w+)"\?/.exec(await refusal(tool, args))?.[1];
    expect(await meant('get_cryptocurrency_quotes_latest', { symbol: 'BTC', vs_currency: 'EUR' })).toBe(
      'convert',
    );
    expect(await meant('get_cryptocurrency_quotes_latest', { symbol: 'BTC', currency: 'EUR' })).toBe(
      'convert',
    );
    expect(
      await meant('get_cryptocurrency_quotes_historical', { symbol: 'BTC', start_date: '2026-11-01' }),
    ).toBe('time_start');
    expect(await meant('get_ohlcv_historical', { symbol: 'BTC', from: '2026-11-01', to: '2026-11-10' })).toBe(
      'time_start',
    );
    expect(
      await meant('get_cryptocurrency_quotes_historical', { symbol: 'BTC', end_date: '2026-11-10' }),
    ).toBe('time_end');
    expect(await meant('get_fear_and_greed_historical', { days: 7 })).toBe('limit');
    expect(await meant('get_cryptocurrency_quotes_historical', { symbol: 'BTC', limit: 7 })).toBe('count');
    expect(await meant('analyze_assets', { symbol: 'BTC', period: 30 })).toBe('days');
    expect(await meant('get_cryptocurrency_listings_latest', { top: 10 })).toBe('limit');
    expect(await meant('get_cryptocurrency_listings_latest', { sort_by: 'volume_24h' })).toBe('sort');
    expect(await meant('convert_price', { amount: 1, from: 'BTC', convert: 'EUR' })).toBe('symbol');
    expect(await meant('convert_price', { amount: 1, symbol: 'BTC', to: 'EUR' })).toBe('convert');
    expect(await meant('convert_price', { amount: 1, symbol: 'BTC', to_currency: 'EUR' })).toBe('convert');
    // A name this tool has nothing for: none is guessed.
    expect(await meant('get_fear_and_greed_latest', { vs_currency: 'EUR' })).toBeUndefined();
  });

  it('a date after now: in the future, with its value', async () => {
    expect(
      await refusal('get_cryptocurrency_quotes_historical', { symbol: 'BTC', time_start: '2030-01-01' }),
    ).toBe(
      'Invalid value for "time_start": is in the future (2030-01-01T00:00:00Z): the service has data up to now.',
    );
    // Neither text nor a number: what a time is, not the validator's "invalid input".
    for (const time_start of [true, { date: '2026-11-01' }, ['2026-11-01']]) {
      expect(await refusal('get_global_metrics_historical', { time_start })).toBe(
        `Invalid value for "time_start": must be a date and time, as Unix seconds or ISO 8601 (e.g. 2026-11-01T00:00:00Z), not ${Array.isArray(time_start) ? 'a list' : typeof time_start === 'object' ? 'an object' : 'a boolean'} (${JSON.stringify(time_start)}).`,
      );
    }
    expect(await refusal('get_global_metrics_historical', { time_start: 'yesterday' })).toMatch(
      /^Invalid value for "time_start": is not a date and time \(got "yesterday"\): give Unix seconds or ISO 8601/,
    );
  });

  it('a missing parameter: what it takes, in its own words when the schema has no bounds', async () => {
    expect(await refusal('get_dex_platform', {})).toBe(
      'Missing parameter "platformName": it is required (name from list_dex_platforms, e.g. Solana).',
    );
    expect(await refusal('convert_price', { symbol: 'BTC' })).toBe(
      'Missing parameter "amount": it is required (a number from 0.00000001 to 1,000,000,000,000).',
    );
  });

  it('an empty value: empty, in the tool’s words', async () => {
    expect(await refusal('search_cryptocurrencies', { query: '' })).toBe(
      'Invalid value for "query": is empty.',
    );
    expect(await refusal('convert_price', { amount: 1, symbol: '' })).toBe(
      'Invalid value for "symbol": is empty.',
    );
    expect(await refusal('get_fear_and_greed_historical', { limit: 'ten' })).toBe(
      'Invalid value for "limit": must be a whole number from 1 to 500, not text ("ten").',
    );
  });

  it('a number where text is taken: the same, quoted', async () => {
    expect(await refusal('get_post_comments', { post_id: 317807035 })).toBe(
      'Invalid value for "post_id": 317807035 is a number; it takes text: send "317807035".',
    );
    expect(await refusal('convert_price', { amount: 1, symbol: 1 })).toBe(
      'Invalid value for "symbol": 1 is a number; it takes text: send "1".',
    );
  });

  it('a list where a comma list is taken: the same, as the text it takes', async () => {
    expect(await refusal('get_cryptocurrency_quotes_latest', { symbol: ['BTC', 'ETH'] })).toBe(
      'Invalid value for "symbol": is a list; it takes text: send "BTC,ETH".',
    );
    expect(await refusal('get_cryptocurrency_quotes_latest', { id: [1, 1027] })).toBe(
      'Invalid value for "id": is a list; it takes text: send "1,1027".',
    );
    // A list of anything else is not made text.
    expect(await refusal('get_cryptocurrency_quotes_latest', { symbol: [{ s: 'BTC' }] })).toMatch(
      /^Invalid value for "symbol": must be text, not a list /,
    );
  });

  it('a number or a time written as text where a number is taken: the number to send', async () => {
    expect(await refusal('get_fear_and_greed_historical', { limit: '5' })).toBe(
      'Invalid value for "limit": "5" is text; it takes a number: send 5.',
    );
    const chart = { platform: 'solana', address: 'So11111111111111111111111111111111111111112' };
    expect(await refusal('get_kline_candles', { ...chart, from: '2026-11-20T00:00:00Z' })).toBe(
      'Invalid value for "from": "2026-11-20T00:00:00Z" is a date as text; it takes Unix seconds: send 1795132800.',
    );
    expect(await refusal('get_kline_points', { ...chart, to: '1795132800' })).toBe(
      'Invalid value for "to": "1795132800" is text; it takes a number: send 1795132800.',
    );
    // Text that is neither is refused saying what is taken.
    expect(await refusal('get_kline_points', { ...chart, to: 'yesterday' })).toMatch(
      /^Invalid value for "to": must be a whole number from 0 to 4,102,444,800, not text/,
    );
  });

  it('inside a parameter: a missing member named with what it takes, an unknown one with the members', async () => {
    expect(await refusal('estimate_cost', { calls: [{ name: 'get_ohlcv_historical', arguments: {} }] })).toBe(
      'Unknown member "name" in "calls", at calls[0]: did you mean "tool"? It takes: tool, arguments.',
    );
    expect(await refusal('estimate_cost', { calls: [{ arguments: { symbol: 'BTC' } }] })).toBe(
      'Missing member "tool" in "calls", at calls[0].tool: it is required (text).',
    );
    expect(await refusal('estimate_cost', { calls: [{ tool: 'get_ohlcv_historical', args: {} }] })).toBe(
      'Unknown member "args" in "calls", at calls[0]: did you mean "arguments"? It takes: tool, arguments.',
    );
  });

  it('a value close to one the parameter takes: that one', async () => {
    expect(await refusal('get_cryptocurrency_listings_latest', { sort: 'marketcap' })).toMatch(
      /^Invalid value for "sort": "marketcap" is not one of market_cap, .*, volume_30d; did you mean "market_cap"\?$/,
    );
    expect(await refusal('get_cryptocurrency_listings_latest', { sort_dir: 'descending' })).toBe(
      'Invalid value for "sort_dir": "descending" is not one of asc, desc; did you mean "desc"?',
    );
    expect(await refusal('get_gainers_losers', { time_period: '7D' })).toBe(
      'Invalid value for "time_period": "7D" is not one of 1h, 24h, 7d, 30d; did you mean "7d"?',
    );
    // Nothing close: none is guessed.
    expect(await refusal('get_gainers_losers', { time_period: '1d' })).toBe(
      'Invalid value for "time_period": "1d" is not one of 1h, 24h, 7d, 30d.',
    );
  });

  it('a tag in capitals is the same tag', async () => {
    const before = sandbox.stats.requests;
    const result = await mcp.call('get_cryptocurrency_listings_latest', {
      tag: 'DeFi',
      limit: 3,
      format: 'json',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(sandbox.stats.requests).toBe(before + 1);
  });

  it("a day's listings for a day not yet over: the latest day there are", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await refusal('get_cryptocurrency_listings_historical', { date: today })).toBe(
      `Invalid value for "date": ${today} is not a completed UTC day yet; the latest is ${yesterday}.`,
    );
    expect(
      await refusal('get_cryptocurrency_listings_historical', { date: `${today}T00:00:00Z`, limit: 5 }),
    ).toBe(`Invalid value for "date": ${today} is not a completed UTC day yet; the latest is ${yesterday}.`);
  });

  it('a name outside a comma list of names: the names it takes', async () => {
    expect(await refusal('get_latest_content', { news_type: 'video' })).toBe(
      'Invalid value for "news_type": "video" is not one of news, community, alexandria, all.',
    );
  });

  it('text where a list of names is taken: the same, as the list it takes', async () => {
    expect(await refusal('run_script', { declarations: 'get_ohlcv_historical' })).toBe(
      'Invalid value for "declarations": is text; it takes a list: send ["get_ohlcv_historical"].',
    );
    expect(await refusal('run_script', { declarations: 'get_ohlcv_historical, query_data' })).toBe(
      'Invalid value for "declarations": is text; it takes a list: send ["get_ohlcv_historical","query_data"].',
    );
    // A list of objects is not made from text.
    expect(await refusal('estimate_cost', { calls: 'get_fear_and_greed_latest' })).toMatch(
      /^Invalid value for "calls": must be a list, not text /,
    );
  });

  it('a value another parameter takes: named with it', async () => {
    expect(await refusal('get_ohlcv_historical', { symbol: 'BTC', time_period: 'weekly' })).toBe(
      'Invalid value for "time_period": "weekly" is not one of daily, hourly; interval takes it: send interval=weekly.',
    );
    // A rule that already says what to send is not told it again.
    expect(await refusal('get_ohlcv_historical', { symbol: 'BTC', interval: 'hourly' })).toBe(
      'Invalid value for "interval": must be daily or longer with daily candles; for hourly candles send time_period=hourly.',
    );
  });

  it('a range no candle opens in (time_start is exclusive): the time_start that gives the one meant', async () => {
    expect(
      await refusal('get_ohlcv_historical', {
        symbol: 'BTC',
        time_start: '2026-11-20',
        time_end: '2026-11-20',
      }),
    ).toBe(
      'Invalid value for "time_start": no candle opens after it and by time_end (time_start is exclusive, and a daily candle counts from its date): for the candle that opens at 2026-11-20, send time_start=2026-11-19.',
    );
    expect(
      await refusal('get_ohlcv_historical', {
        symbol: 'BTC',
        time_period: 'hourly',
        time_start: '2026-11-20T10:30:00Z',
        time_end: '2026-11-20T10:59:00Z',
      }),
    ).toBe(
      'Invalid value for "time_start": no candle opens after it and by time_end (time_start is exclusive): for the candle that opens at 2026-11-20T10:00:00Z, send time_start=2026-11-20T09:00:00Z.',
    );
    // Without time_end the range runs to now: from today's date, a daily candle opens tomorrow.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await refusal('get_ohlcv_historical', { symbol: 'BTC', time_start: today })).toBe(
      `Invalid value for "time_start": no candle opens after it and by now (time_start is exclusive, and a daily candle counts from its date): for the candle that opens at ${today}, send time_start=${yesterday}.`,
    );
    // What it gives is that candle, the one asked for.
    const result = await mcp.call('get_ohlcv_historical', {
      symbol: 'BTC',
      time_start: '2026-11-19',
      time_end: '2026-11-20',
      format: 'json',
    });
    const quotes = (result.structuredContent as { items: { quotes: { time_open: string }[] }[] }).items[0]
      ?.quotes;
    expect(quotes?.map((q) => q.time_open)).toEqual(['2026-11-20T00:00:00.000Z']);
  });
});

describe('an unknown asset', () => {
  it('the service’s own words, without an HTTP status before them, and the search', async () => {
    const result = await mcp.call('get_cryptocurrency_quotes_latest', { symbol: 'NOTACOIN' });
    expect(result.isError).toBe(true);
    expect(result._meta?.credits).toBe(0);
    expect(textOf(result)).toBe(
      `Invalid value for "symbol": "NOTACOIN" is not a known cryptocurrency symbol; send skip_invalid=true to leave unknown ones out. ${SEARCH}`,
    );
  });

  it.each([
    ['get_cryptocurrency_map', { symbol: 'NOTACOIN' }, `No asset has the symbol NOTACOIN: ${SEARCH}`],
    [
      'get_latest_content',
      { symbol: 'NOTACOIN' },
      `No news about symbol NOTACOIN. If it is not a known symbol, ${SEARCH}`,
    ],
    [
      'get_latest_posts',
      { symbol: 'NOTACOIN' },
      `No posts about symbol NOTACOIN. If it is not a known symbol, ${SEARCH}`,
    ],
    ['get_top_posts', { id: '99999999' }, `No posts about id 99999999. If it is not a known id, ${SEARCH}`],
  ])('%s names it, free', async (tool, args, line) => {
    const result = await mcp.call(tool, args);
    expect(result._meta?.credits).toBe(0);
    expect(textOf(result).split('\n')[0]).toBe(line);
  });

  it('the map names the symbols it found none for beside those it found', async () => {
    const result = await mcp.call('get_cryptocurrency_map', { symbol: 'BTC,NOTACOIN,ETH', format: 'json' });
    const data = result.structuredContent as { items: { symbol: string }[]; not_found?: string[] };
    expect(data.items.map((a) => a.symbol)).toEqual(['BTC', 'ETH']);
    expect(data.not_found).toEqual(['NOTACOIN']);
  });
});
