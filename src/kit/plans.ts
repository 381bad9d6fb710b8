import { monthsBefore } from '../calendar.js';

/**
 * The service's plans, and how far back each one's history reaches, as the tools' descriptions say
 * them (docs/service.md, "Plans"). The sandbox enforces the plans from a table of its own.
 */

export const PLANS = ['basic', 'hobbyist', 'startup', 'standard', 'professional', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const ALL_PLANS: readonly Plan[] = PLANS;

/** Plans from `first` upward: the service's plans are cumulative. */
export function plansFrom(first: Plan): readonly Plan[] {
  return PLANS.slice(PLANS.indexOf(first));
}

export function planTitle(plan: Plan): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

/** "all", or "Startup+" (Startup and up: plans are cumulative). */
export function plansText(plans: readonly Plan[]): string {
  const [first = 'basic'] = plans;
  return plans.length === PLANS.length ? 'all' : `${planTitle(first)}+`;
}

/**
 * Months of history per plan. The spec gives Basic a depth without a value; it is taken as 1 month,
 * like Hobbyist. Enterprise's "up to 6 years" is all the data there is.
 */
export const HISTORY_MONTHS: Readonly<Record<Plan, number>> = {
  basic: 1,
  hobbyist: 1,
  startup: 1,
  standard: 3,
  professional: 12,
  enterprise: 72,
};

/** "1 month", "3 months", "12 months", "6 years". */
export function describeDepth(months: number): string {
  if (months % 12 === 0) return months === 12 ? '12 months' : `${months / 12} years`;
  return months === 1 ? '1 month' : `${months} months`;
}

/** An endpoint's description of its history: "History: 1 month (Hobbyist) to 6 years." */
export function historyByPlan(plans: readonly Plan[]): string {
  const [first = 'basic'] = plans;
  return `History: ${describeDepth(HISTORY_MONTHS[first])} (${planTitle(first)}) to ${describeDepth(HISTORY_MONTHS.enterprise)}.`;
}

/** How far back a request reaches: the earliest instant it asks for (Unix seconds), its step, and how to ask for less. */
export interface Reach {
  at: number;
  /** One of its periods, in seconds: the margin the check leaves the service's own counting. */
  step: number;
  /** "a later time_start or a smaller count". */
  later: string;
}

/**
 * Why a request is not sent on `plan` (SVC_PLAN): it reaches back further than the plan's history,
 * by more than one of its periods, so the service would refuse it (403, 1006). Undefined when it
 * may be within. `now` is Unix seconds.
 */
export function historyRefusal(reach: Reach, plan: Plan, now: number): string | undefined {
  if (plan === 'enterprise') return undefined;
  const months = HISTORY_MONTHS[plan];
  const limit = monthsBefore(now, months);
  if (reach.at + reach.step >= limit) return undefined;
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  return `Refused before sending: this request reaches back to ${day(reach.at)}, but the ${planTitle(plan)} plan (SVC_PLAN=${plan}) has ${describeDepth(months)} of history, back to ${day(limit)}: ask for ${reach.later}. Nothing was charged.`;
}
