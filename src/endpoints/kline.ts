/**
 * DEX charts of a token or pool by contract address: candles, and price or market-cap points. The
 * documentation gives no credits, cache time or plans for these (the endpoints are also served
 * keyless): the estimate is conservative and the charge is settled from what the service reports.
 */
import { z } from 'zod';
import { isoOf } from '../calendar.js';
import { formatMoney, formatNumber, formatPrice } from '../format/numbers.js';
import { candleSpan, describeSeries, seriesText } from '../format/series.js';
import { counted, formatTime, lines } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint, looseNumber, parseBody } from '../kit/define.js';
import { chartPages } from '../kit/pages.js';
import { enumParam, intParam, paramsObject } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';

const INTERVALS = [
  ...['1s', '5s', '30s', '1min', '3min', '5min', '15min', '30min'],
  ...['1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1m'],
] as const;
/** The latest Unix second a chart may name: 2100-01-01. */
const LAST_SECOND = 4_102_444_800;

const unixSeconds = (what: string) =>
  z.number().int().min(0).max(LAST_SECOND).optional().describe(`${what}, Unix seconds.`);

/**
 * Candles and points a chart asks for by default (the service gives no default): as many as a
 * short text shows; `limit` asks for up to 1,000.
 */
const CANDLES_BY_DEFAULT = 24;
const POINTS_BY_DEFAULT = 48;

function chartInput(defaultLimit: number) {
  return paramsObject(
    {
      platform: z
        .string()
        .min(1)
        .max(50)
        .regex(/^[A-Za-z0-9 ._-]+$/, { message: 'must be a chain name or id, e.g. "solana" or "ethereum"' })
        .describe('Chain name, e.g. solana, or its id in list_dex_platforms.'),
      address: z
        .string()
        .regex(/^[0-9A-Za-z]{20,128}$/, {
          message: 'must be a contract address (20 to 128 letters and digits)',
        })
        .describe("Token or pool contract address (get_cryptocurrency_info gives a token's)."),
      interval: enumParam(
        INTERVALS,
        'Candle length (1m is a month); the service picks when left out.',
      ).optional(),
      from: unixSeconds('Start'),
      to: unixSeconds('End'),
      unit: enumParam(['usd', 'native', 'quote'], 'Price unit; default usd.').optional(),
      limit: intParam(1, 1000, 'Points.').default(defaultLimit),
      pm: enumParam(['p', 'm'], 'p: price (default); m: market cap.').optional(),
    },
    (value, add) => {
      const { from, to } = value as { from?: number; to?: number };
      if (from !== undefined && to !== undefined && from > to)
        add({ path: 'from', message: 'must not be after to' });
    },
  );
}

/** Not documented: an unofficial note says 1 per 100 points; the answer's credit_count settles it. */
function chartCredits(what: string) {
  return perItems({
    per: 100,
    what,
    items: (p: { limit: number }) => p.limit,
    scales: 'limit',
    text: `not documented; estimated at 1 per started 100 ${what}, settled from the answer`,
  });
}

const row = z.array(looseNumber.nullable());
const rows = (body: unknown) => parseBody(z.array(row), dataOf(body));

const chartHeader = {
  platform: z.string(),
  address: z.string(),
};

const candle = z.object({
  time: z.string(),
  complete: z.boolean().describe('false: its period is not over, figures so far'),
  open: z.number().nullable(),
  high: z.number().nullable(),
  low: z.number().nullable(),
  close: z.number().nullable(),
  volume: z.number().nullable(),
  traders: z.number().nullable().optional(),
});

const DAY_MS = 86_400_000;
const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  min: 60_000,
  h: 3_600_000,
  d: DAY_MS,
  w: 604_800_000,
};

/**
 * A candle's length in milliseconds: its interval's (1m is a month, at its shortest), or, where the
 * service picked it, the spacing of the candles.
 */
function candleMs(interval: string | undefined, candles: readonly { time: string }[]): number {
  const unit = interval?.match(/^(\d+)(s|min|h|d|w|m)$/);
  if (unit) return Number(unit[1]) * (unit[2] === 'm' ? 28 * DAY_MS : (UNIT_MS[unit[2] ?? 'd'] ?? DAY_MS));
  const [a, b] = candles.slice(-2).map((c) => Date.parse(c.time));
  return b !== undefined && a !== undefined && b > a ? b - a : DAY_MS;
}

/** When a chart is as long as its limit: how to ask for more (the service has no page of its own). */
function moreLine(count: number, limit: number | undefined): string | undefined {
  if (limit === undefined || count < limit || limit >= 1000) return undefined;
  return `As many as limit (${limit}) asks for: a higher limit (up to 1,000), or from and to, ask for more.`;
}

function chartHeading(p: { platform: string; address: string }, count: number, what: string): string {
  return `${counted(count, what)} for ${p.address} on ${p.platform}`;
}

export const klineCandles = defineEndpoint({
  name: 'get_kline_candles',
  rowName: 'candle',
  title: 'DEX token candles',
  toolset: 'kline',
  path: '/v1/k-line/candles',
  summary:
    'OHLCV candles (with traders) of a DEX token or pool by chain and contract address. Plans: not documented.',
  input: chartInput(CANDLES_BY_DEFAULT),
  output: z.object({ ...chartHeader, candles: z.array(candle).describe('Oldest first') }),
  credits: chartCredits('candles'),
  pages: chartPages({ fixed: 160, perCurrency: 0 }, 'candles'),
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body, params, nowMs) {
    const sorted = rows(body)
      .filter((r) => r.length >= 6 && r[5] !== null)
      .map(([open, high, low, close, volume, time, traders]) => ({
        time: isoOf(time as number),
        open: open ?? null,
        high: high ?? null,
        low: low ?? null,
        close: close ?? null,
        volume: volume ?? null,
        traders: traders ?? null,
      }))
      .sort((a, b) => a.time.localeCompare(b.time));
    const length = candleMs(params.interval, sorted);
    const candles = sorted.map((c) => ({ ...c, complete: Date.parse(c.time) + length <= nowMs }));
    return { platform: params.platform, address: params.address, candles };
  },
  summarise(data, params, whole = data) {
    if (data.candles.length === 0) return `No candles for ${data.address} on ${data.platform} in that range.`;
    const unit = params.unit === undefined || params.unit === 'usd' ? 'USD' : params.unit;
    const money = (v: number | null) => (unit === 'USD' ? formatPrice(v) : formatNumber(v));
    const length = candleMs(params.interval, whole.candles);
    const closes = whole.candles.flatMap((c) =>
      c.close === null
        ? []
        : [{ time: c.time, value: c.close, label: candleSpan(c.time, length, c.complete) }],
    );
    const row = (c: (typeof data.candles)[number]) => [
      `${formatTime(c.time)}${c.complete ? '' : ' (so far)'}`,
      money(c.open),
      money(c.high),
      money(c.low),
      money(c.close),
      formatMoney(c.volume),
      c.traders == null ? '' : formatNumber(c.traders),
    ];
    const candles = seriesText(data.candles, {
      headline: () =>
        `${chartHeading(data, whole.candles.length, 'candle')}, close in ${unit}: ${describeSeries(closes, (v) => money(v))}`,
      header: ['Time', 'Open', 'High', 'Low', 'Close', 'Volume', 'Traders'],
      row,
      one: (c) => {
        const [time, open, high, low, close, volume, traders] = row(c);
        return `The candle of ${data.address} on ${data.platform} at ${time}, in ${unit}: open ${open}, high ${high}, low ${low}, close ${close}, volume ${volume}${traders ? `, ${traders} traders` : ''}`;
      },
      total: whole.candles.length,
    });
    return lines(candles, moreLine(whole.candles.length, params.limit));
  },
});

const point = z.object({ time: z.string(), value: z.number().nullable(), volume: z.number().nullable() });

export const klinePoints = defineEndpoint({
  name: 'get_kline_points',
  rowName: 'point',
  title: 'DEX token price points',
  toolset: 'kline',
  path: '/v1/k-line/points',
  summary:
    'Price (or market cap) and volume points of a DEX token or pool by chain and contract address. Plans: not documented.',
  input: chartInput(POINTS_BY_DEFAULT),
  output: z.object({
    ...chartHeader,
    series: z.enum(['price', 'market_cap']),
    points: z.array(point).describe('Oldest first'),
  }),
  credits: chartCredits('points'),
  pages: chartPages({ fixed: 90, perCurrency: 0 }, 'points'),
  refreshSeconds: 60,
  plans: ALL_PLANS,
  normalise(body, params) {
    const points = rows(body)
      .filter((r) => r.length >= 3 && r[2] !== null)
      .map(([value = null, volume = null, time]) => ({ time: isoOf(time as number), value, volume }))
      .sort((a, b) => a.time.localeCompare(b.time));
    const series = params.pm === 'm' ? ('market_cap' as const) : ('price' as const);
    return { platform: params.platform, address: params.address, series, points };
  },
  summarise(data, params, whole = data) {
    if (data.points.length === 0) return `No points for ${data.address} on ${data.platform} in that range.`;
    const show = (v: number) => (data.series === 'price' ? formatPrice(v) : formatMoney(v));
    const values = whole.points.flatMap((p) => (p.value === null ? [] : [{ time: p.time, value: p.value }]));
    const what = data.series.replace('_', ' ');
    const value = (v: number | null) => (v === null ? '' : show(v));
    const points = seriesText(data.points, {
      headline: () =>
        `${chartHeading(data, whole.points.length, `${what} point`)}: ${describeSeries(values, show)}`,
      header: ['Time', what[0]?.toUpperCase() + what.slice(1), 'Volume'],
      row: (p) => [formatTime(p.time), value(p.value), formatMoney(p.volume)],
      one: (p) =>
        `The ${what} of ${data.address} on ${data.platform} at ${formatTime(p.time)}: ${value(p.value)}, volume ${formatMoney(p.volume)}`,
      total: whole.points.length,
    });
    return lines(points, moreLine(whole.points.length, params.limit));
  },
});
