/** Lists of cryptocurrencies: new listings, gainers and losers, trending, most visited, a past day's ranking. */
import { z } from 'zod';
import { DAY, floorTo, isoSeconds } from '../calendar.js';
import { formatMoney, formatPercent, formatPrice } from '../format/numbers.js';
import { counted, formatTime, lines, table } from '../format/text.js';
import { perItems } from '../kit/credits.js';
import { dataOf, defineEndpoint } from '../kit/define.js';
import {
  convertExclusive,
  enumParam,
  namesListParam,
  paramsObject,
  parseTime,
  type Rule,
} from '../kit/params.js';
import { historyByPlan, plansFrom } from '../kit/plans.js';
import { recordsOf } from '../kit/shapes.js';
import { currencyParams, pageParams, requiredTimeParam, servicePage } from './asset-params.js';
import {
  asset,
  assetPage,
  assetQuote,
  assetTable,
  LISTED_PAGES,
  LISTED_ROWS,
  upstreamAsset,
  upstreamOf,
} from './assets.js';

const pageCredits = (per: number) =>
  perItems({
    per,
    what: 'assets',
    items: (p: { limit: number }) => p.limit,
    scales: 'limit',
    convert: true,
  });

// ---------------------------------------------------------------- new listings

const newAsset = asset.extend({ date_added: z.string().optional() });
const upstreamNewAsset = upstreamOf(newAsset, assetQuote);

export const newCryptocurrencies = defineEndpoint({
  name: 'get_new_cryptocurrencies',
  rowName: 'asset',
  title: 'Newly listed cryptocurrencies',
  toolset: 'cryptocurrency',
  path: '/v1/cryptocurrency/listings/new',
  summary: 'The newest listed cryptocurrencies with price, change and market cap.',
  input: paramsObject(
    {
      ...pageParams(5000, LISTED_ROWS),
      ...currencyParams(),
      sort_dir: enumParam(['asc', 'desc'], 'By date added; default desc (newest first).').optional(),
    },
    convertExclusive,
  ),
  serviceParams: { ...servicePage(5000, 100) },
  output: z.object({ start: z.number(), items: z.array(newAsset) }),
  credits: pageCredits(200),
  pages: LISTED_PAGES,
  refreshSeconds: 60,
  plans: plansFrom('startup'),
  normalise(body, params) {
    return { start: params.start, items: recordsOf(upstreamNewAsset, dataOf(body)) };
  },
  summarise(data, params) {
    if (data.items.length === 0) return `No new listings from start=${data.start}.`;
    // Oldest first (sort_dir=asc), the list runs from the earliest listings: not new ones.
    const heading =
      params.sort_dir === 'asc'
        ? `${counted(data.items.length, 'listed cryptocurrency')} from start=${data.start}, oldest first:`
        : `${counted(data.items.length, 'newly listed cryptocurrency')} from start=${data.start}, newest first:`;
    return lines(
      heading,
      table(
        ['Added', 'Asset', 'Price', '24h', 'Market cap'],
        data.items.map((a) => {
          const q = a.quote[0];
          return [
            formatTime(a.date_added, true),
            `${a.name} (${a.symbol})`,
            formatPrice(q?.price, q?.currency),
            formatPercent(q?.percent_change_24h),
            formatMoney(q?.market_cap, q?.currency),
          ];
        }),
      ),
    );
  },
});

// ---------------------------------------------------------------- trending

const moverQuote = assetQuote.extend({ percent_change_30d: z.number().optional() });
const mover = asset.extend({ quote: z.array(moverQuote) });
const upstreamMover = upstreamOf(mover, moverQuote);
const CHANGE_KEY = {
  '1h': 'percent_change_1h',
  '24h': 'percent_change_24h',
  '7d': 'percent_change_7d',
  '30d': 'percent_change_30d',
} as const;
type Period = keyof typeof CHANGE_KEY;

interface TrendingSpec<N extends string> {
  name: N;
  title: string;
  path: string;
  summary: string;
  refreshSeconds: number;
  inDefault?: boolean;
  heading(period: string, params: Record<string, unknown>): string;
}

/** A trending list's parameters: its periods, and `extra` (gainers-losers sorts). */
function trendingInput<X extends z.ZodRawShape>(periods: readonly [Period, ...Period[]], extra: X) {
  return paramsObject(
    {
      ...pageParams(1000, LISTED_ROWS),
      time_period: enumParam(periods).default('24h'),
      ...currencyParams(),
      ...extra,
    },
    convertExclusive,
  );
}

/** What the three trending lists share; each adds its input (trendingInput). */
function trending<const N extends string>(spec: TrendingSpec<N>) {
  return {
    name: spec.name,
    title: spec.title,
    toolset: 'cryptocurrency',
    inDefault: spec.inDefault,
    path: spec.path,
    summary: spec.summary,
    serviceParams: servicePage(1000, 100),
    output: z.object({ start: z.number(), time_period: z.string(), items: z.array(mover) }),
    credits: pageCredits(200),
    pages: LISTED_PAGES,
    rowName: 'asset',
    refreshSeconds: spec.refreshSeconds,
    plans: plansFrom('startup'),
    normalise(body: unknown, params: { start: number; time_period: string }) {
      return {
        start: params.start,
        time_period: params.time_period,
        items: recordsOf(upstreamMover, dataOf(body)),
      };
    },
    summarise(
      data: { start: number; time_period: string; items: z.output<typeof mover>[] },
      params: { limit: number },
    ) {
      if (data.items.length === 0) return `Nothing from start=${data.start}.`;
      const period = data.time_period as Period;
      return lines(
        spec.heading(period, params as Record<string, unknown>),
        assetTable(data.items, {
          label: period,
          key: CHANGE_KEY[period] ?? 'percent_change_24h',
        }),
      );
    },
  } as const;
}

export const gainersLosers = defineEndpoint({
  ...trending({
    name: 'get_gainers_losers',
    title: 'Top gainers and losers',
    path: '/v1/cryptocurrency/trending/gainers-losers',
    summary:
      'Top movers: which coins went up or dropped the most, best and worst performing over 1h, 24h, 7d or 30d (losers: sort_dir=asc).',
    refreshSeconds: 600,
    inDefault: true,
    heading: (period, p) => `Top ${p.sort_dir === 'asc' ? 'losers' : 'gainers'} over ${period}:`,
  }),
  input: trendingInput(['1h', '24h', '7d', '30d'], {
    sort_dir: enumParam(['asc', 'desc'], 'desc: gainers first; asc: losers.').optional(),
  }),
});

export const trendingLatest = defineEndpoint({
  ...trending({
    name: 'get_trending_cryptocurrencies',
    title: 'Trending cryptocurrencies',
    path: '/v1/cryptocurrency/trending/latest',
    summary: 'The most searched cryptocurrencies over 24h, 7d or 30d.',
    refreshSeconds: 600,
    heading: (period) => `Trending by searches over ${period}:`,
  }),
  input: trendingInput(['24h', '7d', '30d'], {}),
});

export const mostVisited = defineEndpoint({
  ...trending({
    name: 'get_most_visited_cryptocurrencies',
    title: 'Most visited cryptocurrencies',
    path: '/v1/cryptocurrency/trending/most-visited',
    summary: 'The most visited cryptocurrencies over 24h, 7d or 30d.',
    refreshSeconds: 86_400,
    heading: (period) => `Most visited over ${period}:`,
  }),
  input: trendingInput(['24h', '7d', '30d'], {}),
});

// ---------------------------------------------------------------- historical listings

const HISTORICAL_SORTS = [
  'svc_rank',
  'name',
  'symbol',
  'market_cap',
  'price',
  'circulating_supply',
  'total_supply',
  'max_supply',
  'num_market_pairs',
  'volume_24h',
  'percent_change_1h',
  'percent_change_24h',
  'percent_change_7d',
] as const;
const HISTORICAL_AUX = [
  'platform',
  'tags',
  'date_added',
  'circulating_supply',
  'total_supply',
  'max_supply',
  'svc_rank',
  'num_market_pairs',
] as const;

/**
 * A day's listings exist once the UTC day is over: today's (or tomorrow's, which the time rule
 * lets through) is refused before anything is sent, naming the latest day there is.
 */
const dayOver: Rule = (value, add) => {
  const at =
    typeof value.date === 'string' || typeof value.date === 'number' ? parseTime(value.date) : undefined;
  const today = floorTo(Date.now() / 1000, DAY);
  if (at === undefined || at < today) return;
  const day = (t: number) => isoSeconds(t).slice(0, 10);
  add({
    path: 'date',
    message: `${day(floorTo(at, DAY))} is not a completed UTC day yet; the latest is ${day(today - DAY)}`,
  });
};

export const listingsHistorical = defineEndpoint({
  name: 'get_cryptocurrency_listings_historical',
  rowName: 'asset',
  title: 'Cryptocurrency listings on a past day',
  toolset: 'cryptocurrency',
  path: '/v1/cryptocurrency/listings/historical',
  summary: `The ranking at the end of a past UTC day. ${historyByPlan(plansFrom('hobbyist'))}`,
  input: paramsObject(
    {
      date: requiredTimeParam('The day, e.g. 2026-10-10'),
      ...pageParams(5000, LISTED_ROWS),
      ...currencyParams(),
      sort: enumParam(HISTORICAL_SORTS, 'Sort key; default svc_rank.').optional(),
      sort_dir: enumParam(['asc', 'desc'], 'Sort direction.').optional(),
      cryptocurrency_type: enumParam(['all', 'coins', 'tokens'], 'Default all.').optional(),
    },
    convertExclusive,
    dayOver,
  ),
  serviceParams: { ...servicePage(5000, 100), aux: namesListParam(HISTORICAL_AUX, 'Supplemental fields.') },
  output: assetPage.extend({ date: z.string() }),
  credits: pageCredits(100),
  pages: LISTED_PAGES,
  // A completed day does not change.
  refreshSeconds: 86_400,
  plans: plansFrom('hobbyist'),
  reach: (p, now) => ({ at: parseTime(p.date) ?? now, step: 86_400, later: 'a later date' }),
  normalise(body, params) {
    return {
      date: formatTime(params.date, true),
      start: params.start,
      items: recordsOf(upstreamAsset, dataOf(body)),
    };
  },
  summarise(data, params) {
    if (data.items.length === 0) return `No cryptocurrencies on ${data.date} from start=${data.start}.`;
    return lines(
      `Cryptocurrencies ${data.start}–${data.start + data.items.length - 1} at the end of ${data.date} by ${params.sort ?? 'svc_rank'}:`,
      assetTable(data.items),
    );
  },
});
