/**
 * Candles as get_ohlcv_historical gives them, page by page, turned into what the figures read:
 * each asset's complete candles (closed by `now`), oldest first, once each, with their closes in
 * the one currency asked for; and log returns by time, so that two assets are compared only at the
 * times both have.
 */
import { logReturns } from './figures.js';

/** The part of a candle the analysis reads. */
export interface Candle {
  time_open: string;
  time_close?: string | null;
  quote: readonly { currency: string; close?: number }[];
}

export interface CandleSeries {
  id: number;
  name: string;
  symbol: string;
  quotes: readonly Candle[];
}

/** One asset's complete closes, oldest first, each with its candle's time_open. */
export interface Closes {
  id: number;
  name: string;
  symbol: string;
  times: string[];
  closes: number[];
}

const PERIOD_MS = { daily: 86_400_000, hourly: 3_600_000 } as const;

/** When a candle closes: its time_close, or its time_open and one period. */
function closesAt(candle: Candle, interval: keyof typeof PERIOD_MS): number {
  const close = candle.time_close ? Date.parse(candle.time_close) : Number.NaN;
  return Number.isFinite(close) ? close : Date.parse(candle.time_open) + PERIOD_MS[interval] - 1;
}

/**
 * Each asset's complete candles (in the order the series appear), with a close in `currency`: a
 * candle still open at `nowMs`, or without that close, is left out.
 */
export function completeCloses(
  all: readonly CandleSeries[],
  currency: string,
  interval: keyof typeof PERIOD_MS,
  nowMs: number,
): Closes[] {
  const byId = new Map<number, { series: CandleSeries; candles: Map<string, number> }>();
  for (const series of all) {
    const entry = byId.get(series.id) ?? { series, candles: new Map<string, number>() };
    byId.set(series.id, entry);
    for (const candle of series.quotes) {
      const close = candle.quote.find((q) => q.currency.toUpperCase() === currency)?.close;
      if (close === undefined || !(close > 0) || closesAt(candle, interval) > nowMs) continue;
      entry.candles.set(candle.time_open, close);
    }
  }
  return [...byId.values()].map(({ series, candles }) => {
    const times = [...candles.keys()].sort((a, b) => Date.parse(a) - Date.parse(b));
    return {
      id: series.id,
      name: series.name,
      symbol: series.symbol,
      times,
      closes: times.map((t) => candles.get(t) as number),
    };
  });
}

/** Log returns keyed by the time of the candle that ends each. */
export function returnsByTime(series: Closes): Map<string, number> {
  const returns = logReturns(series.closes);
  return new Map(returns.map((r, i) => [series.times[i + 1]!, r]));
}

/** Two assets' returns at the times both have, in time order. */
export function alignedReturns(a: Closes, b: Closes): [number[], number[]] {
  const other = returnsByTime(b);
  const left: number[] = [];
  const right: number[] = [];
  for (const [time, r] of returnsByTime(a)) {
    const s = other.get(time);
    if (s === undefined) continue;
    left.push(r);
    right.push(s);
  }
  return [left, right];
}
