/**
 * Keys, plans, the per-minute limit, credits and key info, the request counter, and determinism
 * under a frozen clock. Each case that counts starts its own sandbox, so counters start at zero.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USAGE_SYNC_MS } from '../../src/sandbox/accounts.js';
import { startSandbox, UNKNOWN_PATHS } from '../../src/sandbox/server.js';
import { newStateDir } from '../helpers/cli.js';
import { type Client, KEY_HEADER, openSandbox } from './helpers.js';

const FG = '/v3/fear-and-greed/latest';

describe('authentication', () => {
  let c: Client;
  beforeAll(async () => {
    c = await openSandbox();
  });
  afterAll(() => c.sandbox.close());

  it('answers 401 with code 1002 when the key is missing', async () => {
    const r = await c.get(FG, null);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ status: expect.objectContaining({ error_code: 1002, credit_count: 0 }) });
    expect(r.body.status.error_message).toContain(KEY_HEADER);
  });

  it('answers 401 with code 1001 for an unknown key, without echoing it', async () => {
    const r = await c.get(FG, 'not-a-real-key-123');
    expect(r.status).toBe(401);
    expect(r.body.status.error_code).toBe(1001);
    expect(r.text).not.toContain('not-a-real-key-123');
  });

  it('accepts each sandbox key on its plan', async () => {
    expect(c.sandbox.keys).toEqual([
      'sandbox-basic',
      'sandbox-hobbyist',
      'sandbox-startup',
      'sandbox-standard',
      'sandbox-professional',
      'sandbox-enterprise',
    ]);
    for (const key of c.sandbox.keys) expect((await c.get(FG, key)).status).toBe(200);
  });

  it('refuses methods other than GET', async () => {
    const r = await fetch(`${c.sandbox.url}${FG}`, {
      method: 'POST',
      headers: { [KEY_HEADER]: 'sandbox-basic' },
    });
    expect(r.status).toBe(405);
  });
});

describe('a configurable key header', () => {
  it('reads the key from the configured header only', async () => {
    const c = await openSandbox({ keyHeader: 'X-Other-Key' });
    try {
      expect((await c.get(FG)).status).toBe(401);
      const r = await c.get(FG, null, { 'X-Other-Key': 'sandbox-basic' });
      expect(r.status).toBe(200);
    } finally {
      await c.sandbox.close();
    }
  });
});

describe('plans', () => {
  let c: Client;
  beforeAll(async () => {
    c = await openSandbox({ rateLimit: false });
  });
  afterAll(() => c.sandbox.close());

  it('refuses the community endpoints below Standard with 403 1006 naming the plans that include them', async () => {
    for (const key of ['sandbox-basic', 'sandbox-hobbyist', 'sandbox-startup']) {
      const r = await c.get('/v1/community/trending/token', key);
      expect(r.status).toBe(403);
      expect(r.body.status).toMatchObject({ error_code: 1006, credit_count: 0 });
      expect(r.body.status.error_message).toContain('Standard, Professional, Enterprise');
    }
    for (const key of ['sandbox-standard', 'sandbox-professional', 'sandbox-enterprise']) {
      expect((await c.get('/v1/community/trending/topic', key)).status).toBe(200);
    }
  });

  it('gives Basic the endpoints the spec lists for all plans', async () => {
    for (const path of [
      '/v1/global-metrics/quotes/latest',
      '/v3/fear-and-greed/historical',
      '/v3/index/svc20-latest',
      '/v3/cryptocurrency/listings/latest',
    ]) {
      expect((await c.get(path, 'sandbox-basic')).status).toBe(200);
    }
  });

  it("limits historical price conversion by the plan's history depth", async () => {
    const recent = await c.get('/v2/tools/price-conversion?amount=1&id=1&time=2026-11-01', 'sandbox-basic');
    expect(recent.status).toBe(200);
    for (const key of ['sandbox-basic', 'sandbox-hobbyist']) {
      const older = await c.get('/v2/tools/price-conversion?amount=1&id=1&time=2026-09-01', key);
      expect(older.status).toBe(403);
      expect(older.body.status.error_message).toContain('1 month of conversion rates history');
    }
    expect(
      (await c.get('/v2/tools/price-conversion?amount=1&id=1&time=2026-09-01', 'sandbox-standard')).status,
    ).toBe(200);
  });
});

describe('the per-minute request limit', () => {
  it('refuses the 31st request of a basic key in a minute with 429 1008, per key', async () => {
    const c = await openSandbox();
    try {
      for (let k = 0; k < 30; k++) expect((await c.get(FG, 'sandbox-basic')).status).toBe(200);
      const r = await c.get(FG, 'sandbox-basic');
      expect(r.status).toBe(429);
      expect(r.body.status).toMatchObject({ error_code: 1008, credit_count: 0 });
      expect(r.body.status.error_message).toContain('30 requests per minute');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      // Refusals of other kinds count too, and other keys have their own minute.
      expect((await c.get(FG, 'sandbox-hobbyist')).status).toBe(200);
      expect((await c.get('/v1/key/info', 'sandbox-basic')).status).toBe(429);
    } finally {
      await c.sandbox.close();
    }
  });

  it('allows 60 a minute on Standard, and can be switched off', async () => {
    const limited = await openSandbox();
    const open = await openSandbox({ rateLimit: false });
    try {
      const statuses: number[] = [];
      for (let k = 0; k < 61; k++) statuses.push((await limited.get(FG, 'sandbox-standard')).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses[60]).toBe(429);
      for (let k = 0; k < 40; k++) expect((await open.get(FG, 'sandbox-basic')).status).toBe(200);
    } finally {
      await limited.sandbox.close();
      await open.sandbox.close();
    }
  });
});

describe('credits and key info', () => {
  it('charges 200 answers only, by the credit rules, and reports usage in key info', async () => {
    const c = await openSandbox();
    try {
      const key = 'sandbox-standard';
      const charged = [
        await c.get('/v3/cryptocurrency/listings/latest?limit=5000', key), // 231 records: 2
        await c.get('/v3/cryptocurrency/quotes/latest?id=1&convert=USD,EUR', key), // 1 + 1 convert
        await c.get(FG, key), // 1
        await c.get('/v1/community/trending/token', key), // 0
      ].map((r) => r.body.status.credit_count);
      expect(charged).toEqual([2, 2, 1, 0]);
      const refused = await c.get('/v3/fear-and-greed/historical?limit=0', key);
      expect(refused.body.status.credit_count).toBe(0);
      const info = await c.get('/v1/key/info', key);
      expect(info.body.status.credit_count).toBe(0);
      expect(info.body.data.plan).toMatchObject({ credit_limit_monthly: 500_000, rate_limit_minute: 60 });
      expect(info.body.data.usage).toEqual({
        current_minute: { requests_made: 6, requests_left: 54 },
        current_day: { credits_used: 5, credits_left: 499_995 },
        current_month: { credits_used: 5, credits_left: 499_995 },
      });
      // Another key's usage is its own.
      const other = await c.get('/v1/key/info', 'sandbox-enterprise');
      expect(other.body.data.usage.current_month.credits_used).toBe(0);
    } finally {
      await c.sandbox.close();
    }
  });

  it('refuses with 429 1010 once the monthly allowance is spent; key info still answers', async () => {
    const c = await openSandbox({ monthlyCredits: { basic: 3 } });
    try {
      for (let k = 0; k < 3; k++) expect((await c.get(FG, 'sandbox-basic')).status).toBe(200);
      const r = await c.get(FG, 'sandbox-basic');
      expect(r.status).toBe(429);
      expect(r.body.status).toMatchObject({ error_code: 1010, credit_count: 0 });
      expect(r.body.status.error_message).toContain('monthly credit limit of 3');
      const info = await c.get('/v1/key/info', 'sandbox-basic');
      expect(info.status).toBe(200);
      expect(info.body.data.usage.current_month).toEqual({ credits_used: 3, credits_left: 0 });
      expect((await c.get(FG, 'sandbox-hobbyist')).status).toBe(200);
    } finally {
      await c.sandbox.close();
    }
  });
});

describe('usage kept in a file (the embedded sandbox)', () => {
  const monthUsed = async (c: Client) =>
    (await c.get('/v1/key/info')).body.data.usage.current_month.credits_used as number;

  it("two sandboxes on one file: each sees the other's charges soon after, none lost or counted twice", async () => {
    const usageFile = join(newStateDir(), 'sandbox-usage.json');
    const [a, b] = await Promise.all([openSandbox({ usageFile }), openSandbox({ usageFile })]);
    try {
      // Interleaved charges, 1 credit each: three on one, two on the other.
      await Promise.all([a.get(FG), b.get(FG), a.get(FG), b.get(FG), a.get(FG)]);
      // Each counts its own at once, and the other's once it is written (within the delay).
      expect(await monthUsed(a)).toBeGreaterThanOrEqual(3);
      const timing = { timeout: 20 * USAGE_SYNC_MS, interval: USAGE_SYNC_MS / 4 };
      await vi.waitFor(async () => expect(await monthUsed(a)).toBe(5), timing);
      await vi.waitFor(async () => expect(await monthUsed(b)).toBe(5), timing);
      await Promise.all([a.get(FG), b.get(FG)]);
      await vi.waitFor(async () => expect(await monthUsed(b)).toBe(7), timing);
    } finally {
      await Promise.all([a.sandbox.close(), b.sandbox.close()]);
    }
  });

  it('a long answer still being built when it closes is dropped: not sent, not charged', async () => {
    const usageFile = join(newStateDir(), 'sandbox-usage.json');
    // Several slices of building (10,000 points: 85 ms or more here, warm), so that the close comes
    // before the last: 2,000 points (30 ms) were at times built in one slice, and sent, on Node 24.
    const history = '/v1/global-metrics/quotes/historical?count=10000&interval=5m';
    const first = await openSandbox({ usageFile, rateLimit: false });
    const before = first.sandbox.stats.requests;
    const dropped = first.get(history).catch((error: unknown) => error);
    while (first.sandbox.stats.requests === before) await new Promise((resolve) => setImmediate(resolve));
    await first.sandbox.close();
    expect(await dropped).toBeInstanceOf(Error);
    const next = await openSandbox({ usageFile, rateLimit: false });
    try {
      // Long answers are built one at a time: this one is built once the dropped one is done.
      const answered = await next.get(history);
      expect(answered.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3 * USAGE_SYNC_MS));
      expect(await monthUsed(next)).toBe(answered.body.status.credit_count);
    } finally {
      await next.sandbox.close();
    }
  });

  it('closing writes the charges that wait: a sandbox started after counts them', async () => {
    const usageFile = join(newStateDir(), 'sandbox-usage.json');
    const first = await openSandbox({ usageFile });
    for (let k = 0; k < 3; k++) expect((await first.get(FG)).status).toBe(200);
    await first.sandbox.close();
    const next = await openSandbox({ usageFile });
    try {
      expect(await monthUsed(next)).toBe(3);
    } finally {
      await next.sandbox.close();
    }
  });
});

describe('request counter', () => {
  it('counts every request that reached the server, by path', async () => {
    const c = await openSandbox();
    try {
      expect(c.sandbox.stats.requests).toBe(0);
      await c.get(FG);
      await c.get(FG, null);
      await c.get('/nowhere');
      expect(c.sandbox.stats.requests).toBe(3);
      expect(c.sandbox.stats.byPath.get(FG)).toBe(2);
      expect(c.sandbox.stats.byPath.get(UNKNOWN_PATHS)).toBe(1);
    } finally {
      await c.sandbox.close();
    }
  });

  it('keeps the per-path counts bounded whatever paths are asked for', async () => {
    const c = await openSandbox();
    try {
      await Promise.all(Array.from({ length: 200 }, (_, i) => c.get(`/nowhere/${i}`)));
      expect(c.sandbox.stats.requests).toBe(200);
      expect(c.sandbox.stats.byPath.size).toBe(1);
      expect(c.sandbox.stats.byPath.get(UNKNOWN_PATHS)).toBe(200);
    } finally {
      await c.sandbox.close();
    }
  });
});

describe('clock', () => {
  const PATHS = [
    '/v1/global-metrics/quotes/latest?convert=USD,EUR',
    '/v1/global-metrics/quotes/historical?interval=1h&count=50',
    FG,
    '/v3/fear-and-greed/historical?limit=100',
    '/v1/altcoin-season-index/latest',
    '/v1/altcoin-season-index/historical?timeframe=30d',
    '/v3/index/svc100-latest',
    '/v3/index/svc20-historical?count=5',
    '/v1/community/trending/token',
    '/v1/community/trending/topic',
    '/v1/dex/platform/list',
    '/v3/cryptocurrency/listings/latest?limit=5000',
    '/v3/cryptocurrency/quotes/latest?id=1,1027,825',
    '/v1/cryptocurrency/map',
    '/v2/tools/price-conversion?amount=3&symbol=ETH&convert=BTC',
    '/v3/fear-and-greed/historical?limit=9999',
  ];

  it('a frozen clock answers byte-identical bodies, in two separate sandboxes', async () => {
    const a = await openSandbox();
    const b = await openSandbox();
    try {
      for (const path of PATHS) {
        const first = await a.get(path);
        const again = await a.get(path);
        const other = await b.get(path);
        expect(first.text.length).toBeGreaterThan(20);
        expect(again.text, path).toBe(first.text);
        expect(other.text, path).toBe(first.text);
      }
    } finally {
      await a.sandbox.close();
      await b.sandbox.close();
    }
  });

  it('a different frozen instant answers differently', async () => {
    const a = await openSandbox();
    const b = await openSandbox({ now: '2026-11-22T13:00:00Z' });
    try {
      const path = '/v3/cryptocurrency/quotes/latest?id=1';
      expect((await b.get(path)).body.data[0].quote.USD.price).not.toBe(
        (await a.get(path)).body.data[0].quote.USD.price,
      );
    } finally {
      await a.sandbox.close();
      await b.sandbox.close();
    }
  });

  it('runs on real time by default', async () => {
    const sandbox = await startSandbox();
    try {
      const r = await fetch(`${sandbox.url}${FG}`, { headers: { [KEY_HEADER]: 'sandbox-basic' } });
      const body = (await r.json()) as { status: { timestamp: string } };
      expect(Math.abs(Date.parse(body.status.timestamp) - Date.now())).toBeLessThan(10_000);
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await sandbox.close();
    }
  });
});
