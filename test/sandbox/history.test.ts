/**
 * The historical endpoints: the global-metrics rules 1–4 and calendar intervals, history depth per
 * plan, the index series, fear-and-greed paging. Expected timestamps are worked out here from the
 * gap slots, independently of the sandbox's own period code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGapSlot } from '../../src/sandbox/market/time.js';
import { NOW_S } from '../helpers/now.js';
import { type Client, DAY, KEY_HEADER, openSandbox, unix } from './helpers.js';

const SLOT = 300;
const HISTORY = '/v1/global-metrics/quotes/historical';

let c: Client;
beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
});
afterAll(() => c.sandbox.close());

const iso = (t: number) => new Date(t * 1000).toISOString();

/** First quote slot at or after `from`, up to `to`. */
function firstSlotFrom(from: number, to: number): number | undefined {
  for (let t = Math.ceil(from / SLOT) * SLOT; t <= to; t += SLOT) if (!isGapSlot(t)) return t;
  return undefined;
}

/** Last quote slot at or before `from`, down to `to`. */
function lastSlotBefore(from: number, to: number): number | undefined {
  for (let t = Math.floor(from / SLOT) * SLOT; t >= to; t -= SLOT) if (!isGapSlot(t)) return t;
  return undefined;
}

async function timestamps(query: string, key = 'sandbox-enterprise'): Promise<number[]> {
  const r = await c.get(`${HISTORY}?${query}`, key);
  expect(r.status, r.text).toBe(200);
  return r.body.data.quotes.map((q: { timestamp: string }) => unix(q.timestamp));
}

/** A 5-minute gap slot within the last days, to build requests around. */
function recentGap(): number {
  let t = NOW_S - 3 * DAY;
  while (!isGapSlot(t)) t -= SLOT;
  return t;
}

describe('global metrics historical: the spec rules', () => {
  it('rule 1: one quote per interval period between time_start and time_end', async () => {
    const start = unix('2026-11-01T00:00:00Z');
    const end = unix('2026-11-10T00:00:00Z');
    const got = await timestamps(`time_start=2026-11-01&time_end=2026-11-10T00:00:00Z&interval=1d&count=100`);
    const expected = Array.from({ length: 10 }, (_, k) =>
      firstSlotFrom(start + k * DAY, Math.min(start + (k + 1) * DAY - 1, end)),
    );
    expect(got.map(iso)).toEqual(expected.map((t) => iso(t as number)));
  });

  it('rule 1: count limits the number of periods (default 10)', async () => {
    expect(await timestamps('time_start=2026-10-01&interval=1d')).toHaveLength(10);
    expect(await timestamps('time_start=2026-10-01&interval=1d&count=4')).toHaveLength(4);
  });

  it('rule 2: without time_start, periods count backward from time_end', async () => {
    const end = unix('2026-11-20T06:30:00Z');
    const got = await timestamps('time_end=2026-11-20T06:30:00Z&interval=1d&count=5');
    const expected = [4, 3, 2, 1, 0].map((k) => lastSlotBefore(end - k * DAY, end - (k + 1) * DAY + 1));
    expect(got.map(iso)).toEqual(expected.map((t) => iso(t as number)));
    expect(iso(got[4]!)).toBe(iso(lastSlotBefore(end, end - DAY) as number));
  });

  it('rule 3: the quote closest to the requested time within the period', async () => {
    // Periods start at 10:02 (between slots): the closest quote inside each period is 10:05, 11:05.
    const got = await timestamps(
      'time_start=2026-11-20T10:02:00Z&time_end=2026-11-20T12:00:00Z&interval=1h&count=5',
    );
    const start = unix('2026-11-20T10:02:00Z');
    const expected = [0, 1].map((k) => firstSlotFrom(start + k * 3600, start + (k + 1) * 3600 - 1));
    expect(got.map(iso)).toEqual(expected.map((t) => iso(t as number)));
    // Around a gap: a 1h period starting exactly on a gap slot takes the next slot.
    const gap = recentGap();
    const around = await timestamps(`time_start=${gap}&time_end=${gap + 3599}&interval=1h`);
    expect(around).toEqual([firstSlotFrom(gap, gap + 3599)]);
    expect(around[0]).toBeGreaterThan(gap);
  });

  it('rule 4: a period with no quote is skipped', async () => {
    const gap = recentGap();
    // 5-minute periods from 2 hours before the gap to 2 hours after: exactly the gap is missing.
    const from = gap - 24 * SLOT;
    const got = await timestamps(`time_start=${from}&time_end=${gap + 24 * SLOT}&interval=5m&count=1000`);
    const expected: number[] = [];
    for (let t = from; t <= gap + 24 * SLOT; t += SLOT) if (!isGapSlot(t)) expected.push(t);
    expect(got).toEqual(expected);
    expect(got).not.toContain(gap);
    expect(got.length).toBeLessThan(49);
  });

  it('rule 4 also skips periods before the six years of history', async () => {
    const got = await timestamps('interval=yearly&count=8');
    // 2019 has no data at all; 2020 only from 2020-11-22T12:00, its closest quote to 2020-01-01.
    expect(got.map(iso)).toEqual([
      iso(firstSlotFrom(unix('2020-11-22T12:00:00Z'), NOW_S) as number),
      ...[2021, 2022, 2023, 2024, 2025, 2026].map((y) =>
        iso(firstSlotFrom(Date.UTC(y, 0, 1) / 1000, NOW_S) as number),
      ),
    ]);
  });
});

describe('global metrics historical: calendar intervals start at UTC calendar boundaries', () => {
  it('monthly from a mid-month time_start', async () => {
    const got = await timestamps(
      'time_start=2026-06-15&time_end=2026-11-22T12:00:00Z&interval=monthly&count=20',
    );
    const starts = ['2026-06-15', '2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01'];
    expect(got.map(iso)).toEqual(
      starts.map((d) => iso(firstSlotFrom(unix(`${d}T00:00:00Z`), NOW_S) as number)),
    );
  });

  it('weekly periods start on Mondays; daily at 00:00; hourly on the hour', async () => {
    const weeks = await timestamps('interval=weekly&count=3');
    for (const t of weeks) expect(new Date(Math.floor(t / DAY) * DAY * 1000).getUTCDay()).toBe(1);
    const days = await timestamps('interval=daily&count=3');
    expect(days.map(iso)).toEqual(
      ['2026-11-20', '2026-11-21', '2026-11-22'].map((d) =>
        iso(firstSlotFrom(unix(`${d}T00:00:00Z`), NOW_S) as number),
      ),
    );
    const hours = await timestamps('interval=hourly&count=3');
    expect(hours.map(iso)).toEqual(
      ['10', '11', '12'].map((h) => iso(firstSlotFrom(unix(`2026-11-22T${h}:00:00Z`), NOW_S) as number)),
    );
  });
});

describe('global metrics historical: records, aux, credits', () => {
  it('aux picks the supplemental fields; default is all but search_interval', async () => {
    const all = await c.get(`${HISTORY}?count=1`);
    const record = all.body.data.quotes[0];
    expect(record).toHaveProperty('btc_dominance');
    expect(record).toHaveProperty('active_market_pairs');
    expect(record).not.toHaveProperty('search_interval');
    expect(record.quote.USD).toHaveProperty('altcoin_volume_24h_reported');
    const some = await c.get(`${HISTORY}?count=1&aux=btc_dominance,search_interval`);
    const r = some.body.data.quotes[0];
    expect(Object.keys(r).sort()).toEqual(['btc_dominance', 'quote', 'search_interval', 'timestamp']);
    expect(Object.keys(r.quote.USD).sort()).toEqual(['timestamp', 'total_market_cap']);
    expect(r.search_interval).toHaveProperty('requested');
  });

  it('charges 1 credit per 100 data points returned, rounded up', async () => {
    const r = await c.get(`${HISTORY}?interval=5m&count=250`);
    const n = r.body.data.quotes.length;
    expect(n).toBeGreaterThan(200);
    expect(r.body.status.credit_count).toBe(Math.ceil(n / 100));
  });

  it('converts historical quotes with up to 3 other currencies', async () => {
    const r = await c.get(`${HISTORY}?count=2&convert=USD,EUR,BTC`);
    const q = r.body.data.quotes[1].quote;
    expect(Object.keys(q)).toEqual(['USD', 'EUR', 'BTC']);
    expect(q.BTC.total_market_cap).toBeLessThan(q.USD.total_market_cap / 1000);
  });
});

describe('global metrics historical: a long answer', () => {
  it('is built a slice at a time: a request sent while it is built is answered before it starts', async () => {
    const events: string[] = [];
    const before = c.sandbox.stats.requests;
    const url = `${c.sandbox.url}${HISTORY}?count=5000&interval=5m&convert=USD,EUR,BTC,ETH`;
    const long = fetch(url, { headers: { [KEY_HEADER]: 'sandbox-enterprise' } }).then((response) => {
      events.push('long answer begins');
      return response.json() as Promise<{
        data: { quotes: { timestamp: string }[] };
        status: { credit_count: number };
      }>;
    });
    // Once the sandbox has the long request: built in one go, it would hold the thread until done.
    while (c.sandbox.stats.requests === before) await new Promise((resolve) => setImmediate(resolve));
    const short = c.get('/v3/fear-and-greed/latest').then((reply) => {
      events.push('short answered');
      return reply;
    });
    const [body, reply] = await Promise.all([long, short]);
    expect(events).toEqual(['short answered', 'long answer begins']);
    expect(reply.status).toBe(200);
    const quotes = body.data.quotes;
    expect(quotes.length).toBeGreaterThan(4_500);
    expect(body.status.credit_count).toBe(Math.ceil(quotes.length / 100));
    const times = quotes.map((q) => unix(q.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('global metrics historical: depth by plan', () => {
  const cases: [string, string, number, string][] = [
    ['sandbox-basic', 'interval=1d&count=40', 403, '1 month'],
    ['sandbox-basic', 'interval=1d&count=20', 200, ''],
    ['sandbox-hobbyist', 'time_start=2026-10-01', 403, '1 month'],
    ['sandbox-startup', 'time_start=2026-10-30', 200, ''],
    ['sandbox-standard', 'interval=1d&count=100', 403, '3 months'],
    ['sandbox-standard', 'interval=1d&count=80', 200, ''],
    ['sandbox-professional', 'time_start=2025-10-01', 403, '12 months'],
    ['sandbox-professional', 'time_start=2026-01-01', 200, ''],
    ['sandbox-enterprise', 'time_start=2021-01-01&interval=30d', 200, ''],
  ];
  for (const [key, query, status, depth] of cases) {
    it(`${key} ${query} → ${status}`, async () => {
      const r = await c.get(`${HISTORY}?${query}`, key);
      expect(r.status, r.text).toBe(status);
      if (status === 403) {
        expect(r.body.status).toMatchObject({ error_code: 1006, credit_count: 0 });
        expect(r.body.status.error_message).toContain(depth);
        expect(r.body.status.error_message).toContain('reaches back to');
      }
    });
  }
});

describe('index historical', () => {
  const H = '/v3/index/svc100-historical';
  const times = async (query: string) =>
    (await c.get(`${H}?${query}`)).body.data.map((i: { update_time: string }) => i.update_time);

  it('with both bounds, counts from time_start (count ≤ 10)', async () => {
    expect(
      await times('time_start=2026-11-21T00:00:00Z&time_end=2026-11-22T00:00:00Z&interval=15m&count=4'),
    ).toEqual([
      '2026-11-21T00:00:00Z',
      '2026-11-21T00:15:00Z',
      '2026-11-21T00:30:00Z',
      '2026-11-21T00:45:00Z',
    ]);
  });

  it('without time_start, counts back from time_end; daily default count 5', async () => {
    expect(await times('time_end=2026-11-20T13:07:00Z&interval=15m&count=2')).toEqual([
      '2026-11-20T12:45:00Z',
      '2026-11-20T13:00:00Z',
    ]);
    expect(await times('')).toEqual(['18', '19', '20', '21', '22'].map((d) => `2026-11-${d}T00:00:00Z`));
  });
});

describe('fear and greed historical paging', () => {
  it('start and limit page through the same daily list', async () => {
    const first = (await c.get('/v3/fear-and-greed/historical?limit=10')).body.data;
    const page = (await c.get('/v3/fear-and-greed/historical?start=4&limit=3')).body.data;
    expect(page).toEqual(first.slice(3, 6));
  });

  it('stops at the start of history', async () => {
    const days = Math.floor((NOW_S - unix('2020-11-22T12:00:00Z')) / DAY);
    const tail = (await c.get(`/v3/fear-and-greed/historical?start=${days - 1}&limit=10`)).body.data;
    expect(tail).toHaveLength(2);
    expect(Number(tail[1].timestamp)).toBe(unix('2020-11-23T00:00:00Z'));
    expect((await c.get(`/v3/fear-and-greed/historical?start=${days + 5}`)).body.data).toEqual([]);
  });
});
