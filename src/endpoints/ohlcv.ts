/**
 * OHLCV candles of assets: over time (daily or hourly, spaced by the candle's own length unless
 * asked otherwise) and today's so far. A candle whose period is not over is marked, in the data
 * (`complete: false`) and in the text ("so far").
 */
import { z } from 'zod';
import { type CalendarUnit, DAY, floorTo, isoSeconds, periodSteps } from '../calendar.js';
import { currencyLabel } from '../currency-ids.js';
import { formatMoney, formatPrice } from '../format/numbers.js';
import { candleSpan, seriesText } from '../format/series.js';
import { formatTime, lines, table } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { namedPages, seriesPages } from '../kit/pages.js';
import { convertExclusive, enumParam, paramsObject, type Rule, timeOrder } from '../kit/params.js';
import { historyByPlan, plansFrom } from '../kit/plans.js';
import { quoteEntry, quoteOf } from '../kit/quotes.js';
import { CALENDAR_INTERVALS, intervalSeconds, seriesReach, seriesServiceParams } from '../kit/series.js';
import { recordsOf } from '../kit/shapes.js';
import { parseTime } from '../kit/time.js';
import {
  currencyParams,
  exactlyOne,
  idsParam,
  namedCount,
  serviceSkipInvalid,
  skipInvalid,
  slugsParam,
  symbolsParam,
  timeBoundParam,
} from './asset-params.js';
import { rangeParams, seriesCredits, seriesLine } from './asset-series.js';

const STEP_INTERVALS = [
  ...['1h', '2h', '3h', '4h', '6h', '12h'],
  ...['1d', '2d', '3d', '7d', '14d', '15d', '30d', '60d', '90d', '365d'],
];
const INTERVALS = [...CALENDAR_INTERVALS, ...STEP_INTERVALS] as [string, ...string[]];

/** A candle's length in seconds, by its time_period. */
const CANDLE_SECONDS = { daily: 86_400, hourly: 3_600 } as const;
type CandleLength = keyof typeof CANDLE_SECONDS;

/** The candles' spacing: the interval asked for, else the candle's own length (the service samples daily). */
function candleInterval(p: { interval?: string; time_period?: string }): string {
  return p.interval ?? p.time_period ?? 'daily';
}

/** Daily candles spaced closer than a day would be the same candle again and again: refused. */
const spacingFitsCandle: Rule = (value, add) => {
  const { time_period, interval } = value as { time_period?: string; interval?: string };
  if (time_period !== 'hourly' && interval !== undefined && intervalSeconds(interval) < CANDLE_SECONDS.daily)
    add({
      path: 'interval',
      message: 'must be daily or longer with daily candles; for hourly candles send time_period=hourly',
    });
};

type RangeArgs = {
  time_start?: string | number;
  time_end?: string | number;
  time_period?: string;
  interval?: string;
};

/**
 * The candle that holds time_start (a daily candle counting from its date), which the range leaves
 * out, time_start being exclusive; whether time_start is its open (the candle a person asking
 * from it expects first); and how a time is written for the period.
 */
function heldCandle(p: RangeArgs) {
  const start = p.time_start === undefined ? undefined : parseTime(p.time_start);
  if (start === undefined) return undefined;
  const daily = p.time_period !== 'hourly';
  const interval = candleInterval(p);
  const steps = periodSteps(
    (CALENDAR_INTERVALS as readonly string[]).includes(interval)
      ? (interval as CalendarUnit)
      : intervalSeconds(interval),
  );
  const from = daily ? floorTo(start, DAY) : start;
  const opens = steps.start(from);
  const at = (t: number) => (daily ? isoSeconds(t).slice(0, 10) : isoSeconds(t));
  return { start, opens, steps, daily, at, named: opens === from };
}

/**
 * A range no candle opens in is refused before it is sent, free: time_start is exclusive (a daily
 * candle counting from its date), so time_start and time_end on one candle's start give none, and
 * so does today's date without time_end (the range then runs to now, on the clock the other time
 * checks read). The refusal names the time_start that gives the candle the range begins in.
 */
const candleInRange: Rule = (value, add) => {
  const p = value as RangeArgs;
  const held = heldCandle(p);
  const end = p.time_end === undefined ? Math.floor(Date.now() / 1000) : parseTime(p.time_end);
  if (held === undefined || end === undefined || held.start > end) return;
  const { opens, steps, daily, at } = held;
  if (steps.next(opens, 1) <= end) return;
  const how = daily
    ? 'time_start is exclusive, and a daily candle counts from its date'
    : 'time_start is exclusive';
  add({
    path: 'time_start',
    message: `no candle opens after it and by ${p.time_end === undefined ? 'now' : 'time_end'} (${how}): for the candle that opens at ${at(opens)}, send time_start=${at(steps.next(opens, -1))}`,
  });
};

/** Where time_start names a candle's open, the answer's word that the candle is left out, and what gives it. */
function exclusiveNote(p: RangeArgs): string | undefined {
  const held = heldCandle(p);
  if (held === undefined || !held.named) return undefined;
  const shown = held.daily ? held.at(held.opens) : formatTime(isoSeconds(held.opens));
  return `time_start is exclusive: the candle of ${shown} is left out; for it, send time_start=${held.at(held.steps.next(held.opens, -1))}.`;
}

/**
 * The candles, each marked complete or not, in place: the parse made them, so nothing else holds
 * them, and 50,000 candles are not copied to add one field.
 */
function marked<C extends object>(candles: C[], complete: (c: C) => boolean): (C & { complete: boolean })[] {
  for (const c of candles) (c as C & { complete: boolean }).complete = complete(c);
  return candles as (C & { complete: boolean })[];
}

/** Whether the candle's period is over at `nowMs`: its time_close passed, or its open and length did. */
function isComplete(
  c: { time_open: string; time_close?: string | null },
  length: CandleLength,
  nowMs: number,
) {
  const close = c.time_close
    ? Date.parse(c.time_close)
    : Date.parse(c.time_open) + CANDLE_SECONDS[length] * 1000;
  return close <= nowMs;
}

// ---------------------------------------------------------------- OHLCV historical

const candleQuote = quoteEntry(['open', 'high', 'low', 'close', 'volume', 'market_cap']);
const candle = z.object({
  time_open: z.string(),
  time_close: z.string().nullable().optional(),
  time_high: z.string().optional(),
  time_low: z.string().optional(),
  complete: z.boolean().describe('false: its period is not over, figures so far'),
  quote: z.array(candleQuote),
});
const ohlcvSeries = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  quotes: z.array(candle).describe('Candles, oldest first'),
});
const upstreamOhlcvSeries = lenient(ohlcvSeries, {
  quotes: z.array(lenient(candle.omit({ complete: true }), { quote: quoteOf(candleQuote) })),
});

type OhlcvSeries = z.infer<typeof ohlcvSeries>;

/**
 * One asset's candles on a page: the close's headline over all its candles (`all`, the whole the
 * page is of), then every candle the page shows; one candle, one sentence.
 */
function candlesText(a: OhlcvSeries, all: OhlcvSeries, length: CandleLength, what: string): string {
  const cur = a.quotes[0]?.quote[0]?.currency ?? 'USD';
  const money = (v: number | undefined) => formatPrice(v, cur);
  const daily = length === 'daily';
  const closes = all.quotes.flatMap((c) =>
    c.quote[0]?.close === undefined
      ? []
      : [
          {
            time: c.time_open,
            value: c.quote[0].close,
            label: candleSpan(c.time_open, CANDLE_SECONDS[length] * 1000, c.complete),
          },
        ],
  );
  const row = (c: (typeof a.quotes)[number]) => {
    const q = c.quote[0];
    const open = length === 'daily' ? ' (today, so far)' : ' (this hour, so far)';
    const time = `${formatTime(c.time_open, daily)}${c.complete ? '' : open}`;
    return [
      time,
      money(q?.open),
      money(q?.high),
      money(q?.low),
      money(q?.close),
      formatMoney(q?.volume, cur),
    ];
  };
  return seriesText(a.quotes, {
    headline: () => seriesLine(a, closes, cur, what),
    header: ['Open time', 'Open', 'High', 'Low', 'Close', 'Volume'],
    row,
    one: (c) => {
      const [time, open, high, low, close, volume] = row(c);
      return `${a.name} (${a.symbol}) ${length} candle of ${time} in ${currencyLabel(cur)}: open ${open}, high ${high}, low ${low}, close ${close}, volume ${volume}`;
    },
    total: all.quotes.length,
  });
}

export const ohlcvHistorical = defineEndpoint({
  name: 'get_ohlcv_historical',
  rowName: 'candle',
  title: 'OHLCV candles (historical)',
  toolset: 'cryptocurrency',
  inDefault: true,
  path: '/v2/cryptocurrency/ohlcv/historical',
  summary: `Candles (candlesticks, chart data) of coins: open, high, low, close (OHLC), volume; daily, hourly, weekly. ${historyByPlan(plansFrom('startup'))}`,
  input: paramsObject(
    {
      id: idsParam,
      slug: slugsParam,
      symbol: symbolsParam,
      time_period: enumParam(['daily', 'hourly'], 'Default daily.').optional(),
      ...rangeParams(),
      // The service reads time_start as exclusive here: the first candle is the period after it.
      time_start: timeBoundParam('Exclusive'),
      interval: enumParam(INTERVALS, 'Default: the candle length.').optional(),
      ...currencyParams(3),
      skip_invalid: skipInvalid,
    },
    convertExclusive,
    timeOrder,
    exactlyOne('id', 'slug', 'symbol'),
    spacingFitsCandle,
    candleInRange,
  ),
  // The service's own spacing is daily whatever the candle: the tool sends its own.
  serviceParams: {
    ...seriesServiceParams,
    ...serviceSkipInvalid,
    interval: enumParam(INTERVALS).default('daily'),
  },
  output: z.object({
    time_period: z.enum(['daily', 'hourly']),
    interval: z.string(),
    items: z.array(ohlcvSeries),
  }),
  credits: seriesCredits(true),
  pages: seriesPages(
    { fixed: 220, perCurrency: 200 },
    {
      shape: 'per asset',
      time: 'time_open',
      startExclusive: true,
      interval: (p) => candleInterval(p as { interval?: string; time_period?: string }),
    },
  ),
  refreshSeconds: 300,
  plans: plansFrom('startup'),
  reach: (p, now) => seriesReach({ ...p, interval: candleInterval(p) }, now),
  normalise(body, params, nowMs) {
    const length: CandleLength = params.time_period ?? 'daily';
    const items = recordsOf(upstreamOhlcvSeries, dataOf(body)).map((a) => ({
      ...a,
      quotes: marked(a.quotes, (c) => isComplete(c, length, nowMs)),
    }));
    return { time_period: length, interval: candleInterval(params), items };
  },
  summarise(data, params, whole = data) {
    if (data.items.length === 0) return 'No candles: none of the assets asked for is known.';
    const sampled = intervalSeconds(data.interval) > CANDLE_SECONDS[data.time_period];
    const what = `${data.time_period} close${sampled ? `, one candle at each ${data.interval} step` : ''}`;
    const open = data.items.flatMap((a) => a.quotes).find((c) => !c.complete);
    return lines(
      ...data.items.map((a, i) => candlesText(a, whole.items[i] ?? a, data.time_period, what)),
      open && `The candle from ${formatTime(open.time_open)} is not closed yet: its figures are so far.`,
      exclusiveNote(params),
    );
  },
});

// ---------------------------------------------------------------- OHLCV latest

const latestCandleQuote = quoteEntry(['open', 'high', 'low', 'close', 'volume']);
const latestCandle = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  time_open: z.string().optional(),
  time_high: z.string().optional(),
  time_low: z.string().optional(),
  last_updated: z.string().optional(),
  complete: z.literal(false).describe("Today's candle: not closed, figures so far"),
  quote: z.array(latestCandleQuote).describe('Today (UTC) so far; volume is the rolling 24h'),
});
const upstreamLatestCandle = lenient(latestCandle.omit({ complete: true }), {
  quote: quoteOf(latestCandleQuote),
});

export const ohlcvLatest = defineEndpoint({
  name: 'get_ohlcv_latest',
  rowName: 'candle',
  title: 'OHLCV candle (today so far)',
  toolset: 'cryptocurrency',
  path: '/v2/cryptocurrency/ohlcv/latest',
  summary: "Today's (UTC) open, high, low and latest price of assets, with 24h volume.",
  input: paramsObject(
    { id: idsParam, symbol: symbolsParam, ...currencyParams(), skip_invalid: skipInvalid },
    convertExclusive,
    exactlyOne('id', 'symbol'),
  ),
  serviceParams: serviceSkipInvalid,
  output: z.object({ items: z.array(latestCandle) }),
  credits: perItems({ per: 100, what: 'assets', items: namedCount, convert: true }),
  pages: namedPages({ fixed: 250, perCurrency: 150 }),
  refreshSeconds: 600,
  plans: plansFrom('startup'),
  normalise(body) {
    return {
      items: recordsOf(upstreamLatestCandle, dataOf(body)).map((a) => ({ ...a, complete: false as const })),
    };
  },
  summarise(data) {
    const [first] = data.items;
    if (!first) return 'No candles: none of the assets asked for is known.';
    const currencies = first.quote.length;
    return lines(
      `Today's candles (UTC), not closed: figures so far, as of ${formatTime(first.last_updated)}:`,
      table(
        ['Asset', 'Open', 'High', 'Low', 'Last', 'Volume 24h'],
        data.items.map((a) => {
          const q = a.quote[0];
          const money = (v: number | undefined) => formatPrice(v, q?.currency);
          return [
            a.symbol,
            money(q?.open),
            money(q?.high),
            money(q?.low),
            money(q?.close),
            formatMoney(q?.volume, q?.currency),
          ];
        }),
      ),
      currencies > 1 && `In ${first.quote[0]?.currency}; format=json has the other ${currencies - 1}.`,
    );
  },
});
