/** How to make a refused call fit: the largest page or count, or fewer convert currencies, within what is allowed. */
import { type CreditRule, currencyCount } from '../catalog/credits.js';

type Params = Record<string, unknown>;

/** The largest value of the rule's scaling parameter (below its current one) whose estimate fits, if any. */
function largestScale(rule: CreditRule, params: Params, allowed: number, now: number): number | undefined {
  const name = rule.scales;
  const current = name === undefined ? undefined : params[name];
  if (name === undefined || typeof current !== 'number') return undefined;
  const fits = (value: number) =>
    rule.charge({ ...params, [name]: value }, rule.maxItems({ ...params, [name]: value }, now)) <= allowed;
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

/** One sentence saying how to make the call cost at most `allowed` credits, or undefined when nothing simple does. */
export function largestFit(
  rule: CreditRule,
  params: Params,
  allowed: number,
  now: number,
): string | undefined {
  const scale = largestScale(rule, params, allowed, now);
  if (scale !== undefined) return `To make it fit now: send ${rule.scales}=${scale} or less.`;
  if (currencyCount(params) <= 1) return undefined;
  const name = params.convert_id !== undefined ? 'convert_id' : 'convert';
  const one = { ...params, [name]: String(params[name]).split(',')[0] };
  const cost = rule.charge(one, rule.maxItems(one, now));
  if (cost <= allowed) {
    const extra = allowed - cost;
    return `To make it fit now: send at most ${1 + extra} ${name} currenc${extra === 0 ? 'y' : 'ies'} (each beyond the first costs 1 credit).`;
  }
  const both = largestScale(rule, one, allowed, now);
  if (both !== undefined)
    return `To make it fit now: send one ${name} currency and ${rule.scales}=${both} or less.`;
  return undefined;
}
