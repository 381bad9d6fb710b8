/**
 * analyze_assets: returns, risk, indicators and correlation of up to 10 assets against a
 * benchmark, computed by the server from the candles get_ohlcv_historical gives for the same
 * arguments (`source`), page by page, on the one call path: the cache, the guard, estimate_cost
 * and the confirmation treat it as those candle requests, and it is charged what they are.
 * Each figure's definition is in the description (and docs/analysis.md).
 */
import { z } from 'zod';
import { type CandleSeries, completeCloses } from '../analysis/candles.js';
import type { Interval } from '../analysis/figures.js';
import { assetFigures, pairCorrelations } from '../analysis/report.js';
import { monthsBefore } from '../calendar.js';
import {
  exactlyOne,
  idsParam,
  symbolsParam,
  timeBoundParam,
  timeEndParam,
} from '../endpoints/asset-params.js';
import { ohlcvHistorical } from '../endpoints/ohlcv.js';
import { formatTime } from '../format/text.js';
import { validateParams } from '../kit/arguments.js';
import { defineLocalTool, ToolRefusal } from '../kit/define.js';
import {
  convertParam,
  enumParam,
  intParam,
  notTogether,
  paramsObject,
  parseTime,
  type Rule,
  splitList,
  timeOrder,
} from '../kit/params.js';
import { describeDepth, HISTORY_MONTHS, type Plan, plansFrom, planTitle } from '../kit/plans.js';
import { ANALYSIS_DEFINITIONS, DEFINITIONS_URI } from './analysis-definitions.js';
import { type Analysis, analysisOutput } from './analysis-output.js';
import { summariseAnalysis } from './analysis-text.js';

const MOST_ASSETS = 10;
const DAYS = { least: 2, most: 365, byDefault: 90 } as const;
/** The benchmark when none is named: bitcoin, by symbol or by its id (docs/service.md, "Limits"). */
const BITCOIN = { symbol: 'BTC', id: '1' } as const;

/** At most MOST_ASSETS assets. */
const fewAssets: Rule = (value, add) => {
  for (const key of ['id', 'symbol']) {
    const list = value[key];
    if (typeof list === 'string' && splitList(list).length > MOST_ASSETS)
      add({ path: key, message: `must name at most ${MOST_ASSETS} assets` });
  }
};

/** A time range of DAYS.least to DAYS.most days (time_end defaults to now). */
const rangeLength: Rule = (value, add) => {
  if (value.time_start === undefined) return;
  const start = parseTime(value.time_start as string | number) as number;
  const end =
    value.time_end === undefined ? Date.now() / 1000 : (parseTime(value.time_end as string) as number);
  const days = (end - start) / 86_400;
  if (days < DAYS.least || days > DAYS.most)
    add({ path: 'time_start', message: `must be ${DAYS.least} to ${DAYS.most} days before time_end` });
};

/** The benchmark is named as the assets are: an id beside ids, a symbol beside symbols. */
const benchmarkLikeAssets: Rule = (value, add) => {
  const benchmark = value.benchmark;
  if (typeof benchmark !== 'string') return;
  const isId = /^\d+$/.test(benchmark);
  if (value.id !== undefined && !isId)
    add({ path: 'benchmark', message: 'must be an id when the assets are given by id, e.g. 1 (bitcoin)' });
  if (value.symbol !== undefined && isId)
    add({ path: 'benchmark', message: 'must be a symbol when the assets are given by symbol, e.g. BTC' });
};

const input = paramsObject(
  {
    id: idsParam.describe('Up to 10, e.g. 1027,5426.'),
    symbol: symbolsParam.describe('Or up to 10, e.g. ETH,SOL.'),
    days: intParam(DAYS.least, DAYS.most, 'Days back from now; default 90.').optional(),
    time_start: timeBoundParam('Instead of days; exclusive'),
    time_end: timeEndParam,
    interval: enumParam(['daily', 'hourly']).default('daily'),
    convert: convertParam(1).describe('One currency; default USD.'),
    benchmark: z
      .string()
      .regex(/^(\d{1,10}|[0-9A-Za-z$@-]{1,20})$/, { message: 'must be one asset id or symbol' })
      .optional()
      .describe('Id or symbol; default BTC.'),
  },
  exactlyOne('id', 'symbol'),
  fewAssets,
  notTogether('days', 'time_start'),
  notTogether('days', 'time_end'),
  timeOrder,
  rangeLength,
  benchmarkLikeAssets,
);
type Params = z.output<typeof input>;

/** The candle request the analysis reads: its assets and the benchmark in one list, and its window. */
function candleArguments(params: Params): Record<string, unknown> {
  const by = params.id !== undefined ? 'id' : 'symbol';
  const assets = splitList((params.id ?? params.symbol) as string);
  const benchmark = params.benchmark ?? (by === 'id' ? BITCOIN.id : BITCOIN.symbol);
  const named = assets.some((a) => a.toUpperCase() === benchmark.toUpperCase())
    ? assets
    : [...assets, benchmark];
  const perDay = params.interval === 'hourly' ? 24 : 1;
  const window =
    params.time_start === undefined
      ? // The candle in progress comes too (the service counts it): one more than the complete ones.
        { count: (params.days ?? DAYS.byDefault) * perDay + 1 }
      : {
          time_start: params.time_start,
          ...(params.time_end === undefined ? {} : { time_end: params.time_end }),
        };
  return {
    [by]: named.join(','),
    time_period: params.interval,
    interval: params.interval,
    ...window,
    convert: (params.convert ?? 'USD').toUpperCase(),
    // An unknown asset is then the service's refusal, which costs nothing, not a figure left out.
    skip_invalid: false,
  };
}

/** The plan's history (SVC_PLAN) must reach as far back as the analysis does. */
function checkHistory(params: Params, plan: Plan | undefined, nowMs: number): void {
  if (plan === undefined || plan === 'enterprise') return;
  const now = nowMs / 1000;
  const reach =
    params.time_start === undefined
      ? now - (params.days ?? DAYS.byDefault) * 86_400
      : (parseTime(params.time_start) as number);
  const limit = monthsBefore(now, HISTORY_MONTHS[plan]);
  if (reach >= limit) return;
  const most = Math.floor((now - limit) / 86_400);
  throw new ToolRefusal(
    `This analysis reaches back to ${formatTime(Math.floor(reach), true)}, but the ${planTitle(plan)} plan (SVC_PLAN=${plan}) has ${describeDepth(HISTORY_MONTHS[plan])} of candle history, back to ${formatTime(Math.floor(limit), true)}: ask for days=${most} or fewer, or a later time_start.`,
  );
}

/** The candle request's arguments as get_ohlcv_historical checks them. */
function checkedCandles(args: Record<string, unknown>): Record<string, unknown> {
  const checked = validateParams(ohlcvHistorical.input, args);
  if (!checked.ok) throw new ToolRefusal(checked.message);
  return checked.value as Record<string, unknown>;
}

/** The analysis of the candles fetched with `args`, the figures computed from complete candles only. */
function analyse(
  params: Params,
  args: Record<string, unknown>,
  candles: readonly CandleSeries[],
  nowMs: number,
): Analysis {
  const interval = params.interval as Interval;
  const currency = args.convert as string;
  const series = completeCloses(candles, currency, interval, nowMs);
  const benchmarkName = String(params.benchmark ?? (params.id !== undefined ? BITCOIN.id : BITCOIN.symbol));
  const isBenchmark = (s: { id: number; symbol: string }) =>
    String(s.id) === benchmarkName || s.symbol.toUpperCase() === benchmarkName.toUpperCase();
  const benchmark = series.find(isBenchmark);
  // In the order asked; a symbol several assets share names each of them.
  const asked = splitList((params.id ?? params.symbol) as string).map((a) => a.toUpperCase());
  const assets = [
    ...new Set(
      asked.flatMap((a) => series.filter((s) => String(s.id) === a || s.symbol.toUpperCase() === a)),
    ),
  ];
  return {
    interval,
    convert: currency,
    benchmark: { id: benchmark?.id ?? Number(BITCOIN.id), symbol: benchmark?.symbol ?? benchmarkName },
    source: { tool: 'get_ohlcv_historical', arguments: args },
    assets: assets.map((s) => assetFigures(s, benchmark, interval)),
    correlations: pairCorrelations(assets),
    definitions: ANALYSIS_DEFINITIONS,
  };
}

export const analyzeAssets = defineLocalTool({
  name: 'analyze_assets',
  rowName: 'candle',
  title: 'Analyze assets',
  toolset: 'analysis',
  inDefault: true,
  callsService: true,
  plans: plansFrom('startup'),
  summary: `Technical analysis of 1-10 coins compared to a benchmark (bitcoin): return, how volatile, biggest drawdown, SMA/EMA, RSI (overbought, oversold), MACD, Bollinger %b, beta, correlation between coins. Definitions: ${DEFINITIONS_URI}.`,
  credits: "its candles' (cached: free)",
  input,
  output: analysisOutput,
  async estimate(params, context) {
    checkHistory(params, context.plan, context.now());
    const { credits, cached } = await context.price(ohlcvHistorical, checkedCandles(candleArguments(params)));
    return { credits: cached ? 0 : credits, cached };
  },
  async data(params, context) {
    checkHistory(params, context.plan, context.now());
    const args = candleArguments(params);
    // The candles paid for stay the caller's table: a question the figures do not answer is a query.
    const { data, kept } = await context.fetch(ohlcvHistorical, checkedCandles(args), { keep: true });
    const analysis = analyse(params, args, (data as { items: CandleSeries[] }).items, context.now());
    return kept === undefined ? analysis : { ...analysis, kept };
  },
  summarise: summariseAnalysis,
});
