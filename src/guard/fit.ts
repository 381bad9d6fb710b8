/**
 * How to make a refused call fit: fewer of the assets it names, a shorter series (said in days or
 * hours), a smaller page, or fewer convert currencies, within what is allowed; or the whole of it
 * as several calls that each fit.
 */
import { isoSeconds } from '../calendar.js';
import { counted } from '../format/text.js';
import { type CreditRule, currencyCount } from '../kit/credits.js';
import { parseTime, splitList } from '../kit/params.js';
import { CALENDAR_INTERVALS, intervalSeconds } from '../kit/series.js';

type Params = Record<string, unknown>;

const cost = (rule: CreditRule, params: Params, now: number) =>
  rule.charge(params, rule.maxItems(params, now));

/** The largest value of the rule's scaling parameter (below its current one) whose estimate fits, if any. */
function largestScale(rule: CreditRule, params: Params, allowed: number, now: number): number | undefined {
  const name = rule.scales;
  const current = name === undefined ? undefined : params[name];
  if (name === undefined || typeof current !== 'number') return undefined;
  const fits = (value: number) => cost(rule, { ...params, [name]: value }, now) <= allowed;
  if (!fits(1)) return undefined;
  let lo = 1;
  let hi = current;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo < current ? lo : undefined;
}

/** The most of the assets the call names (the first ones) whose estimate fits, when fewer than all do. */
function fewerAssets(rule: CreditRule, params: Params, allowed: number, now: number) {
  const by = ['id', 'slug', 'symbol'].find((key) => typeof params[key] === 'string');
  if (by === undefined) return undefined;
  const names = splitList(params[by] as string);
  for (let n = names.length - 1; n >= 1; n--) {
    if (cost(rule, { ...params, [by]: names.slice(0, n).join(',') }, now) <= allowed)
      return { kept: n, of: names.length, by };
  }
  return undefined;
}

/** "about 16 days", "about 50 minutes": how long `count` periods of `interval` are. */
function span(count: number, interval: string): string {
  const minutes = (count * intervalSeconds(interval)) / 60;
  if (minutes < 120) return `about ${counted(Math.floor(minutes), 'minute')}`;
  if (minutes < 48 * 60) return `about ${counted(Math.floor(minutes / 60), 'hour')}`;
  return `about ${counted(Math.floor(minutes / 1_440), 'day')}`;
}

/** One sentence saying how to make the call cost at most `allowed` credits, or undefined when nothing simple does. */
export function largestFit(
  rule: CreditRule,
  params: Params,
  allowed: number,
  now: number,
): string | undefined {
  const scale = largestScale(rule, params, allowed, now);
  const assets = fewerAssets(rule, params, allowed, now);
  if (scale !== undefined || assets !== undefined) {
    const shorter =
      scale === undefined
        ? undefined
        : rule.scales === 'count' && typeof params.interval === 'string'
          ? `count=${scale} (${span(scale, params.interval)}) or less`
          : `${rule.scales}=${scale} or less`;
    const fewer = assets && `the first ${assets.kept} of the ${assets.of} ${assets.by}s alone`;
    return `To make it fit now: send ${[fewer, shorter].filter(Boolean).join(', or ')}.`;
  }
  if (currencyCount(params) <= 1) return undefined;
  const name = params.convert_id !== undefined ? 'convert_id' : 'convert';
  const one = { ...params, [name]: String(params[name]).split(',')[0] };
  const oneCost = cost(rule, one, now);
  if (oneCost <= allowed) {
    const extra = allowed - oneCost;
    return `To make it fit now: send at most ${1 + extra} ${name} currenc${extra === 0 ? 'y' : 'ies'} (each beyond the first costs 1 credit).`;
  }
  const both = largestScale(rule, one, allowed, now);
  if (both !== undefined)
    return `To make it fit now: send one ${name} currency and ${rule.scales}=${both} or less.`;
  return undefined;
}

/** Calls one plan that fits holds at most: as many as one estimate takes. */
export const MOST_PLANNED_CALLS = 50;

/** A refused call as several that each fit: their arguments, and what each costs. */
export interface FittingPlan {
  calls: Params[];
  credits: number[];
}

/**
 * The whole of a call over `allowed` as consecutive calls that each fit, when its rows can be cut
 * so: a series by its time range (the latest first, when it has no time_start), a list by its
 * start and limit, assets named by the group. Undefined when none does within MOST_PLANNED_CALLS.
 */
export function fittingPlan(
  rule: CreditRule,
  params: Params,
  allowed: number,
  now: number,
): FittingPlan | undefined {
  const calls =
    seriesPlan(rule, params, allowed, now) ??
    listPlan(rule, params, allowed, now) ??
    assetsPlan(rule, params, allowed, now);
  if (calls === undefined || calls.length < 2 || calls.length > MOST_PLANNED_CALLS) return undefined;
  const credits = calls.map((call) => cost(rule, call, now));
  return credits.every((c) => c <= allowed) ? { calls, credits } : undefined;
}

/** Sizes of `total` rows in parts of at most `size`: [size, size, …, the rest]. */
function parts(total: number, size: number): number[] {
  const out: number[] = [];
  for (let done = 0; done < total && out.length <= MOST_PLANNED_CALLS; done += size)
    out.push(Math.min(size, total - done));
  return out;
}

/** A series (scaled by its count, of fixed-length periods) by its range: each part's start, or end, and count. */
function seriesPlan(rule: CreditRule, params: Params, allowed: number, now: number): Params[] | undefined {
  const { count, interval } = params;
  if (rule.scales !== 'count' || typeof count !== 'number' || typeof interval !== 'string') return undefined;
  // Months and years vary in length: their parts' bounds would not meet.
  if (
    (CALENDAR_INTERVALS as readonly string[]).includes(interval) &&
    !['hourly', 'daily', 'weekly'].includes(interval)
  )
    return undefined;
  const size = largestScale(rule, params, allowed, now);
  if (size === undefined) return undefined;
  const step = intervalSeconds(interval) * size;
  const { time_start, time_end, ...rest } = params;
  if (time_start !== undefined) {
    const start = parseTime(time_start as string | number) as number;
    return parts(count, size).map((n, k) => ({
      ...rest,
      time_start: isoSeconds(start + k * step),
      count: n,
    }));
  }
  // Counted back from time_end (now when not given): the latest part first.
  const end = time_end === undefined ? now : (parseTime(time_end as string | number) as number);
  return parts(count, size).map((n, k) => ({ ...rest, time_end: isoSeconds(end - k * step), count: n }));
}

/** A list (scaled by its limit, from its start): each part's start and limit. */
function listPlan(rule: CreditRule, params: Params, allowed: number, now: number): Params[] | undefined {
  const { limit } = params;
  if (rule.scales !== 'limit' || typeof limit !== 'number') return undefined;
  const size = largestScale(rule, params, allowed, now);
  if (size === undefined) return undefined;
  const start = typeof params.start === 'number' ? params.start : 1;
  return parts(limit, size).map((n, k) => ({ ...params, start: start + k * size, limit: n }));
}

/** Assets named by id, slug or symbol: as many to a call as fit. */
function assetsPlan(rule: CreditRule, params: Params, allowed: number, now: number): Params[] | undefined {
  const fewer = fewerAssets(rule, params, allowed, now);
  if (fewer === undefined) return undefined;
  const names = splitList(params[fewer.by] as string);
  return parts(names.length, fewer.kept).map((n, k) => ({
    ...params,
    [fewer.by]: names.slice(k * fewer.kept, k * fewer.kept + n).join(','),
  }));
}
