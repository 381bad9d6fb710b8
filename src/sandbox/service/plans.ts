/**
 * The service's plans as the sandbox enforces them (docs/service.md, "Plans"): the per-minute
 * request limit and how far back history reaches. Written apart from the kit's plans, which
 * test/sandbox/parity.test.ts compares with this one.
 */

export const PLANS = ['basic', 'hobbyist', 'startup', 'standard', 'professional', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Plans from `first` upward: the service's plans are cumulative. */
export function plansFrom(first: Plan): readonly Plan[] {
  return PLANS.slice(PLANS.indexOf(first));
}

export function planTitle(plan: Plan): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

export const REQUESTS_PER_MINUTE: Readonly<Record<Plan, number>> = {
  basic: 30,
  hobbyist: 30,
  startup: 30,
  standard: 60,
  professional: 90,
  enterprise: 120,
};

/** Months of history per plan; Basic's depth has no value in the spec and is taken as 1 month. */
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
  if (months === 1) return '1 month';
  return months % 12 === 0 && months > 12 ? `${months / 12} years` : `${months} months`;
}

/** "Standard 3 months, Professional 12 months, Enterprise 6 years": the plans that reach further. */
export const DEEPER_PLANS = PLANS.filter((plan) => HISTORY_MONTHS[plan] > HISTORY_MONTHS.basic)
  .map((plan) => `${planTitle(plan)} ${describeDepth(HISTORY_MONTHS[plan])}`)
  .join(', ');
