/** Market sentiment: the fear and greed index and the altcoin season index. */
import { z } from 'zod';
import { isoOf } from '../calendar.js';
import { formatMoney, formatNumber } from '../format/numbers.js';
import { describeSeries, seriesText } from '../format/series.js';
import { counted, formatTime, lines } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { offsetPages } from '../kit/pages.js';
import { enumParam, intParam, paramsObject } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';

/** The service's bands (docs/service.md, "Answers"): used when an answer arrives without its label. */
function fearAndGreedLabel(value: number): string {
  if (value < 20) return 'Extreme Fear';
  if (value < 40) return 'Fear';
  if (value < 60) return 'Neutral';
  if (value < 80) return 'Greed';
  return 'Extreme Greed';
}

/** Altcoin season reading: above 75 altcoin season, below 25 bitcoin season. */
function altcoinSeason(index: number): 'altcoin season' | 'bitcoin season' | 'neither season' {
  if (index > 75) return 'altcoin season';
  if (index < 25) return 'bitcoin season';
  return 'neither season';
}

const fearAndGreedValue = z.object({
  value: z.number().min(0).max(100).describe('0 (extreme fear) to 100 (extreme greed)'),
  value_classification: z
    .string()
    .describe('Extreme Fear <20, Fear <40, Neutral <60, Greed <80, Extreme Greed'),
});
const fearAndGreedLatestOutput = fearAndGreedValue.extend({ update_time: z.string().optional() });
const fearAndGreedDay = fearAndGreedValue.extend({ timestamp: z.string().describe('ISO 8601, 00:00 UTC') });

/** An answer without its label gets the band's (the service's bands). */
const labelled = {
  value_classification: (v: Record<string, unknown>) =>
    v.value_classification ?? fearAndGreedLabel(Number(v.value)),
};
const upstreamFearAndGreed = lenient(fearAndGreedLatestOutput, labelled);
/** Days come with Unix seconds as strings. */
const upstreamFearAndGreedDay = lenient(fearAndGreedDay, {
  ...labelled,
  timestamp: (v) => isoOf((v.timestamp ?? '') as string | number),
});

export const fearAndGreedLatest = defineEndpoint({
  name: 'get_fear_and_greed_latest',
  title: 'Crypto fear and greed (latest)',
  toolset: 'sentiment',
  inDefault: true,
  path: '/v3/fear-and-greed/latest',
  summary:
    'Current crypto market mood, sentiment: Fear and Greed index (0-100) and label, extreme fear to extreme greed (greedy or fearful).',
  input: paramsObject({}),
  output: fearAndGreedLatestOutput,
  credits: perCall(1),
  refreshSeconds: 900,
  plans: ALL_PLANS,
  normalise(body) {
    return parseBody(upstreamFearAndGreed, dataOf(body));
  },
  summarise(data) {
    return lines(
      `Fear & Greed ${data.value} – ${data.value_classification}`,
      `Updated ${formatTime(data.update_time)}`,
    );
  },
});

const historicalInput = paramsObject({
  start: intParam(1, undefined, '1-based offset (newest first).').default(1),
  limit: intParam(1, 500, 'Daily values.').default(50),
});

export const fearAndGreedHistorical = defineEndpoint({
  name: 'get_fear_and_greed_historical',
  rowName: 'point',
  title: 'Crypto fear and greed (historical)',
  toolset: 'sentiment',
  inDefault: true,
  path: '/v3/fear-and-greed/historical',
  summary:
    'How market mood, sentiment changed over the last week, month or past 30 days: daily Fear and Greed values and labels.',
  input: historicalInput,
  output: z.object({
    start: z.number(),
    items: z.array(fearAndGreedDay),
  }),
  credits: perCall(1),
  pages: offsetPages({ fixed: 110, perCurrency: 0 }),
  refreshSeconds: 15,
  plans: ALL_PLANS,
  normalise(body, params) {
    return { start: params.start, items: parseBody(z.array(upstreamFearAndGreedDay), dataOf(body)) };
  },
  summarise(data, _params, whole = data) {
    const [latest] = whole.items;
    if (!latest || data.items.length === 0) return `No fear and greed values from start=${data.start}.`;
    const oldestFirst = [...whole.items].reverse().map((v) => ({ time: v.timestamp, value: v.value }));
    return seriesText(data.items, {
      headline: () =>
        `Fear & Greed ${latest.value} – ${latest.value_classification} on ${formatTime(latest.timestamp, true)} at 00:00 UTC (its value now: get_fear_and_greed_latest); ${counted(whole.items.length, 'daily value')}: ${describeSeries(oldestFirst, String, { dateOnly: true, changeIn: 'points' })}`,
      header: ['Date', 'Value', 'Label'],
      row: (v) => [formatTime(v.timestamp, true), String(v.value), v.value_classification],
      one: (v) => `Fear & Greed on ${formatTime(v.timestamp, true)}: ${v.value} – ${v.value_classification}`,
      total: whole.items.length,
    });
  },
});

// ---------------------------------------------------------------- altcoin season

const altcoinLatestOutput = z.object({
  altcoin_index: z.number().min(0).max(100).describe('0-100: >75 altcoin season, <25 bitcoin season'),
  season: z.enum(['altcoin season', 'bitcoin season', 'neither season']),
  altcoin_marketcap: z.number().optional(),
  snapshot_time: z.string().optional(),
  yearly_high: z.number().optional(),
  yearly_high_date: z.string().optional(),
  yearly_low: z.number().optional(),
  yearly_low_date: z.string().optional(),
});

const upstreamAltcoinLatest = lenient(altcoinLatestOutput.omit({ season: true }));

export const altcoinSeasonLatest = defineEndpoint({
  name: 'get_altcoin_season_index_latest',
  title: 'Altcoin season (latest)',
  toolset: 'sentiment',
  inDefault: true,
  path: '/v1/altcoin-season-index/latest',
  summary:
    'Is it altcoin season (altseason) now, today? Altcoin Season indicator (0-100: over 75 altcoins outperform, under 25 bitcoin season).',
  input: paramsObject({}),
  output: altcoinLatestOutput,
  credits: perCall(1),
  refreshSeconds: 900,
  plans: ALL_PLANS,
  normalise(body) {
    const v = parseBody(upstreamAltcoinLatest, dataOf(body));
    return { ...v, season: altcoinSeason(v.altcoin_index) };
  },
  summarise(data) {
    return lines(
      `Altcoin Season Index ${formatNumber(data.altcoin_index, 0)} – ${data.season} (above 75 altcoin season, below 25 bitcoin season)`,
      `Altcoin market cap ${formatMoney(data.altcoin_marketcap)} at ${formatTime(data.snapshot_time)}`,
      data.yearly_high !== undefined &&
        `Yearly high ${formatNumber(data.yearly_high, 0)} (${formatTime(data.yearly_high_date, true)}), low ${formatNumber(data.yearly_low, 0)} (${formatTime(data.yearly_low_date, true)})`,
    );
  },
});

const altcoinPoint = z.object({
  timestamp: z.string(),
  altcoin_index: z.number(),
  altcoin_marketcap: z.number().optional(),
});
const upstreamAltcoinHistory = z.looseObject({
  timeframe: z.string().optional(),
  points: z.array(
    lenient(altcoinPoint, {
      timestamp: (p) => (p.timestamp === undefined ? undefined : isoOf(p.timestamp as string | number)),
    }),
  ),
});

export const altcoinSeasonHistorical = defineEndpoint({
  name: 'get_altcoin_season_index_historical',
  rowName: 'point',
  title: 'Altcoin season (historical)',
  toolset: 'sentiment',
  inDefault: true,
  path: '/v1/altcoin-season-index/historical',
  summary: 'The Altcoin Season index over the last 7, 30 or 90 days: was it altseason last month.',
  input: paramsObject({
    timeframe: enumParam(['7d', '30d', '90d'], 'How far back.').default('7d'),
  }),
  output: z.object({ timeframe: z.string(), points: z.array(altcoinPoint) }),
  rows: { list: 'points' },
  credits: perCall(1),
  refreshSeconds: 900,
  plans: ALL_PLANS,
  normalise(body, params) {
    const data = parseBody(upstreamAltcoinHistory, dataOf(body));
    return { timeframe: data.timeframe ?? params.timeframe, points: data.points };
  },
  summarise(data) {
    const last = data.points.at(-1);
    if (!last) return `No altcoin season points for ${data.timeframe}.`;
    const series = data.points.map((p) => ({ time: p.timestamp, value: p.altcoin_index }));
    return seriesText(data.points, {
      headline: () =>
        `Altcoin Season Index ${formatNumber(last.altcoin_index, 0)} – ${altcoinSeason(last.altcoin_index)}; ${counted(data.points.length, 'point')} over ${data.timeframe}: ${describeSeries(series, (v) => formatNumber(v, 0), { changeIn: 'points' })}`,
      header: ['Time', 'Index', 'Altcoin cap'],
      row: (p) => [
        formatTime(p.timestamp),
        formatNumber(p.altcoin_index, 0),
        formatMoney(p.altcoin_marketcap),
      ],
      one: (p) =>
        `Altcoin Season Index at ${formatTime(p.timestamp)}: ${formatNumber(p.altcoin_index, 0)} – ${altcoinSeason(p.altcoin_index)}, altcoin cap ${formatMoney(p.altcoin_marketcap)}`,
    });
  },
});
