/** The two market indices, svc100 (top 100 assets) and svc20 (top 20): latest and historical. */
import { z } from 'zod';
import { formatNumber, formatPercent, formatPrice } from '../format/numbers.js';
import { describeSeries, seriesText } from '../format/series.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { perCall } from '../kit/credits.js';
import { dataOf, defineEndpoint, parseBody } from '../kit/define.js';
import { lenient } from '../kit/lenient.js';
import { seriesPages } from '../kit/pages.js';
import { enumParam, intParam, paramsObject, timeOrder } from '../kit/params.js';
import { ALL_PLANS } from '../kit/plans.js';
import { timeBoundParam, timeEndParam } from './asset-params.js';

/** A constituent in the latest value (its page link is left out: no one asked for it). */
const constituent = z.object({
  id: z.number(),
  name: z.string(),
  symbol: z.string(),
  weight: z.number().describe('Percent; they sum to 100'),
  priceUsd: z.number().optional().describe('svc20 only'),
  units: z.number().optional().describe('svc20 only'),
});
/** A constituent in a past value: which asset and how heavy (the latest value has the rest). */
const pastConstituent = constituent.pick({ symbol: true, weight: true });

const latestOutput = z.object({
  index: z.string(),
  value: z.number(),
  value_24h_percentage_change: z.number().optional(),
  last_update: z.string().optional(),
  next_update: z.string().optional(),
  constituents: z.array(constituent),
});
const upstreamLatest = lenient(latestOutput.omit({ index: true }));

const historicalValue = z.object({
  update_time: z.string(),
  value: z.number(),
  constituents: z.array(pastConstituent),
});
/** Historical values may come without constituents. */
const upstreamHistoricalValue = lenient(historicalValue, {
  constituents: z
    .array(lenient(pastConstituent))
    .nullish()
    .transform((list) => list ?? []),
});

/** Every constituent as a row, heaviest first. */
function constituentTable(list: readonly z.infer<typeof constituent>[]): string {
  return table(
    ['Asset', 'Weight', 'Price'],
    [...list]
      .sort((a, b) => b.weight - a.weight)
      .map((c) => [`${c.name} (${c.symbol})`, `${c.weight.toFixed(2)}%`, formatPrice(c.priceUsd)]),
  );
}

/**
 * The service answers at most 10 values when both time bounds are given: a longer range whose
 * count the tool filled in is asked for as that many values back from time_end, in one request.
 */
function oneRequestForARange(counted: Params, asked: Params): Params {
  const { time_start, ...back } = counted;
  const both = time_start !== undefined && counted.time_end !== undefined;
  return both && asked.count === undefined && (counted.count as number) > 10 ? back : counted;
}

type Params = Record<string, unknown>;

type Index = 'svc100' | 'svc20';

/** The index now: its value and weighted constituents. */
function latestIndex<const I extends Index>(index: I, size: number) {
  const label = index.toUpperCase();
  return defineEndpoint({
    name: `get_${index}_index_latest`,
    title: `${label} index (latest)`,
    toolset: 'indices',
    inDefault: true,
    path: `/v3/index/${index}-latest`,
    summary: `${label}, the top ${size} crypto index by market cap, now: value, 24h change, the coins that make it up and their weights.`,
    input: paramsObject({}),
    output: latestOutput,
    credits: perCall(1),
    refreshSeconds: 300,
    plans: ALL_PLANS,
    normalise(body) {
      return { index, ...parseBody(upstreamLatest, dataOf(body)) };
    },
    summarise(data) {
      return lines(
        `${label} ${formatNumber(data.value)} (${formatPercent(data.value_24h_percentage_change)} 24h), updated ${formatTime(data.last_update)}, next ${formatTime(data.next_update)}`,
        `${counted(data.constituents.length, 'constituent')}, heaviest first:`,
        constituentTable(data.constituents),
      );
    },
  });
}

/** Past values of the index, paged by the service's own limit (10 with both time bounds). */
function historicalIndex<const I extends Index>(index: I, size: number) {
  const label = index.toUpperCase();
  // svc100 values carry 100 constituents each: three by default keep the answer short.
  const shown = index === 'svc100' ? 3 : 5;
  return defineEndpoint({
    name: `get_${index}_index_historical`,
    rowName: 'point',
    title: `${label} index (historical)`,
    toolset: 'indices',
    inDefault: true,
    path: `/v3/index/${index}-historical`,
    summary: `${label} (top ${size} index) history: past values over recent days or weeks, how it performed, every 5 or 15 minutes or daily.`,
    input: paramsObject(
      {
        time_start: timeBoundParam(),
        time_end: timeEndParam,
        count: intParam(
          1,
          100,
          `Default ${shown}, or all in the range (at most 10 with both bounds).`,
        ).optional(),
        interval: enumParam(['5m', '15m', 'daily']).default('daily'),
      },
      timeOrder,
      (value, add) => {
        if (value.time_start !== undefined && value.time_end !== undefined && (value.count as number) > 10) {
          add({ path: 'count', message: 'must be at most 10 when both time_start and time_end are given' });
        }
      },
    ),
    serviceParams: { count: intParam(1, 100, 'Values.').default(5) },
    output: z.object({
      index: z.string(),
      interval: z.string(),
      items: z.array(historicalValue).describe('Index values, oldest first'),
    }),
    credits: perCall(1),
    // Each value carries its constituents: about 56 bytes each.
    pages: seriesPages(
      { fixed: 200 + 56 * size, perCurrency: 0 },
      {
        shape: { list: 'items' },
        time: 'update_time',
        defaultCount: shown,
        maxCount: 100,
        complete: oneRequestForARange,
      },
    ),
    refreshSeconds: 300,
    plans: ALL_PLANS,
    normalise(body, params) {
      const items = parseBody(z.array(upstreamHistoricalValue), dataOf(body));
      return {
        index,
        interval: params.interval,
        items: items.sort((a, b) => Date.parse(a.update_time) - Date.parse(b.update_time)),
      };
    },
    summarise(data, _params, whole = data) {
      if (data.items.length === 0) return `No ${label} values in that range.`;
      const series = whole.items.map((i) => ({ time: i.update_time, value: i.value }));
      const top = (i: (typeof data.items)[number]) => {
        const heaviest = [...i.constituents].sort((a, b) => b.weight - a.weight)[0];
        return heaviest ? `${heaviest.symbol} ${heaviest.weight.toFixed(1)}%` : '-';
      };
      return seriesText(data.items, {
        headline: () =>
          `${label}, ${whole.items.length} ${data.interval} values: ${describeSeries(series, (v) => formatNumber(v))}`,
        header: ['Time', 'Value', 'Top constituent'],
        row: (i) => [formatTime(i.update_time), formatNumber(i.value), top(i)],
        one: (i) =>
          `${label} at ${formatTime(i.update_time)}: ${formatNumber(i.value)} (top constituent ${top(i)})`,
        total: whole.items.length,
      });
    },
  });
}

export const svc100Latest = latestIndex('svc100', 100);
export const svc100Historical = historicalIndex('svc100', 100);
export const svc20Latest = latestIndex('svc20', 20);
export const svc20Historical = historicalIndex('svc20', 20);
