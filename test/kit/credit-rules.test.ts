/** Credit estimates: the endpoints' rules applied to the most records the parameters allow. */
import { describe, expect, it } from 'vitest';
import { endpointsByName } from '../../src/endpoints/index.js';
import { largestFit } from '../../src/guard/fit.js';
import { estimateCredits, perCall, perItems } from '../../src/kit/credits.js';
import { NOW_S } from '../helpers/now.js';

function estimate(tool: string, args: Record<string, unknown>): number {
  const endpoint = endpointsByName.get(tool);
  if (!endpoint) throw new Error(`no endpoint ${tool}`);
  const params = endpoint.input.parse(args) as Record<string, unknown>;
  return estimateCredits(endpoint.credits, params, NOW_S);
}

describe('estimates from docs/service.md, "Credits"', () => {
  it('global metrics latest: 1 + 1 per convert beyond the first', () => {
    expect(estimate('get_global_metrics_latest', {})).toBe(1);
    expect(estimate('get_global_metrics_latest', { convert: 'USD,EUR,GBP' })).toBe(3);
    expect(estimate('get_global_metrics_latest', { convert_id: '2781,2790' })).toBe(2);
  });

  it('global metrics historical: 1 per 100 points, from count or from the time range', () => {
    expect(estimate('get_global_metrics_historical', {})).toBe(1);
    expect(estimate('get_global_metrics_historical', { count: 100 })).toBe(1);
    expect(estimate('get_global_metrics_historical', { count: 101 })).toBe(2);
    expect(estimate('get_global_metrics_historical', { count: 10_000 })).toBe(100);
    // One day at 5m is 289 points at most, whatever count allows.
    const day = { time_start: '2026-11-20T00:00:00Z', time_end: '2026-11-21T00:00:00Z', interval: '5m' };
    expect(estimate('get_global_metrics_historical', { ...day, count: 10_000 })).toBe(3);
    // Without time_end the range runs to now.
    expect(
      estimate('get_global_metrics_historical', {
        time_start: NOW_S - 3600 * 10,
        interval: '1h',
        count: 10_000,
      }),
    ).toBe(1);
  });

  it('listings: 1 per 200 of the page size, + converts', () => {
    expect(estimate('get_cryptocurrency_listings_latest', {})).toBe(1);
    expect(estimate('get_cryptocurrency_listings_latest', { limit: 200 })).toBe(1);
    expect(estimate('get_cryptocurrency_listings_latest', { limit: 201 })).toBe(2);
    expect(estimate('get_cryptocurrency_listings_latest', { limit: 5000, convert: 'USD,EUR' })).toBe(26);
  });

  it('quotes: 1 per 100 assets asked for, + converts', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
    expect(estimate('get_cryptocurrency_quotes_latest', { id: ids(100) })).toBe(1);
    expect(estimate('get_cryptocurrency_quotes_latest', { id: ids(101) })).toBe(2);
    expect(estimate('get_cryptocurrency_quotes_latest', { symbol: 'BTC', convert: 'EUR,GBP,JPY' })).toBe(3);
  });

  it('flat endpoints: fear and greed, indices 1 whatever the size; community and key info 0', () => {
    expect(estimate('get_fear_and_greed_historical', { limit: 500 })).toBe(1);
    expect(estimate('get_svc100_index_historical', { count: 100 })).toBe(1);
    expect(estimate('get_trending_community_tokens', {})).toBe(0);
    expect(estimate('get_key_info', {})).toBe(0);
  });
});

describe('rules', () => {
  it('an empty page still costs one credit; a base is added per call', () => {
    const rule = perItems<{ n: number }>({ per: 200, what: 'rows', items: (p) => p.n });
    expect(rule.charge({ n: 0 }, 0)).toBe(1);
    const categories = perItems<{ n: number }>({ per: 200, what: 'rows', items: (p) => p.n, base: 1 });
    expect(categories.charge({ n: 0 }, 200)).toBe(2);
    expect(categories.text).toBe('1 per call + 1 per started 200 rows');
  });

  it('perCall text says so', () => {
    expect(perCall(0).text).toBe('free');
    expect(perCall(1, { convert: true }).text).toBe('1 per call, +1 per extra currency');
  });
});

describe('largestFit', () => {
  const listings = endpointsByName.get('get_cryptocurrency_listings_latest');
  if (!listings) throw new Error('no listings');
  const params = (args: Record<string, unknown>) => listings.input.parse(args) as Record<string, unknown>;

  it('names the largest limit that fits', () => {
    expect(largestFit(listings.credits, params({ limit: 5000 }), 3, NOW_S)).toBe(
      'To make it fit now: send limit=600 or less.',
    );
  });

  it('drops convert currencies when the page cannot shrink enough', () => {
    expect(largestFit(listings.credits, params({ limit: 100, convert: 'USD,EUR,GBP' }), 2, NOW_S)).toBe(
      'To make it fit now: send at most 2 convert currencies (each beyond the first costs 1 credit).',
    );
  });

  it('says nothing when nothing simple fits', () => {
    expect(largestFit(listings.credits, params({ limit: 1 }), 0, NOW_S)).toBeUndefined();
  });
});
