/**
 * Every parameter rule of the spec answers 400 with the spec's status object alone: error_code 400,
 * credit_count 0, and a message that names the parameter and says what is allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetBySymbol } from '../../src/sandbox/market/assets.js';
import { type Client, openSandbox } from './helpers.js';

let c: Client;
beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
});
afterAll(() => c.sandbox.close());

async function expect400(path: string, ...fragments: (string | RegExp)[]): Promise<string> {
  const r = await c.get(path);
  expect(r.status, path).toBe(400);
  expect(r.body.data).toBeUndefined();
  expect(Object.keys(r.body)).toEqual(['status']);
  expect(r.body.status).toMatchObject({
    error_code: 400,
    credit_count: 0,
    timestamp: '2026-11-22T12:00:00.000Z',
  });
  const message: string = r.body.status.error_message;
  for (const f of fragments) {
    if (typeof f === 'string') expect(message, path).toContain(f);
    else expect(message, path).toMatch(f);
  }
  return message;
}

const GLOBAL = '/v1/global-metrics/quotes/latest';
const HISTORY = '/v1/global-metrics/quotes/historical';
const LISTINGS = '/v3/cryptocurrency/listings/latest';
const QUOTES = '/v3/cryptocurrency/quotes/latest';

describe('convert', () => {
  it('refuses convert together with convert_id', async () => {
    await expect400(
      `${GLOBAL}?convert=USD&convert_id=2781`,
      '"convert_id"',
      'must not be combined with convert',
    );
  });

  it('refuses more than 120 currencies on latest endpoints and accepts 120', async () => {
    // Each named once: a currency named twice is refused on its own.
    const symbols = [...assetBySymbol.keys()];
    const list = (n: number) => symbols.slice(0, n).join(',');
    await expect400(`${GLOBAL}?convert=${list(121)}`, '"convert"', 'at most 120');
    expect((await c.get(`${GLOBAL}?convert=${list(120)}`)).status).toBe(200);
  });

  it('refuses more than 3 extra currencies on the historical endpoint', async () => {
    await expect400(
      `${HISTORY}?convert=USD,EUR,GBP,JPY,BTC`,
      '"convert"',
      'at most 4 currencies',
      'up to 3 others',
    );
    expect((await c.get(`${HISTORY}?count=1&convert=USD,EUR,GBP,JPY`)).status).toBe(200);
  });

  it('refuses characters outside letters, digits, $, @ and hyphen, and a space where a comma belongs', async () => {
    await expect400(
      `${GLOBAL}?convert=US%20D`,
      '"convert"',
      'holds a space: separate the currencies with commas',
    );
    await expect400(`${GLOBAL}?convert=U*SD`, '"convert"', 'letters, digits, $, @ and hyphen');
    await expect400(`${GLOBAL}?convert_id=27a1`, '"convert_id"', 'numeric ids');
  });

  it('refuses an unknown currency and names it', async () => {
    await expect400(`${GLOBAL}?convert=USD,XYZQ`, '"convert"', '"XYZQ" is not a known currency');
    await expect400(`${LISTINGS}?convert_id=424242`, '"convert_id"', '"424242"');
  });
});

describe('global metrics historical', () => {
  it('refuses count outside 1–10000', async () => {
    await expect400(`${HISTORY}?count=0`, '"count"', '1 to 10000');
    await expect400(`${HISTORY}?count=10001`, '"count"', '1 to 10000');
    await expect400(`${HISTORY}?count=2.5`, '"count"');
    // A number is plain decimal digits; a parameter is sent once.
    await expect400(`${HISTORY}?count=0x5`, '"count"', 'not a plain decimal number');
    await expect400(`${HISTORY}?count=%2B5`, '"count"', 'not a plain decimal number');
    await expect400(`${HISTORY}?count=1e3`, '"count"', 'not a plain decimal number');
    await expect400(`${LISTINGS}?limit=501&limit=1`, 'Parameter "limit" is repeated; send it once.');
    await expect400(`${LISTINGS}?__proto__=1`, 'Unknown parameter "__proto__"');
  });

  it('refuses an unknown interval and lists the allowed ones', async () => {
    await expect400(`${HISTORY}?interval=2m`, '"interval"', 'hourly', '5m', '365d');
  });

  it('refuses unknown aux names and lists the allowed ones', async () => {
    await expect400(`${HISTORY}?aux=btc_dominance,price`, '"aux"', 'search_interval');
  });

  it('refuses times that are not real instants from 2010 to tomorrow, and start after end', async () => {
    await expect400(`${HISTORY}?time_start=yesterday`, '"time_start"', 'Unix seconds or ISO 8601');
    await expect400(`${HISTORY}?time_end=2026-13-45`, '"time_end"');
    // Not silently 2 March: the same rule the tools check with.
    await expect400(`${HISTORY}?time_start=2026-02-30T00:00:00Z`, '"time_start"', 'a real date and time');
    await expect400(`${HISTORY}?time_start=2026-11-20T24:30:00Z`, '"time_start"');
    await expect400(`${HISTORY}?time_start=2009-12-31T23:59:59Z`, '"time_start"', 'from 2010-01-01');
    await expect400(`${HISTORY}?time_start=1000000000000000`, '"time_start"');
    await expect400(`${HISTORY}?time_end=2126-01-01`, '"time_end"', 'to tomorrow');
    expect((await c.get(`${HISTORY}?time_start=2024-02-29T00:00:00%2B05:30`)).status).toBe(200);
    await expect400(
      `${HISTORY}?time_start=2026-11-20&time_end=2026-11-10`,
      '"time_start"',
      'must not be after time_end',
    );
    expect((await c.get(`${HISTORY}?time_start=1795046400&time_end=2026-11-21T00:00:00Z`)).status).toBe(200);
  });
});

describe('fear and greed, altcoin season, community', () => {
  it('refuses fear-and-greed start outside 1–1000000 and limit outside 1–500', async () => {
    await expect400('/v3/fear-and-greed/historical?start=0', '"start"', 'from 1 to 1000000');
    await expect400('/v3/fear-and-greed/historical?limit=0', '"limit"', '1 to 500');
    await expect400('/v3/fear-and-greed/historical?limit=501', '"limit"', '1 to 500');
    expect((await c.get('/v3/fear-and-greed/historical?limit=500')).body.data).toHaveLength(500);
  });

  it('refuses a timeframe other than 7d, 30d, 90d', async () => {
    await expect400('/v1/altcoin-season-index/historical?timeframe=1y', '"timeframe"', '7d, 30d, 90d');
  });

  it('refuses a community limit outside 1–5', async () => {
    await expect400('/v1/community/trending/token?limit=6', '"limit"', '1 to 5');
    await expect400('/v1/community/trending/topic?limit=0', '"limit"', '1 to 5');
  });

  it('refuses parameters on endpoints that take none', async () => {
    await expect400('/v3/fear-and-greed/latest?limit=3', 'Unknown parameter "limit"', 'takes: none');
  });
});

describe('indices', () => {
  const H = '/v3/index/svc100-historical';
  it('refuses an interval other than 5m, 15m, daily', async () => {
    await expect400(`${H}?interval=1h`, '"interval"', '5m, 15m, daily');
  });

  it('refuses count above 10 when both time_start and time_end are given, but not otherwise', async () => {
    await expect400(
      `${H}?time_start=2026-11-01&time_end=2026-11-20&count=11`,
      '"count"',
      'at most 10 when both time_start and time_end',
    );
    expect((await c.get(`${H}?time_end=2026-11-20&count=11`)).status).toBe(200);
  });
});

describe('DEX platform detail', () => {
  it('requires platformName, and refuses an unknown one naming the known platforms', async () => {
    await expect400('/v1/dex/platform/detail', '"platformName"');
    await expect400(
      '/v1/dex/platform/detail?platformName=Atlantis',
      '"Atlantis" is not a known platform',
      'Ethereum',
      'Solana',
    );
  });
});

describe('listings and quotes', () => {
  it('refuses listings limit outside 1–5000, an unknown sort, and min above max', async () => {
    await expect400(`${LISTINGS}?limit=5001`, '"limit"', '1 to 5000');
    await expect400(`${LISTINGS}?start=0`, '"start"');
    await expect400(`${LISTINGS}?sort=rank`, '"sort"', 'market_cap');
    await expect400(`${LISTINGS}?sort_dir=up`, '"sort_dir"', 'asc, desc');
    await expect400(`${LISTINGS}?cryptocurrency_type=nft`, '"cryptocurrency_type"', 'all, coins, tokens');
    await expect400(`${LISTINGS}?price_min=10&price_max=1`, '"price_min"', 'greater than price_max');
    await expect400(`${LISTINGS}?percent_change_24h_min=-101`, '"percent_change_24h_min"');
    await expect400(`${LISTINGS}?colour=red`, 'Unknown parameter "colour"');
  });

  it('needs exactly one of id, slug or symbol', async () => {
    await expect400(QUOTES, 'one of "id", "slug" or "symbol" is required');
    await expect400(`${QUOTES}?id=1&slug=bitcoin`, 'send only one of id, slug or symbol');
    await expect400(`${QUOTES}?id=bitcoin`, '"id"', 'numeric ids');
  });

  it('names an unknown id, slug or symbol', async () => {
    await expect400(
      `${QUOTES}?id=1,99999999`,
      '"id"',
      '99999999 is not a known cryptocurrency id',
      'skip_invalid',
    );
    await expect400(`${QUOTES}?slug=bitcoin,no-such-coin`, '"slug"', '"no-such-coin"');
    await expect400(`${QUOTES}?symbol=BTC,NOPEX`, '"symbol"', '"NOPEX"');
  });
});

describe('the listed endpoints', () => {
  it('price conversion needs amount in range and one of id or symbol', async () => {
    await expect400('/v2/tools/price-conversion?id=1', '"amount"');
    await expect400('/v2/tools/price-conversion?amount=0&id=1', '"amount"');
    await expect400(
      '/v2/tools/price-conversion?amount=1',
      'Missing parameter',
      'one of "id" or "symbol" is required',
    );
    await expect400(
      '/v2/tools/price-conversion?amount=1&id=1&symbol=BTC',
      '"symbol"',
      'send only one of id or symbol',
    );
    await expect400('/v2/tools/price-conversion?amount=1&id=987654', '"987654" is not a known');
    await expect400('/v2/tools/price-conversion?amount=1&id=1&time=2099-01-01', '"time"', 'to tomorrow');
  });

  it('map refuses a bad sort and key info refuses parameters', async () => {
    await expect400('/v1/cryptocurrency/map?sort=name', '"sort"', 'id, svc_rank');
    await expect400('/v1/key/info?verbose=true', 'Unknown parameter "verbose"');
  });
});

describe('the Basic plan', () => {
  it('refuses more than one convert option, saying the plan is limited to one', async () => {
    const r = await c.get(`${GLOBAL}?convert=USD,EUR`, 'sandbox-basic');
    expect(r.status).toBe(400);
    expect(r.body.status).toMatchObject({ error_code: 400, credit_count: 0 });
    expect(r.body.status.error_message).toContain('limited to one convert option');
    const single = await c.get(`${GLOBAL}?convert=EUR`, 'sandbox-basic');
    expect(single.status).toBe(200);
    const hobbyist = await c.get(`${GLOBAL}?convert=USD,EUR`, 'sandbox-hobbyist');
    expect(hobbyist.status).toBe(200);
  });
});
