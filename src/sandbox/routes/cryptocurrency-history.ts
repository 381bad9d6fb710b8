/** OHLCV candles (historical and today's), price performance by period, and quotes at intervals. */

import { checkDepth } from '../accounts.js';
import { type Currency, resolveConvert } from '../currencies.js';
import { closestQuote, type HistoryQuery, historyRange, requestedPeriods } from '../history.js';
import { ASSETS, type Asset } from '../market/assets.js';
import { type Candle, candleOver, volumeOver } from '../market/candles.js';
import { circulatingSupply, priceAt, totalSupply, volume24h } from '../market/model.js';
import {
  type CalendarUnit,
  DAY,
  floorTo,
  HOUR,
  historyStart,
  iso,
  MINUTE,
  periodSteps,
} from '../market/time.js';
import type { history as endpoints } from '../service/index.js';
import { intervalSeconds } from '../service/time.js';
import { inSlices } from '../slices.js';
import { keyedJson, namedAssets } from './named.js';
import type { HandlerOf } from './types.js';

const CALENDAR: ReadonlySet<string> = new Set(['hourly', 'daily', 'weekly', 'monthly', 'yearly']);

/** The end of a period, to the millisecond, as the service writes time_close. */
function closeTime(end: number): string {
  return new Date(end * 1000 - 1).toISOString();
}

/** Quote entries keyed by currency, each from USD figures at the rate of instant t. */
function quoteOf(currencies: readonly Currency[], t: number, usd: (rate: number) => Record<string, unknown>) {
  const quote: Record<string, Record<string, unknown>> = {};
  for (const c of currencies) quote[c.key] = usd(c.usdAt(t));
  return quote;
}

function firstData(a: Asset, now: number): number {
  return Math.max(a.dateAdded, historyStart(now));
}

// ---------------------------------------------------------------- OHLCV historical

/** Step starts: calendar periods, or fixed steps from the Unix epoch. */
function stepper(interval: string) {
  return periodSteps(CALENDAR.has(interval) ? (interval as CalendarUnit) : intervalSeconds(interval));
}

/**
 * Candle starts: `count` back from time_end (the period still open included), or after time_start
 * (exclusive; daily candles use its date) up to time_end.
 */
function candleStarts(p: HistoryQuery, length: number, now: number): number[] {
  const steps = stepper(p.interval);
  const { start, end } = historyRange(p, now);
  const starts: number[] = [];
  if (start === undefined) {
    for (let s = steps.start(end); starts.length < p.count; s = steps.next(s, -1)) starts.push(s);
    return starts.reverse();
  }
  const from = length === DAY ? floorTo(start, DAY) : start;
  let s = steps.start(from);
  if (s <= from) s = steps.next(s, 1);
  for (; starts.length < p.count && s <= end; s = steps.next(s, 1)) starts.push(s);
  return starts;
}

function candleJson(
  i: number,
  c: Candle,
  length: number,
  currencies: readonly Currency[],
): Record<string, unknown> {
  const a = ASSETS[i]!;
  const volume = volumeOver(i, c);
  const cap = c.close * circulatingSupply(a, c.last);
  return {
    time_open: iso(c.start),
    time_close: closeTime(c.start + length),
    time_high: iso(c.highAt),
    time_low: iso(c.lowAt),
    quote: quoteOf(currencies, c.last, (rate) => ({
      open: c.open / rate,
      high: c.high / rate,
      low: c.low / rate,
      close: c.close / rate,
      volume: volume / rate,
      market_cap: cap / rate,
      timestamp: closeTime(c.start + length),
    })),
  };
}

/** One object for a single id; keyed by id, or by symbol with lists, otherwise. */
export const ohlcvHistorical: HandlerOf<typeof endpoints.ohlcvHistorical> = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const p = params;
    const length = p.time_period === 'hourly' ? HOUR : DAY;
    const starts = candleStarts(p, length, now);
    if (starts.length > 0)
      checkDepth(plan, now, starts[0]!, {
        what: 'OHLCV history',
        advice: 'Use a later time_start or a smaller count',
      });
    const currencies = resolveConvert(params);
    const { by, assets } = namedAssets(params, { skipByDefault: true });
    let points = 0;
    const record = (a: Asset) => {
      const first = firstData(a, now);
      const quotes = starts
        .filter((s) => s >= first && s <= now)
        .map((s) => candleJson(a.index, candleOver(a.index, s, s + length, now), length, currencies));
      points += quotes.length;
      return JSON.stringify({ id: a.id, name: a.name, symbol: a.symbol, quotes });
    };
    const single = by === 'id' && assets.length === 1 && !String(params.id).includes(',');
    return inSlices(assets, record, (records) => ({
      dataJson: single ? (records[0] as string) : keyedJson(by, assets, records),
      items: points,
    }));
  },
};

// ---------------------------------------------------------------- OHLCV latest

export const ohlcvLatest: HandlerOf<typeof endpoints.ohlcvLatest> = {
  envelope: 'standard',
  handle({ params, now }) {
    const currencies = resolveConvert(params);
    const { by, assets } = namedAssets(params, { skipByDefault: true });
    const day = floorTo(now, DAY);
    const updated = floorTo(now, MINUTE);
    const record = (a: Asset) => {
      const c = candleOver(a.index, day, day + DAY, updated);
      const volume = volume24h(a, updated, c.close * circulatingSupply(a, updated));
      return JSON.stringify({
        id: a.id,
        name: a.name,
        symbol: a.symbol,
        last_updated: iso(updated),
        time_open: iso(day),
        time_close: null,
        time_high: iso(c.highAt),
        time_low: iso(c.lowAt),
        quote: quoteOf(currencies, updated, (rate) => ({
          open: c.open / rate,
          high: c.high / rate,
          low: c.low / rate,
          close: c.close / rate,
          volume: volume / rate,
          last_updated: iso(updated),
        })),
      });
    };
    return { dataJson: keyedJson(by, assets, assets.map(record)), items: assets.length };
  },
};

// ---------------------------------------------------------------- price performance

const PERIOD_SECONDS: Readonly<Record<string, number>> = {
  '24h': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
  '365d': 365 * DAY,
};

/** The span a period name covers, for asset a, at now: [from, until). */
function periodSpan(name: string, a: Asset, now: number): [number, number] {
  const first = firstData(a, now);
  if (name === 'yesterday') return [Math.max(first, floorTo(now, DAY) - DAY), floorTo(now, DAY)];
  const from = name === 'all_time' ? first : now - PERIOD_SECONDS[name]!;
  return [Math.max(first, from), now + 1];
}

export const pricePerformance: HandlerOf<typeof endpoints.pricePerformance> = {
  envelope: 'standard',
  handle({ params, now }) {
    const t = floorTo(now, MINUTE);
    const names = (params.time_period ?? 'all_time').split(',');
    const currencies = resolveConvert(params);
    const { by, assets } = namedAssets(params, { skipByDefault: true });
    const record = (a: Asset) => {
      const periods: Record<string, unknown> = {};
      for (const name of names) {
        const [from, until] = periodSpan(name, a, t);
        const c = candleOver(a.index, from, until, t);
        // The service gives no high and low times for yesterday.
        const times = {
          open_timestamp: iso(c.start),
          high_timestamp: name === 'yesterday' ? null : iso(c.highAt),
          low_timestamp: name === 'yesterday' ? null : iso(c.lowAt),
          close_timestamp: iso(c.last),
        };
        periods[name] = {
          ...times,
          quote: quoteOf(currencies, c.last, (rate) => ({
            open: c.open / rate,
            high: c.high / rate,
            low: c.low / rate,
            close: c.close / rate,
            percent_change: (c.close / c.open - 1) * 100,
            price_change: (c.close - c.open) / rate,
            ...times,
          })),
        };
      }
      return JSON.stringify({
        id: a.id,
        name: a.name,
        symbol: a.symbol,
        slug: a.slug,
        last_updated: iso(t),
        periods,
      });
    };
    return { dataJson: keyedJson(by, assets, assets.map(record)), items: assets.length };
  },
};

// ---------------------------------------------------------------- quotes historical

const DEFAULT_AUX =
  'price,volume,market_cap,circulating_supply,total_supply,quote_timestamp,is_active,is_fiat';
/** The quote field each aux name adds. */
const QUOTE_FIELD: Readonly<Record<string, string>> = {
  price: 'price',
  volume: 'volume_24h',
  market_cap: 'market_cap',
  circulating_supply: 'circulating_supply',
  total_supply: 'total_supply',
  quote_timestamp: 'timestamp',
};

/** One quote per interval period (the historical rules of history.ts), keyed by id or by symbol with lists. */
export const quotesHistorical: HandlerOf<typeof endpoints.quotesHistorical> = {
  envelope: 'standard',
  handle({ params, now, plan }) {
    const periods = requestedPeriods(params, now, plan, 'quote history');
    const aux = new Set((params.aux ?? DEFAULT_AUX).split(','));
    const fields = new Set([...aux].map((name) => QUOTE_FIELD[name]).filter(Boolean));
    const currencies = resolveConvert(params);
    const { by, assets } = namedAssets(params, { skipByDefault: true });
    let points = 0;
    const record = (a: Asset) => {
      const quotes: unknown[] = [];
      for (const period of periods) {
        const t = closestQuote(period, firstData(a, now), now);
        if (t === undefined) continue;
        const price = priceAt(a.index, t);
        const supply = circulatingSupply(a, t);
        const figures = (rate: number) => {
          const all: Record<string, unknown> = {
            price: price / rate,
            volume_24h: volume24h(a, t, price * supply) / rate,
            market_cap: (price * supply) / rate,
            circulating_supply: supply,
            total_supply: totalSupply(a, supply),
            timestamp: iso(t),
          };
          return Object.fromEntries(Object.entries(all).filter(([key]) => fields.has(key)));
        };
        const entry: Record<string, unknown> = { timestamp: iso(t), quote: quoteOf(currencies, t, figures) };
        if (aux.has('search_interval')) {
          entry.search_interval = {
            requested: iso(period.requested),
            time_start: iso(period.lo),
            time_end: iso(period.hi),
          };
        }
        quotes.push(entry);
      }
      points += quotes.length;
      const flags = {
        ...(aux.has('is_active') ? { is_active: 1 } : {}),
        ...(aux.has('is_fiat') ? { is_fiat: 0 } : {}),
      };
      return JSON.stringify({ id: a.id, name: a.name, symbol: a.symbol, ...flags, quotes });
    };
    return inSlices(assets, record, (records) => ({
      dataJson: keyedJson(by, assets, records),
      items: points,
    }));
  },
};
