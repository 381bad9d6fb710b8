/**
 * Every tool, called through each client over each transport (both clients check structuredContent
 * against the tool's outputSchema) on the embedded sandbox: default arguments, representative
 * arguments, format=json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, expectAnswer, SANDBOX_NOTE } from '../helpers/answers.js';
import { firstText, textOf } from '../helpers/cli.js';
import { openSession } from '../helpers/in-process.js';
import { kindLabel, SESSION_KINDS, type Session } from '../helpers/session.js';
import { DEFAULT_TOOLS, defaultArgs } from '../helpers/tool-names.js';

const FEAR_AND_GREED_LINE = /^Fear & Greed (\d{1,3}) – (Extreme Fear|Fear|Neutral|Greed|Extreme Greed)$/;

describe.each(SESSION_KINDS.map((kind) => [kindLabel(kind), kind] as const))('%s', (_, kind) => {
  let mcp: Session;

  beforeAll(async () => {
    mcp = await openSession(kind);
  });
  afterAll(() => mcp?.close());

  describe('every tool with default arguments', () => {
    it('lists every default tool', () => {
      expect(mcp.tools.map((t) => t.name)).toEqual(DEFAULT_TOOLS);
    });

    it('each answers: not an error, text ≤ 4000 chars ending with the sandbox note, structuredContent', async () => {
      for (const tool of mcp.tools) {
        const result = await mcp.call(tool.name, defaultArgs(tool.name));
        const text = expectAnswer(result, tool.name);
        expect(text.length, tool.name).toBeLessThanOrEqual(4000);
        expect(text.split('\n')[0]!.length, tool.name).toBeGreaterThan(10);
        // Every result says what it cost and how fresh it is, local tools' too.
        expect(result._meta, tool.name).toMatchObject({
          credits: expect.any(Number),
          cached: expect.any(Boolean),
          joined: expect.any(Boolean),
          age_seconds: expect.any(Number),
          sandbox: true,
        });
      }
    });

    it('format=json: one text block that parses to exactly structuredContent; the sandbox mark is in _meta', async () => {
      for (const tool of mcp.tools) {
        const result = await mcp.call(tool.name, { ...defaultArgs(tool.name), format: 'json' });
        expect(result.isError, `${tool.name}: ${textOf(result)}`).toBeFalsy();
        const first = firstText(result);
        expect(first, tool.name).not.toContain('\n'); // compact JSON
        expect(JSON.parse(first), tool.name).toStrictEqual(result.structuredContent);
        expect(result.content, tool.name).toHaveLength(1);
        expect(result._meta?.sandbox, tool.name).toBe(true);
        expect(first, tool.name).not.toContain(SANDBOX_NOTE);
      }
    });

    it('format=text gives the same structuredContent as format=json, the rows of its own page', async () => {
      for (const name of ['get_global_metrics_latest', 'get_svc20_index_latest']) {
        const text = await mcp.call(name, { format: 'text' });
        const json = await mcp.call(name, { format: 'json' });
        expect(text.structuredContent, name).toStrictEqual(json.structuredContent);
      }
      // A list's text page holds the rows its text shows; the JSON page all that fit.
      const text = data<{ items: unknown[] }>(await mcp.call('get_fear_and_greed_historical'));
      const json = data<{ items: unknown[] }>(
        await mcp.call('get_fear_and_greed_historical', { format: 'json' }),
      );
      expect(json.items.slice(0, text.items.length)).toStrictEqual(text.items);
    });
  });

  describe('fear and greed', () => {
    it('first line reads "Fear & Greed <value> – <label>" and the label is the value’s band', async () => {
      const result = await mcp.call('get_fear_and_greed_latest');
      const text = expectAnswer(result, 'fear and greed');
      const match = FEAR_AND_GREED_LINE.exec(text.split('\n')[0]!);
      expect(match, text).not.toBeNull();
      const value = Number(match?.[1]);
      const { value: structuredValue, value_classification } = data<{
        value: number;
        value_classification: string;
      }>(result);
      expect(structuredValue).toBe(value);
      expect(value_classification).toBe(match?.[2]);
      expect(match?.[2]).toBe(band(value));
    });

    it('historical: limit, start, newest first, and every label matches its band', async () => {
      const ten = data<{
        start: number;
        items: { timestamp: string; value: number; value_classification: string }[];
      }>(await mcp.call('get_fear_and_greed_historical', { limit: 10 }));
      expect(ten.start).toBe(1);
      expect(ten.items).toHaveLength(10);
      const times = ten.items.map((i) => Date.parse(i.timestamp));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      for (const item of ten.items) {
        expect(new Date(item.timestamp).toISOString().slice(11)).toBe('00:00:00.000Z');
        expect(item.value_classification, String(item.value)).toBe(band(item.value));
      }
      const paged = await mcp.call('get_fear_and_greed_historical', { start: 4, limit: 3 });
      expectAnswer(paged, 'paged');
      expect(data<{ items: unknown[] }>(paged).items).toEqual(ten.items.slice(3, 6));
    });

    it('historical: its headline says each value is the day’s at 00:00 UTC, and where the value now is', async () => {
      const text = expectAnswer(await mcp.call('get_fear_and_greed_historical', { limit: 3 }), 'headline');
      expect(text.split('\n')[0]).toMatch(
        /^Fear & Greed \d+ – [A-Za-z ]+ on \d{4}-\d{2}-\d{2} at 00:00 UTC \(its value now: get_fear_and_greed_latest\); 3 daily values: first /,
      );
    });

    it('historical with limit=500: every value in one text page, a row each, then the service may have more', async () => {
      const result = await mcp.call('get_fear_and_greed_historical', { limit: 500 });
      const text = expectAnswer(result, 'limit 500');
      expect(data<{ items: unknown[] }>(result).items).toHaveLength(500);
      expect(text.match(/^\d{4}-\d{2}-\d{2} \| \d+ \| /gm)).toHaveLength(500);
      expect(text).toMatch(/^Next page: \{"start":501,"limit":500\}$/m);
    });
  });

  function band(value: number): string {
    if (value < 20) return 'Extreme Fear';
    if (value < 40) return 'Fear';
    if (value < 60) return 'Neutral';
    if (value < 80) return 'Greed';
    return 'Extreme Greed';
  }

  describe('global metrics', () => {
    type Latest = { btc_dominance: number; quotes: { currency: string; total_market_cap: number }[] };

    it('convert=EUR quotes in euros', async () => {
      const result = await mcp.call('get_global_metrics_latest', { convert: 'EUR' });
      const text = expectAnswer(result, 'EUR');
      expect(data<Latest>(result).quotes.map((q) => q.currency)).toEqual(['EUR']);
      expect(text).toMatch(/€|EUR/);
    });

    it('convert=USD,EUR,BTC gives three quotes and a table of the others', async () => {
      const result = await mcp.call('get_global_metrics_latest', { convert: 'USD,EUR,BTC' });
      const text = expectAnswer(result, 'three');
      const latest = data<Latest>(result);
      expect(latest.quotes.map((q) => q.currency)).toEqual(['USD', 'EUR', 'BTC']);
      expect(latest.btc_dominance).toBeGreaterThan(0);
      expect(latest.btc_dominance).toBeLessThan(100);
      expect(text).toMatch(/EUR/);
      expect(text).toMatch(/BTC/);
    });

    it('convert_id=2790 answers, keyed by the id, and the text shows euros', async () => {
      const result = await mcp.call('get_global_metrics_latest', { convert_id: '2790' });
      const text = expectAnswer(result, 'convert_id');
      expect(data<Latest>(result).quotes.map((q) => q.currency)).toEqual(['2790']);
      expect(text).toMatch(/market cap €[\d.]+T/);
      expect(text).not.toContain('2790');
    });

    type History = { interval: string; quotes: { timestamp: string; quote: { currency: string }[] }[] };

    it('historical: interval and count', async () => {
      const result = await mcp.call('get_global_metrics_historical', { interval: '1h', count: 24 });
      expectAnswer(result, '1h');
      const history = data<History>(result);
      expect(history.interval).toBe('1h');
      expect(history.quotes.length).toBeGreaterThan(0);
      expect(history.quotes.length).toBeLessThanOrEqual(24);
    });

    it('historical: a time range with a calendar interval, in EUR', async () => {
      const result = await mcp.call('get_global_metrics_historical', {
        time_start: '2026-11-01T00:00:00Z',
        time_end: '2026-11-08T00:00:00Z',
        interval: 'daily',
        convert: 'EUR',
      });
      expectAnswer(result, 'range');
      const history = data<History>(result);
      expect(history.quotes.length).toBeGreaterThan(0);
      expect(history.quotes.length).toBeLessThanOrEqual(8);
      for (const q of history.quotes) {
        const t = Date.parse(q.timestamp);
        expect(t).toBeGreaterThanOrEqual(Date.parse('2026-11-01T00:00:00Z'));
        expect(t).toBeLessThanOrEqual(Date.parse('2026-11-08T00:00:00Z'));
        expect(q.quote.map((c) => c.currency)).toEqual(['EUR']);
      }
    });

    it('historical: Unix-second bounds, and a long 5m series a text page at a time, every point of it shown', async () => {
      const bounded = await mcp.call('get_global_metrics_historical', { time_end: 1_795_000_000, count: 3 });
      expectAnswer(bounded, 'Unix-second time_end');
      const long = await mcp.call('get_global_metrics_historical', { interval: '5m', count: 1000 });
      const text = expectAnswer(long, '5m x 1000');
      const shown = data<History>(long).quotes.length;
      expect(shown).toBeGreaterThan(100);
      expect(shown).toBeLessThan(1000);
      expect(text.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \| /gm)).toHaveLength(shown);
      expect(text).toMatch(new RegExp(`^Rows 1–${shown} of [\\d,]+; next is the following page, free`, 'm'));
    });

    it('historical: monthly over a year', async () => {
      const result = await mcp.call('get_global_metrics_historical', { interval: 'monthly', count: 12 });
      expectAnswer(result, 'monthly');
      for (const q of data<History>(result).quotes) expect(q.timestamp).toMatch(/^\d{4}-\d{2}-01T00:00:00/);
    });
  });

  describe('altcoin season', () => {
    it('latest reads the season from the index', async () => {
      const result = await mcp.call('get_altcoin_season_index_latest');
      const text = expectAnswer(result, 'altcoin');
      const { altcoin_index, season } = data<{ altcoin_index: number; season: string }>(result);
      expect(altcoin_index).toBeGreaterThanOrEqual(0);
      expect(altcoin_index).toBeLessThanOrEqual(100);
      expect(season).toBe(
        altcoin_index > 75 ? 'altcoin season' : altcoin_index < 25 ? 'bitcoin season' : 'neither season',
      );
      expect(text).toContain(season);
    });

    it.each(['7d', '30d', '90d'])('historical timeframe=%s', async (timeframe) => {
      const result = await mcp.call('get_altcoin_season_index_historical', { timeframe });
      expectAnswer(result, timeframe);
      const series = data<{ timeframe: string; points: { timestamp: string }[] }>(result);
      expect(series.timeframe).toBe(timeframe);
      expect(series.points.length).toBeGreaterThan(1);
      const times = series.points.map((p) => Date.parse(p.timestamp));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      const span = (times.at(-1) ?? 0) - times[0]!;
      expect(span).toBeLessThanOrEqual(Number.parseInt(timeframe, 10) * 86_400_000);
    });
  });

  describe('indices', () => {
    type Latest = { index: string; value: number; constituents: { weight: number; priceUsd?: number }[] };
    type History = { index: string; interval: string; items: { update_time: string; value: number }[] };

    it.each([
      ['svc100', 100],
      ['svc20', 20],
    ])('%s latest: %i constituents whose weights sum to 100', async (index, size) => {
      const result = await mcp.call(`get_${index}_index_latest`);
      const text = expectAnswer(result, index);
      const latest = data<Latest>(result);
      expect(latest.index).toBe(index);
      expect(latest.constituents).toHaveLength(size);
      expect(latest.constituents.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(100, 1);
      if (index === 'svc20') for (const c of latest.constituents) expect(c.priceUsd).toBeGreaterThan(0);
      expect(text).toMatch(new RegExp(`^${index.toUpperCase()} `));
    });

    it.each(['svc100', 'svc20'])('%s historical: 5m × 12, and a bounded range at 15m', async (index) => {
      const five = await mcp.call(`get_${index}_index_historical`, { interval: '5m', count: 12 });
      expectAnswer(five, `${index} 5m`);
      const history = data<History>(five);
      expect(history.interval).toBe('5m');
      expect(history.items.length).toBeGreaterThan(0);
      expect(history.items.length).toBeLessThanOrEqual(12);
      const times = history.items.map((i) => Date.parse(i.update_time));
      expect([...times].sort((a, b) => a - b)).toEqual(times);

      const range = await mcp.call(`get_${index}_index_historical`, {
        time_start: '2026-11-22T09:00:00Z',
        time_end: '2026-11-22T11:00:00Z',
        interval: '15m',
        count: 10,
      });
      expectAnswer(range, `${index} range`);
      for (const item of data<History>(range).items) {
        expect(Date.parse(item.update_time)).toBeGreaterThanOrEqual(Date.parse('2026-11-22T09:00:00Z'));
        expect(Date.parse(item.update_time)).toBeLessThanOrEqual(Date.parse('2026-11-22T11:00:00Z'));
      }
    });
  });

  describe('community', () => {
    it('trending tokens with limit=3', async () => {
      const result = await mcp.call('get_trending_community_tokens', { limit: 3 });
      expectAnswer(result, 'tokens');
      const items = data<{ items: { rank: number }[] }>(result).items;
      expect(items.map((t) => t.rank)).toEqual([1, 2, 3]);
    });

    it('trending topics with limit=1 and limit=5', async () => {
      const one = await mcp.call('get_trending_community_topics', { limit: 1 });
      expectAnswer(one, 'topic 1');
      expect(data<{ items: unknown[] }>(one).items).toHaveLength(1);
      const five = await mcp.call('get_trending_community_topics', { limit: 5 });
      expectAnswer(five, 'topic 5');
      expect(data<{ items: unknown[] }>(five).items.length).toBeGreaterThan(1);
    });
  });

  describe('DEX platforms', () => {
    it('every listed platform answers its own detail', async () => {
      const list = data<{ items: { id: number; name: string }[] }>(
        await mcp.call('list_dex_platforms'),
      ).items;
      expect(list.length).toBeGreaterThan(1);
      for (const platform of list.slice(0, 5)) {
        const result = await mcp.call('get_dex_platform', { platformName: platform.name });
        const text = expectAnswer(result, platform.name);
        expect(data<{ id: number; name: string }>(result)).toMatchObject({
          id: platform.id,
          name: platform.name,
        });
        expect(text.startsWith(platform.name)).toBe(true);
      }
    });

    it('an unknown platform name is an error result from the service, not a crash', async () => {
      const result = await mcp.call('get_dex_platform', { platformName: 'Not A Chain' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/platformName|Not A Chain/);
    });
  });
});
