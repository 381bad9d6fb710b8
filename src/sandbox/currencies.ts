/**
 * `convert` and `convert_id`: which currencies a quote is given in, fiat or crypto, and each one's
 * value in US dollars at an instant. The `quote` object is keyed by symbol, or by the id string when
 * the caller asked by convert_id (docs/service.md, "Answers").
 */

import { badRequest } from './envelope.js';
import { type Asset, assetById, assetBySymbol } from './market/assets.js';
import { type Fiat, fiatById, fiatBySymbol, fiatUsd, USD } from './market/fiat.js';
import { Lru, marketAt } from './market/snapshot.js';

export interface Currency {
  /** The key of this currency's entry in `quote`. */
  key: string;
  id: number;
  symbol: string;
  name: string;
  /** US dollars per unit at Unix second t. */
  usdAt(t: number): number;
}

function fiatCurrency(f: Fiat, key = f.symbol): Currency {
  return { key, id: f.id, symbol: f.symbol, name: f.name, usdAt: (t) => fiatUsd(f, t) };
}

/**
 * An asset's price as a currency, by asset and instant: a long history in BTC (10,000 points) reads
 * one per point, and the same histories are asked for again; a whole snapshot per point would be
 * made anew each time, past the snapshots' own bound.
 */
const rates = new Lru<string, number>(50_000);

function assetCurrency(a: Asset, key = a.symbol): Currency {
  const usdAt = (t: number) => rates.get(`${a.index}@${t}`, () => marketAt(t).price[a.index]!);
  return { key, id: a.id, symbol: a.symbol, name: a.name, usdAt };
}

const USD_CURRENCY = fiatCurrency(USD);

/** A currency by symbol (case-insensitive) or by id; fiat first, as the service resolves them. */
export function findCurrency(by: 'symbol' | 'id', value: string): Currency | undefined {
  if (by === 'symbol') {
    const upper = value.toUpperCase();
    const fiat = fiatBySymbol.get(upper);
    if (fiat) return fiatCurrency(fiat);
    const asset = assetBySymbol.get(upper);
    return asset && assetCurrency(asset);
  }
  const id = Number(value);
  const fiat = fiatById.get(id);
  if (fiat) return fiatCurrency(fiat, value);
  const asset = assetById.get(id);
  return asset && assetCurrency(asset, value);
}

/** The currencies asked for (default USD); an unknown one is a 400 that names it. */
export function resolveConvert(params: { convert?: string; convert_id?: string }): Currency[] {
  const by = params.convert_id !== undefined ? 'id' : 'symbol';
  const list = params.convert_id ?? params.convert;
  if (list === undefined) return [USD_CURRENCY];
  const seen = new Set<string>();
  const out: Currency[] = [];
  for (const item of list.split(',')) {
    const currency = findCurrency(by, item);
    if (!currency) {
      const name = by === 'id' ? 'convert_id' : 'convert';
      throw badRequest(
        `Invalid value for "${name}": "${item}" is not a known currency. Use fiat ${by === 'id' ? 'ids such as 2781 (USD) or 2790 (EUR)' : 'symbols such as USD, EUR, GBP, JPY'} or a cryptocurrency ${by === 'id' ? 'id such as 1 (BTC)' : 'symbol such as BTC or ETH'}.`,
      );
    }
    if (seen.has(currency.key)) continue;
    seen.add(currency.key);
    out.push(currency);
  }
  return out;
}
