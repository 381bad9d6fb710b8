/**
 * The listed content, k-line and fiat endpoints over real HTTP, and the plans the endpoints' table gives each
 * path, as the sandbox's own table enforces them: the lowest plan answers, the plan below it is
 * refused with 403 / 1006 naming the plans that have it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/endpoints/index.js';
import { PLANS } from '../../src/kit/index.js';
import { NOW_S } from '../helpers/now.js';
import { defaultArgs } from '../helpers/tool-names.js';
import { type Client, DAY, openSandbox, unix } from './helpers.js';

let c: Client;
beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
});
afterAll(() => c.sandbox.close());

async function ok(path: string, credits?: number) {
  const r = await c.get(path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
  if (credits !== undefined) expect(r.body.status.credit_count, path).toBe(credits);
  return r.body;
}

describe('content', () => {
  it('latest: news about real assets, newest first, free; filtered by asset, kind and language', async () => {
    const all = (await ok('/v1/content/latest?limit=20', 0)).data;
    expect(all).toHaveLength(20);
    const times = all.map((n: { released_at: string }) => unix(n.released_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all[0]).toMatchObject({
      title: expect.any(String),
      type: expect.any(String),
      source_url: expect.any(String),
    });
    expect(all[0].assets[0]).toMatchObject({ id: expect.any(Number), symbol: expect.any(String) });
    const symbol = all[0].assets[0].symbol;
    const about = (await ok(`/v1/content/latest?symbol=${symbol}&limit=5`)).data;
    for (const n of about) expect(n.assets.map((a: { symbol: string }) => a.symbol)).toContain(symbol);
    const alexandria = (await ok('/v1/content/latest?news_type=alexandria&limit=5')).data;
    for (const n of alexandria) expect(n.type).toBe('alexandria');
    expect((await ok('/v1/content/latest?language=de')).data).toEqual([]);
  });

  it('posts: {list, last_score}, counts and times as strings (milliseconds), paged by last_score', async () => {
    const first = (await ok('/v1/content/posts/latest', 0)).data;
    expect(first.list).toHaveLength(10);
    const post = first.list[0];
    expect(post).toMatchObject({
      post_id: expect.stringMatching(/^\d+$/),
      like_count: expect.stringMatching(/^\d+$/),
    });
    expect(post.post_time).toMatch(/^\d{13}$/);
    expect(first.last_score).toBe(first.list.at(-1).post_time);
    const next = (await ok(`/v1/content/posts/latest?last_score=${first.last_score}`)).data;
    expect(Number(next.list[0].post_time)).toBeLessThan(Number(first.last_score));
    const top = (await ok('/v1/content/posts/top', 0)).data;
    expect(Number(top.last_score)).toBeGreaterThan(0);
    const more = (await ok(`/v1/content/posts/top?last_score=${top.last_score}`)).data;
    expect(more.list.map((p: { post_id: string }) => p.post_id)).not.toContain(top.list[0].post_id);
  });

  it('comments: as many as the post says, after it, free; an id that is no post has none', async () => {
    const older = (await ok(`/v1/content/posts/latest?last_score=${(NOW_S - DAY) * 1000}`)).data.list;
    const post = older.find((p: { comment_count: string }) => Number(p.comment_count) > 0);
    const comments = (await ok(`/v1/content/posts/comments?post_id=${post.post_id}`, 0)).data;
    expect(comments).toHaveLength(Number(post.comment_count));
    for (const k of comments) expect(Number(k.post_time)).toBeGreaterThan(Number(post.post_time));
    expect((await ok('/v1/content/posts/comments?post_id=12345')).data).toEqual([]);
  });
});

describe('k-line', () => {
  const bonk = defaultArgs('get_kline_candles') as { platform: string; address: string };
  const chart = (path: string, query: string) =>
    `/v1/k-line/${path}?platform=${bonk.platform}&address=${bonk.address}&${query}`;

  it('candles: rows of [open, high, low, close, volume, time, traders], the same prices as the OHLCV candles', async () => {
    const rows = (await ok(chart('candles', 'interval=1d&limit=3'), 1)).data as number[][];
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toHaveLength(7);
    const ohlcv = (await ok('/v2/cryptocurrency/ohlcv/historical?symbol=BONK&count=3')).data.BONK[0].quotes;
    rows.forEach(([open, high, low, close, , time], k) => {
      const q = ohlcv[k].quote.USD;
      expect(time).toBe(unix(ohlcv[k].time_open));
      expect([open, high, low]).toEqual([q.open, q.high, q.low]);
      if (k < 2) expect(close).toBe(q.close);
    });
  });

  it('points: [price, volume, time]; pm=m gives market cap; native prices in the chain coin', async () => {
    const price = (await ok(chart('points', 'interval=1h&limit=2'), 1)).data as number[][];
    expect(price[0]).toHaveLength(3);
    const cap = (await ok(chart('points', 'interval=1h&limit=2&pm=m'))).data as number[][];
    expect(cap[0]![0]! / price[0]![0]!).toBeGreaterThan(1e9);
    const native = (await ok(chart('points', 'interval=1h&limit=2&unit=native'))).data as number[][];
    expect(native[0]![0]).toBeLessThan(price[0]![0]!);
  });

  it('charges 1 per started 100 rows; refuses an address on the wrong chain or none known', async () => {
    expect((await ok(chart('candles', 'interval=1min&limit=101'))).status.credit_count).toBe(2);
    const wrongChain = await c.get(`/v1/k-line/candles?platform=ethereum&address=${bonk.address}`);
    expect(wrongChain.status).toBe(400);
    expect(wrongChain.body.status.error_message).toMatch(/"address".*Ethereum/);
    const unknownChain = await c.get(`/v1/k-line/candles?platform=narnia&address=${bonk.address}`);
    expect(unknownChain.body.status.error_message).toMatch(/"platform"/);
  });
});

describe('fiat map', () => {
  it('the fiat currencies by id, the dollar 2781, metals on request; 1 credit whatever the size', async () => {
    const fiat = (await ok('/v1/fiat/map', 1)).data as { id: number; symbol: string }[];
    expect(fiat.find((f) => f.symbol === 'USD')?.id).toBe(2781);
    expect(fiat.map((f) => f.id)).toEqual([...fiat.map((f) => f.id)].sort((a, b) => a - b));
    const metals = (await ok('/v1/fiat/map?include_metals=true', 1)).data as { symbol: string }[];
    expect(metals.length - fiat.length).toBe(4);
    expect(metals.map((m) => m.symbol)).toEqual(expect.arrayContaining(['XAU', 'XAG', 'XPT', 'XPD']));
  });
});

describe('plans of every path', () => {
  it("each path answers its lowest plan's key and refuses the plan below with 403 / 1006", async () => {
    for (const e of endpoints) {
      const query = new URLSearchParams(
        Object.entries(defaultArgs(e.name)).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const path = `${e.path}${query ? `?${query}` : ''}`;
      const lowest = e.plans[0]!;
      const allowed = await c.get(path, `sandbox-${lowest}`);
      expect(allowed.status, `${path} on ${lowest}: ${allowed.text.slice(0, 200)}`).toBe(200);
      const below = PLANS[PLANS.indexOf(lowest) - 1];
      if (below === undefined) continue;
      const refused = await c.get(path, `sandbox-${below}`);
      expect(refused.status, `${path} on ${below}`).toBe(403);
      expect(refused.body.status.error_code).toBe(1006);
      expect(refused.body.status.error_message).toContain(lowest.charAt(0).toUpperCase() + lowest.slice(1));
    }
  });
});
