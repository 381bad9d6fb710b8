/**
 * How to make a refused call fit: fewer of the assets it names, a shorter series (said in days or
 * hours), a smaller page, or fewer convert currencies, within what is allowed.
 */
import { type CreditRule, currencyCount } from '../catalog/credits.js';
import { splitList } from '../catalog/params.js';
import { intervalSeconds } from '../catalog/series.js';
import { formatWhole } from '../format/numbers.js';

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

/** "about 16 days": how long `count` periods of `interval` are. */
function span(count: number, interval: string): string {
  const hours = (count * intervalSeconds(interval)) / 3_600;
  if (hours < 48) return `about ${Math.floor(hours)} hours`;
  return `about ${formatWhole(Math.floor(hours / 24))} days`;
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
