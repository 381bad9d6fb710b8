/**
 * The cryptocurrency tools through each client over each transport on the embedded sandbox:
 * listings paging, sorting and filters, quotes by id, slug and symbol, and long answers cut to size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, expectAnswer } from '../helpers/answers.js';
import { textOf } from '../helpers/cli.js';
import { openSession } from '../helpers/in-process.js';
import { kindLabel, SESSION_KINDS, type Session } from '../helpers/session.js';

describe.each(SESSION_KINDS.map((kind) => [kindLabel(kind), kind] as const))('%s', (_, kind) => {
  let mcp: Session;

  beforeAll(async () => {
    mcp = await openSession(kind);
  });
  afterAll(() => mcp?.close());

  describe('cryptocurrency listings', () => {
    type Listing = {
      start: number;
      items: {
        id: number;
        rank?: number;
        symbol: string;
        quote: { currency: string; price?: number; market_cap?: number }[];
      }[];
    };

    it('limit=5: the top five by market cap, ranks 1..5, bitcoin first', async () => {
      const result = await mcp.call('get_cryptocurrency_listings_latest', { limit: 5 });
      const text = expectAnswer(result, 'limit 5');
      const listing = data<Listing>(result);
      expect(listing.items).toHaveLength(5);
      expect(listing.items.map((a) => a.rank)).toEqual([1, 2, 3, 4, 5]);
      expect(listing.items[0]!.id).toBe(1);
      const caps = listing.items.map((a) => a.quote[0]!.market_cap ?? 0);
      expect([...caps].sort((a, b) => b - a)).toEqual(caps);
      expect(text).toMatch(/^Cryptocurrencies 1–5 /);
    });

    it('start=11, limit=10, convert=EUR', async () => {
      const result = await mcp.call('get_cryptocurrency_listings_latest', {
        start: 11,
        limit: 10,
        convert: 'EUR',
      });
      expectAnswer(result, 'page 2');
      const listing = data<Listing>(result);
      expect(listing.start).toBe(11);
      expect(listing.items.map((a) => a.rank)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      for (const a of listing.items) expect(a.quote.map((q) => q.currency)).toEqual(['EUR']);
    });

    it('sort=price, sort_dir=asc, with a price range', async () => {
      const result = await mcp.call('get_cryptocurrency_listings_latest', {
        sort: 'price',
        sort_dir: 'asc',
        price_min: 1,
        price_max: 100,
        limit: 10,
      });
      expect(expectAnswer(result, 'price sort').split('\n')[0]).toMatch(
        /^Cryptocurrencies 1–\d+ by price \(asc\), .+ UTC; filtered: price 1 to 100$/,
      );
      const none = await mcp.call('get_cryptocurrency_listings_latest', { price_min: 1e9, limit: 5 });
      expect(expectAnswer(none, 'none')).toMatch(
        /^No cryptocurrencies match from start=1 \(filtered: price at least 1,000,000,000\)\.$/m,
      );
      const prices = data<Listing>(result).items.map((a) => a.quote[0]!.price ?? -1);
      expect(prices.length).toBeGreaterThan(0);
      expect([...prices].sort((a, b) => a - b)).toEqual(prices);
      for (const p of prices) {
        expect(p).toBeGreaterThanOrEqual(1);
        expect(p).toBeLessThanOrEqual(100);
      }
    });

    it('cryptocurrency_type=tokens', async () => {
      const result = await mcp.call('get_cryptocurrency_listings_latest', {
        cryptocurrency_type: 'tokens',
        limit: 10,
      });
      expect(expectAnswer(result, 'tokens')).toMatch(
        /^Cryptocurrencies 1–10 by market_cap \(desc\), .+ UTC; filtered: tokens$/m,
      );
      expect(data<Listing>(result).items.map((a) => a.symbol)).not.toContain('BTC');
    });

    it('limit=5000: one request, a text page of as many assets as 20,000 characters show, each a row, then the rest', async () => {
      const result = await mcp.call('get_cryptocurrency_listings_latest', { limit: 5000 });
      const text = expectAnswer(result, 'limit 5000');
      const shown = data<Listing>(result).items.length;
      expect(shown).toBeGreaterThan(200);
      expect(text.match(/^\d+(?= \| )/gm)?.map(Number)).toEqual(
        Array.from({ length: shown }, (_, i) => i + 1),
      );
      expect(text).toMatch(new RegExp(`^Rows 1–${shown} of 231; next is the following page, free`, 'm'));
      const next = JSON.parse(/^Next page: (.*)$/m.exec(text)?.[1] ?? '{}');
      const rest = expectAnswer(await mcp.call('get_cryptocurrency_listings_latest', next), 'the rest');
      expect(rest.match(/^\d+(?= \| )/gm)?.map(Number)).toEqual(
        Array.from({ length: 231 - shown }, (_, i) => shown + 1 + i),
      );
    });
  });

  describe('cryptocurrency quotes', () => {
    type Quotes = {
      items: { id: number; slug: string; symbol: string; quote: { currency: string; price?: number }[] }[];
    };

    it('by id, slug and symbol: the same two assets', async () => {
      const byId = data<Quotes>(await mcp.call('get_cryptocurrency_quotes_latest', { id: '1,1027' }));
      const bySlug = data<Quotes>(
        await mcp.call('get_cryptocurrency_quotes_latest', { slug: 'bitcoin,ethereum' }),
      );
      const bySymbol = data<Quotes>(
        await mcp.call('get_cryptocurrency_quotes_latest', { symbol: 'BTC,ETH' }),
      );
      for (const answer of [byId, bySlug, bySymbol]) {
        expect(answer.items.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 1027]);
      }
      // The same asset's quote: the sandbox's prices move each minute, so a minute may turn between
      // two calls; asked by id again after, the quote by symbol matches one of the two by id.
      const byIdAfter = data<Quotes>(await mcp.call('get_cryptocurrency_quotes_latest', { id: '1,1027' }));
      const bitcoin = (answer: Quotes) => answer.items.find((a) => a.id === 1)?.quote;
      expect([bitcoin(byId), bitcoin(byIdAfter)]).toContainEqual(bitcoin(bySymbol));
    });

    it('a slug in capitals is the same slug: slugs are lower case', async () => {
      const one = data<Quotes>(
        await mcp.call('get_cryptocurrency_quotes_latest', { slug: 'Bitcoin, ETHEREUM' }),
      );
      expect(one.items.map((a) => a.slug).sort()).toEqual(['bitcoin', 'ethereum']);
    });

    it('the text leads with the asset and tabulates several', async () => {
      const result = await mcp.call('get_cryptocurrency_quotes_latest', { id: '1,1027,825' });
      const text = expectAnswer(result, 'three assets');
      expect(text).toMatch(/\(BTC\)|\(ETH\)|\(USDT\)/);
      expect(text.split('\n').length).toBeGreaterThan(3);
    });

    it('convert=USD,EUR and convert_id=2790', async () => {
      const two = data<Quotes>(
        await mcp.call('get_cryptocurrency_quotes_latest', { symbol: 'BTC', convert: 'USD,EUR' }),
      );
      expect(two.items[0]!.quote.map((q) => q.currency)).toEqual(['USD', 'EUR']);
      const byId = await mcp.call('get_cryptocurrency_quotes_latest', { id: '1', convert_id: '2790' });
      expectAnswer(byId, 'convert_id');
      expect(data<Quotes>(byId).items[0]!.quote).toHaveLength(1);
    });

    it('100 assets in 2 currencies: every one in the JSON page and in the text page', async () => {
      const top = await mcp.call('get_cryptocurrency_listings_latest', { limit: 100, format: 'json' });
      const ids = data<{ items: { id: number }[] }>(top).items.map((a) => a.id);
      expect(ids).toHaveLength(100);
      const args = { id: ids.join(','), convert: 'USD,EUR' };
      const json = await mcp.call('get_cryptocurrency_quotes_latest', { ...args, format: 'json' });
      expect(data<Quotes>(json).items).toHaveLength(100);
      const result = await mcp.call('get_cryptocurrency_quotes_latest', args);
      const text = expectAnswer(result, '100 assets');
      expect(data<Quotes>(result).items.map((a) => a.id)).toEqual(ids);
      expect(text).not.toMatch(/^Next page/m);
    });

    it('skip_invalid=true skips an unknown id; without it the service refuses it by name', async () => {
      const skipped = await mcp.call('get_cryptocurrency_quotes_latest', {
        id: '1,99999999',
        skip_invalid: true,
      });
      expectAnswer(skipped, 'skip_invalid');
      expect(data<Quotes>(skipped).items.map((a) => a.id)).toEqual([1]);
      const refused = await mcp.call('get_cryptocurrency_quotes_latest', { id: '1,99999999' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('99999999');
      expect(textOf(refused)).toMatch(/^Invalid value for "id": 99999999 is not a known/);
      // The way to look an asset up is the free search tool, not a raw service path.
      expect(textOf(refused)).toMatch(/search_cryptocurrencies \(free\) finds the id/);
      expect(textOf(refused)).not.toContain('/v1/cryptocurrency/map');
    });
  });
});
