/**
 * DEX charts of the sandbox's tokens by chain and contract address: candles and points from the
 * same prices as everything else (candles through market/candles.ts). `{data: [rows], status}`.
 */

import { badRequest } from '../envelope.js';
import { type Asset, assetById } from '../market/assets.js';
import { type Candle, candleOver, volumeOver } from '../market/candles.js';
import { circulatingSupply, priceAt, volume24h } from '../market/model.js';
import { DEX_PLATFORMS, findPlatform } from '../market/platforms.js';
import { DAY, floorTo, HOUR, historyStart, MINUTE } from '../market/time.js';
import type { ParamsOf } from '../service/define.js';
import type { kline as endpoints } from '../service/index.js';
import { assetByAddress } from './named.js';
import type { HandlerOf, RouteResult } from './types.js';

const STEP: Readonly<Record<string, number>> = {
  '1s': 1,
  '5s': 5,
  '30s': 30,
  '1min': MINUTE,
  '3min': 3 * MINUTE,
  '5min': 5 * MINUTE,
  '15min': 15 * MINUTE,
  '30min': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': 7 * DAY,
  '1m': 30 * DAY,
};
/** The service picks an interval when none is given; the sandbox picks an hour. */
const DEFAULT_INTERVAL = '1h';

/** What the candles and the points take: a chain, a token address, a range and a unit. */
type ChartParams = ParamsOf<typeof endpoints.klineCandles | typeof endpoints.klinePoints>;

/** The token a chart names, checked against its chain; the chain's own coin prices `native`. */
function tokenOf(p: ChartParams): { token: Asset; chainCoin: Asset } {
  const platform =
    findPlatform(p.platform) ??
    DEX_PLATFORMS.find(
      (d) => String(d.id) === p.platform || assetById.get(d.cid)?.slug === p.platform.toLowerCase(),
    );
  if (!platform) {
    throw badRequest(
      `Invalid value for "platform": "${p.platform}" is not a known chain. Known: ${DEX_PLATFORMS.map((d) => d.n).join(', ')}.`,
    );
  }
  const chainCoin = assetById.get(platform.cid) as Asset;
  const token = assetByAddress(p.address);
  if (!token || token.platform !== chainCoin.slug) {
    throw badRequest(
      `Invalid value for "address": no token with that contract address on ${platform.n}; get_cryptocurrency_info gives a token's address.`,
    );
  }
  return { token, chainCoin };
}

/** Step starts: `limit` ending at `to` (default now), or from `from` forward; none before the data. */
function starts(p: ChartParams, step: number, token: Asset, now: number): number[] {
  const first = Math.max(token.dateAdded, historyStart(now));
  const to = Math.min(p.to ?? now, now);
  const out: number[] = [];
  if (p.from !== undefined) {
    for (let s = floorTo(Math.max(p.from, first), step); out.length < p.limit && s <= to; s += step)
      out.push(s);
    return out;
  }
  for (let s = floorTo(to, step); out.length < p.limit && s >= first; s -= step) out.push(s);
  return out.reverse();
}

/** USD, or the chain coin's price at t for `native` and `quote`; times the supply for market cap. */
function scaleAt(p: ChartParams, token: Asset, chainCoin: Asset, t: number): number {
  const unit = p.unit === undefined || p.unit === 'usd' ? 1 : 1 / priceAt(chainCoin.index, t);
  return p.pm === 'm' ? unit * circulatingSupply(token, t) : unit;
}

type Row = (
  p: ChartParams,
  token: Asset,
  chainCoin: Asset,
  s: number,
  step: number,
  now: number,
) => unknown[];

function chart(row: Row): HandlerOf<typeof endpoints.klineCandles | typeof endpoints.klinePoints> {
  return {
    envelope: 'standard',
    handle({ params, now }): RouteResult {
      const p = params;
      const { token, chainCoin } = tokenOf(p);
      const step = STEP[p.interval ?? DEFAULT_INTERVAL]!;
      const rows = starts(p, step, token, now).map((s) => row(p, token, chainCoin, s, step, now));
      return { dataJson: JSON.stringify(rows), items: rows.length };
    },
  };
}

function traders(volumeUsd: number, c: Candle): number {
  return Math.max(1, Math.round(volumeUsd / (2_000 + (c.close % 1) * 1_000)));
}

/** Rows of [open, high, low, close, volume, time, traders]. */
export const klineCandles = chart((p, token, chainCoin, s, step, now) => {
  const c = candleOver(token.index, s, s + step, now);
  const k = scaleAt(p, token, chainCoin, c.last);
  const volume = volumeOver(token.index, c);
  return [c.open * k, c.high * k, c.low * k, c.close * k, volume, s, traders(volume, c)];
});

/** Rows of [price (or market cap), volume, time]. */
export const klinePoints = chart((p, token, chainCoin, s, step) => {
  const price = priceAt(token.index, s);
  const volume = volume24h(token, s, price * circulatingSupply(token, s)) * (step / DAY);
  return [price * scaleAt(p, token, chainCoin, s), volume, s];
});
