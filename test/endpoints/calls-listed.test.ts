/**
 * Every tool (SVC_TOOLSETS=all) over stdio on the embedded sandbox, its clock frozen: default and
 * representative arguments, through the SDK Client (which checks structuredContent against the
 * tool's outputSchema), and format=json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, expectAnswer } from '../helpers/answers.js';
import { firstText } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import type { Session } from '../helpers/session.js';
import { ALL_TOOLS, BONK_CHART, defaultArgs } from '../helpers/tool-names.js';

let mcp: Session;
beforeAll(async () => {
  mcp = await startMcp({ SVC_TOOLSETS: 'all', SVC_NOW: '2026-11-22T12:00:00Z' });
});
afterAll(() => mcp?.close());

type Items<T> = { items: T[] };

describe('every tool', () => {
  it('lists all of them', () => {
    expect(mcp.tools.map((t) => t.name)).toEqual(ALL_TOOLS);
  });

  it('answers with default arguments: a short text ending with the sandbox note, and structured data', async () => {
    for (const tool of ALL_TOOLS) expectAnswer(await mcp.call(tool, defaultArgs(tool)), tool);
  });

  it('format=json: the text is exactly the structured data', async () => {
    for (const tool of ALL_TOOLS) {
      const result = await mcp.call(tool, { ...defaultArgs(tool), format: 'json' });
      expect(JSON.parse(firstText(result)), tool).toStrictEqual(result.structuredContent);
      expect(result.content, tool).toHaveLength(1);
      expect(result._meta?.sandbox, tool).toBe(true);
    }
  });
});

describe('representative arguments', () => {
  it('convert_price: a shared answer shape for id and symbol, at the latest or a past rate', async () => {
    const now = await mcp.call('convert_price', { amount: 2, symbol: 'ETH', convert: 'USD,EUR' });
    const text = expectAnswer(now, 'convert');
    expect(text).toMatch(
      /^2 ETH \(Ethereum, id 1027\) = \$[\d,]+\.\d\d = €[\d,]+\.\d\d \(2026-11-22 12:00 UTC\)/,
    );
    const past = await mcp.call('convert_price', { amount: 1, id: '1', time: '2026-11-01T00:00:00Z' });
    const item =
      data<Items<{ last_updated: string; quote: { currency: string; price: number }[] }>>(past).items[0]!;
    expect(item.last_updated).toBe('2026-11-01T00:00:00.000Z');
    expect(item.quote[0]!.currency).toBe('USD');
  });

  it('quotes historical and OHLCV history: several assets, a bounded range, another currency', async () => {
    const quotes = await mcp.call('get_cryptocurrency_quotes_historical', {
      id: '1,1027',
      interval: '1h',
      count: 24,
      convert: 'EUR',
    });
    const series = data<Items<{ symbol: string; quotes: { quote: { currency: string }[] }[] }>>(quotes).items;
    expect(series.map((s) => s.symbol).sort()).toEqual(['BTC', 'ETH']);
    for (const s of series) expect(s.quotes).toHaveLength(24);
    expect(series[0]!.quotes[0]!.quote[0]!.currency).toBe('EUR');
    expect(expectAnswer(quotes, 'quotes history')).toMatch(/price at 1h steps in EUR, 24 points/);
    const candles = await mcp.call('get_ohlcv_historical', {
      symbol: 'SOL',
      time_start: '2026-11-01',
      time_end: '2026-11-10',
    });
    const sol = data<Items<{ quotes: { time_open: string }[] }>>(candles).items[0]!;
    expect(sol.quotes[0]!.time_open).toBe('2026-11-02T00:00:00.000Z'); // time_start is exclusive
    expect(sol.quotes.at(-1)?.time_open).toBe('2026-11-10T00:00:00.000Z');
    // The day time_start names is left out: the text says so, and what gives it.
    expect(expectAnswer(candles, 'candles from a day')).toMatch(
      /^time_start is exclusive: the candle of 2026-11-01 is left out; for it, send time_start=2026-10-31\.$/m,
    );
    const hourly = await mcp.call('get_ohlcv_historical', {
      symbol: 'SOL',
      time_period: 'hourly',
      time_start: '2026-11-01T10:00:00Z',
      time_end: '2026-11-01T15:00:00Z',
    });
    expect(expectAnswer(hourly, 'candles from an hour')).toMatch(
      /^time_start is exclusive: the candle of 2026-11-01 10:00 UTC is left out; for it, send time_start=2026-11-01T09:00:00Z\.$/m,
    );
    // A time_start within a candle leaves nothing of what it asks for out: no note.
    const within = await mcp.call('get_ohlcv_historical', {
      symbol: 'SOL',
      time_period: 'hourly',
      time_start: '2026-11-01T10:30:00Z',
      time_end: '2026-11-01T15:00:00Z',
    });
    expect(expectAnswer(within, 'candles from within an hour')).not.toContain('exclusive');
  });

  it('a history before any data: says so, with no table header over no rows', async () => {
    const before = await mcp.call('get_cryptocurrency_quotes_historical', {
      symbol: 'BTC',
      time_start: '2010-01-01',
      time_end: '2011-01-01',
      interval: 'daily',
    });
    const text = expectAnswer(before, 'history before data');
    expect(text).toMatch(
      /0 points: no data points in the range asked; an asset has none before its first \(get_cryptocurrency_map gives its first_historical_data\)/,
    );
    expect(text).not.toMatch(/Time \| Price/);
  });

  it('gainers and losers, new listings, a past day, trending: pages with the period and sort asked for', async () => {
    const losers = await mcp.call('get_gainers_losers', { sort_dir: 'asc', time_period: '7d', limit: 5 });
    expect(expectAnswer(losers, 'losers')).toMatch(/^Top losers over 7d:/);
    expect(data<Items<unknown>>(losers).items).toHaveLength(5);
    const past = await mcp.call('get_cryptocurrency_listings_historical', { date: '2026-10-10', limit: 3 });
    expect(expectAnswer(past, 'past day')).toMatch(/at the end of 2026-10-10/);
    const fresh = await mcp.call('get_new_cryptocurrencies', { limit: 3 });
    expect(expectAnswer(fresh, 'new')).toMatch(
      /^3 newly listed cryptocurrencies from start=1, newest first:/,
    );
    const oldest = await mcp.call('get_new_cryptocurrencies', { limit: 3, sort_dir: 'asc' });
    expect(expectAnswer(oldest, 'oldest')).toMatch(/^3 listed cryptocurrencies from start=1, oldest first:/);
    const visited = await mcp.call('get_most_visited_cryptocurrencies', {
      time_period: '30d',
      start: 11,
      limit: 5,
    });
    expect(data<{ start: number }>(visited).start).toBe(11);
  });

  it('info, map, market pairs, categories: what each names', async () => {
    const info = await mcp.call('get_cryptocurrency_info', { slug: 'solana,bonk1' });
    const text = expectAnswer(info, 'info');
    expect(text).toContain('Solana (SOL), id 5426');
    expect(text).toMatch(/BONK.*token on Solana/);
    const map = await mcp.call('get_cryptocurrency_map', { symbol: 'USDT,USDC' });
    expect(
      data<Items<{ symbol: string }>>(map)
        .items.map((a) => a.symbol)
        .sort(),
    ).toEqual(['USDC', 'USDT']);
    const pairs = await mcp.call('get_market_pairs', { slug: 'ethereum', matched_symbol: 'USDT', limit: 5 });
    const eth = data<{ market_pairs: { market_pair: string }[] }>(pairs);
    for (const p of eth.market_pairs) expect(p.market_pair).toBe('ETH/USDT');
    expect(expectAnswer(pairs, 'pairs')).toMatch(
      /^Ethereum \(ETH\): [\d,]+ market pairs against USDT; 5 from start=1:\n/,
    );
    const none = await mcp.call('get_market_pairs', { symbol: 'ETH', category: 'derivatives', limit: 3 });
    expect(expectAnswer(none, 'no pairs')).toMatch(
      /^Ethereum \(ETH\): no market pairs in derivatives from start=1\.$/m,
    );
    // One slug in capitals is the same slug.
    const capitals = await mcp.call('get_market_pairs', {
      slug: 'Ethereum',
      matched_symbol: 'USDT',
      limit: 5,
    });
    expect(data<typeof eth>(capitals).market_pairs).toEqual(eth.market_pairs);
    const one = expectAnswer(await mcp.call('get_cryptocurrency_map', { symbol: 'BTC' }), 'one asset');
    expect(one).toMatch(/^1 cryptocurrency from start=1, by id:/);
    const three = expectAnswer(await mcp.call('list_categories', { limit: 3 }), 'three categories');
    expect(three).toMatch(/^3 categories from start=1:/m);
    expect(three).toMatch(/^3 categories kept as categories_/m);
    expect(expectAnswer(await mcp.call('list_categories', { symbol: 'BONK' }), 'of BONK')).toMatch(
      /^\d+ categor(y|ies) holding symbol BONK from start=1:/,
    );
    const categories = await mcp.call('list_categories', { symbol: 'BONK' });
    const names = data<Items<{ name: string }>>(categories).items.map((k) => k.name);
    expect(names).toContain('Meme');
    const fiat = expectAnswer(await mcp.call('get_fiat_map', { limit: 3 }), 'fiat');
    expect(fiat).toMatch(/^3 currencies; convert_id takes the id:/);
    expect(fiat).toMatch(/^3 currencies kept as fiat_map_/m);
  });

  it('performance, latest candle, legacy quotes and listings', async () => {
    const perf = await mcp.call('get_price_performance', { symbol: 'ETH', time_period: '24h,30d,365d' });
    const rows = expectAnswer(perf, 'performance');
    expect(rows).toMatch(/^Ethereum \(ETH\)[^\n]*\nPeriod \| Open/);
    // Within a day or two, the hour of a high or low; over longer periods, its day.
    expect(rows).toMatch(
      /^24h \| [^|]+ \| [^|]+ \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) \| [^|]+ \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) \| /m,
    );
    expect(rows).toMatch(/^30d \| [^|]+ \| [^|]+ \(\d{4}-\d\d-\d\d\) \| [^|]+ \(\d{4}-\d\d-\d\d\) \| /m);
    expect(
      data<Items<{ periods: { period: string }[] }>>(perf).items[0]!.periods.map((p) => p.period),
    ).toEqual(['24h', '30d', '365d']);
    const today = await mcp.call('get_ohlcv_latest', { symbol: 'BTC,ETH', convert: 'EUR' });
    expect(expectAnswer(today, 'ohlcv latest')).toMatch(/€/);
    const v2 = await mcp.call('get_cryptocurrency_quotes_latest_v2', { symbol: 'BTC' });
    expect(data<Items<{ id: number }>>(v2).items[0]!.id).toBe(1);
    const v1 = await mcp.call('get_cryptocurrency_listings_latest_v1', { tag: 'defi', limit: 5 });
    expect(data<Items<unknown>>(v1).items).toHaveLength(5);
  });

  it('content: news about an asset, posts paged by last_score, comments on a post', async () => {
    const news = await mcp.call('get_latest_content', { symbol: 'BTC', limit: 3 });
    expectAnswer(news, 'news');
    const posts = await mcp.call('get_latest_posts');
    const page = data<{
      last_score: string;
      items: { post_id: string; post_time: string; like_count: number }[];
    }>(posts);
    expect(page.items[0]!.post_time).toMatch(/^2026-11-22T\d\d:\d\d:00\.000Z$/);
    expect(typeof page.items[0]!.like_count).toBe('number');
    expect(expectAnswer(posts, 'posts')).toContain(`last_score=${page.last_score}`);
    const next = await mcp.call('get_latest_posts', { last_score: page.last_score });
    expect(data<{ items: { post_id: string }[] }>(next).items[0]!.post_id).not.toBe(page.items[0]!.post_id);
    expect(expectAnswer(posts, 'posts')).toMatch(/^\d+ latest posts, newest first:\n/);
    const top = await mcp.call('get_top_posts', { symbol: 'BTC' });
    expect(expectAnswer(top, 'top posts')).toMatch(/^\d+ top posts about symbol BTC, most popular first:\n/);
    // Counted in English: this post has a comment with one like (SVC_NOW's sandbox).
    const comments = expectAnswer(await mcp.call('get_post_comments', { post_id: '1795006800' }), 'comments');
    expect(comments).toMatch(/\(1 like\)$/m);
    expect(comments).not.toMatch(/\b1 (likes|comments)\b/);
  });

  it('k-line candles and points of a token, by chain and address', async () => {
    const candles = await mcp.call('get_kline_candles', { ...BONK_CHART, interval: '4h', limit: 12 });
    expect(expectAnswer(candles, 'candles')).toMatch(
      /^12 candles for \w+ on solana, close in USD: first \$[\d,.]+ \(\d{4}-\d\d-\d\d \d\d:00–\d\d:00 UTC\),/,
    );
    const rows = data<{ candles: { time: string; traders: number }[] }>(candles).candles;
    expect(rows).toHaveLength(12);
    expect(rows[1]!.time > rows[0]!.time).toBe(true);
    const points = await mcp.call('get_kline_points', { ...BONK_CHART, pm: 'm', limit: 5 });
    expect(data<{ series: string }>(points).series).toBe('market_cap');
    // A thousand grouped, as the kept table's line writes it.
    const many = await mcp.call('get_kline_points', { ...BONK_CHART, interval: '5min', limit: 1000 });
    expect(expectAnswer(many, 'points')).toMatch(/^1,000 price points for \w+ on solana:/);
  });
});
