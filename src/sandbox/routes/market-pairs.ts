/** An asset's market pairs across the synthetic exchanges (market/exchanges.ts). */

import { type Currency, findCurrency, resolveConvert } from '../currencies.js';
import { badRequest } from '../envelope.js';
import { ASSETS, assetById, assetBySlug, assetBySymbol } from '../market/assets.js';
import { assetPairs, fiatPairs, type Pair } from '../market/exchanges.js';
import { fiatById } from '../market/fiat.js';
import { marketAt } from '../market/snapshot.js';
import { floorTo, iso, MINUTE } from '../market/time.js';
import type { ParamsOf } from '../service/define.js';
import type { marketPairs as endpoints } from '../service/index.js';
import type { HandlerOf } from './types.js';

interface Subject {
  id: number;
  name: string;
  symbol: string;
  pairs: Pair[];
  /** 24h volume in USD shared out among the pairs. */
  volume: number;
}

type MarketPairsParams = ParamsOf<typeof endpoints.marketPairs>;

/** The asset (or fiat currency) asked for, with its pairs at t. */
function subjectOf(params: MarketPairsParams, t: number): Subject {
  const m = marketAt(t);
  const by = (['id', 'slug', 'symbol'] as const).find((k) => params[k] !== undefined) ?? 'id';
  const value = String(params[by]);
  const asset =
    by === 'id'
      ? assetById.get(Number(value))
      : by === 'slug'
        ? assetBySlug.get(value)
        : assetBySymbol.get(value.toUpperCase());
  if (asset && m.listed[asset.index]) {
    const base = findCurrency('id', String(asset.id)) as Currency;
    return {
      id: asset.id,
      name: asset.name,
      symbol: asset.symbol,
      pairs: assetPairs(asset, base, t),
      volume: m.volume[asset.index]!,
    };
  }
  const fiat = by === 'id' ? fiatById.get(Number(value)) : undefined;
  if (fiat) {
    const top = Array.from(m.order.subarray(0, 100));
    const bases = top.map((i) => findCurrency('id', String(ASSETS[i]!.id)) as Currency);
    const volume = 0.05 * top.reduce((sum, i) => sum + m.volume[i]!, 0);
    const currency = findCurrency('id', String(fiat.id)) as Currency;
    return {
      id: fiat.id,
      name: fiat.name,
      symbol: fiat.symbol,
      pairs: fiatPairs(currency, bases, t),
      volume,
    };
  }
  throw badRequest(
    `Invalid value for "${by}": ${by === 'id' ? value : `"${value}"`} is not a known cryptocurrency${by === 'id' ? ' or fiat' : ''} ${by}.`,
  );
}

function matches(pair: Pair, params: MarketPairsParams): boolean {
  const matchedIds =
    params.matched_id === undefined ? undefined : String(params.matched_id).split(',').map(Number);
  const matchedSymbols =
    params.matched_symbol === undefined ? undefined : String(params.matched_symbol).toUpperCase().split(',');
  const category = params.category ?? 'all';
  const fee = params.fee_type ?? 'all';
  return (
    (matchedIds === undefined || matchedIds.includes(pair.quote.id)) &&
    (matchedSymbols === undefined || matchedSymbols.includes(pair.quote.symbol)) &&
    (category === 'all' || pair.category === category) &&
    (fee === 'all' || pair.exchange.feeType === fee)
  );
}

function side(c: Currency) {
  const type = fiatById.has(c.id) ? 'fiat' : 'cryptocurrency';
  return { currency_id: c.id, currency_symbol: c.symbol, exchange_symbol: c.symbol, currency_type: type };
}

/**
 * Pairs by 24h volume (the sandbox ranks by volume whatever the sort key), largest first unless
 * sort_dir=asc; num_market_pairs counts the pairs the filters keep.
 */
export const marketPairs: HandlerOf<typeof endpoints.marketPairs> = {
  envelope: 'standard',
  handle({ params, now }) {
    const p = params;
    const t = floorTo(now, MINUTE);
    const subject = subjectOf(params, t);
    const currencies = resolveConvert(params);
    const kept = subject.pairs.filter((pair) => matches(pair, params));
    if (p.sort_dir === 'asc') kept.reverse();
    const page = kept.slice(p.start - 1, p.start - 1 + p.limit);
    const updated = iso(t);
    const pairs = page.map((pair) => {
      const usdPrice = pair.base.usdAt(t) * pair.skew;
      const volumeUsd = subject.volume * pair.share;
      const quote: Record<string, unknown> = {
        exchange_reported: {
          price: usdPrice / pair.quote.usdAt(t),
          volume_24h_base: volumeUsd / usdPrice,
          volume_24h_quote: volumeUsd / pair.quote.usdAt(t),
          last_updated: updated,
        },
      };
      for (const c of currencies) {
        quote[c.key] = {
          price: usdPrice / c.usdAt(t),
          volume_24h: volumeUsd / c.usdAt(t),
          last_updated: updated,
        };
      }
      return {
        exchange: { id: pair.exchange.id, name: pair.exchange.name, slug: pair.exchange.slug },
        market_id: subject.id * 100_000 + pair.k,
        market_pair: `${pair.base.symbol}/${pair.quote.symbol}`,
        category: pair.category,
        fee_type: pair.exchange.feeType,
        market_pair_base: side(pair.base),
        market_pair_quote: side(pair.quote),
        quote,
      };
    });
    const data = {
      id: subject.id,
      name: subject.name,
      symbol: subject.symbol,
      num_market_pairs: kept.length,
      market_pairs: pairs,
    };
    return { dataJson: JSON.stringify(data), items: pairs.length };
  },
};
