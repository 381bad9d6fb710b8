/**
 * Candles of one asset, from the same prices the 5-minute history gives: open is the price at the
 * period's start, close the price at its end (or now, for the period still open), high and low the
 * extremes of those and of every 5-minute slot in between. So every quote the historical endpoints
 * give lies within the candle of its period. Daily candles are kept: long ranges reuse them.
 */
import { ASSETS } from './assets.js';
import { circulatingSupply, priceAt, volume24h } from './model.js';
import { DAY, floorTo, SLOT } from './time.js';

export interface Candle {
  start: number;
  /** The last instant the candle covers: its end, or now for a period still open. */
  last: number;
  open: number;
  high: number;
  low: number;
  close: number;
  highAt: number;
  lowAt: number;
}

/** Samples at `start`, at every 5-minute slot after it up to `last`, and at `last`. */
function sampled(i: number, start: number, last: number): Candle {
  const open = priceAt(i, start);
  const c: Candle = { start, last, open, high: open, low: open, close: open, highAt: start, lowAt: start };
  const see = (t: number) => {
    const p = priceAt(i, t);
    if (p > c.high) {
      c.high = p;
      c.highAt = t;
    }
    if (p < c.low) {
      c.low = p;
      c.lowAt = t;
    }
    return p;
  };
  // Shorter than a slot (DEX candles of seconds): a few points inside instead.
  const step = last - start < SLOT ? Math.max(1, Math.floor((last - start) / 4)) : SLOT;
  for (let t = floorTo(start, step) + step; t < last; t += step) see(t);
  if (last > start) c.close = see(last);
  return c;
}

function merge(a: Candle, b: Candle): Candle {
  return {
    start: a.start,
    last: b.last,
    open: a.open,
    close: b.close,
    high: Math.max(a.high, b.high),
    highAt: b.high > a.high ? b.highAt : a.highAt,
    low: Math.min(a.low, b.low),
    lowAt: b.low < a.low ? b.lowAt : a.lowAt,
  };
}

const DAILY_KEPT = 50_000;
const daily = new Map<string, Candle>();

/** The complete UTC day starting at `day`, kept (a complete day never changes). */
function dailyCandle(i: number, day: number): Candle {
  const key = `${i}:${day}`;
  let c = daily.get(key);
  if (c === undefined) {
    c = sampled(i, day, day + DAY - 1);
    if (daily.size >= DAILY_KEPT) daily.delete(daily.keys().next().value as string);
    daily.set(key, c);
  }
  return c;
}

/**
 * Asset i's candle over [start, end), cut at `now` for a period still open. Whole UTC days come
 * from the kept daily candles, the parts before and after from samples.
 */
export function candleOver(i: number, start: number, end: number, now: number): Candle {
  const last = Math.min(end - 1, now);
  const firstDay = Math.ceil(start / DAY) * DAY;
  const lastDay = floorTo(last + 1, DAY);
  if (lastDay - firstDay < DAY) return sampled(i, start, Math.max(start, last));
  let c: Candle | undefined = start < firstDay ? sampled(i, start, firstDay - 1) : undefined;
  for (let d = firstDay; d < lastDay; d += DAY) {
    const day = dailyCandle(i, d);
    c = c === undefined ? day : merge(c, day);
  }
  const whole = c as Candle;
  return last >= lastDay ? merge(whole, sampled(i, lastDay, last)) : whole;
}

/** Volume over a period: the 24h volume at its last instant, scaled to the period's length. */
export function volumeOver(i: number, c: Candle): number {
  const a = ASSETS[i]!;
  const cap = c.close * circulatingSupply(a, c.last);
  return volume24h(a, c.last, cap) * ((c.last + 1 - c.start) / DAY);
}
