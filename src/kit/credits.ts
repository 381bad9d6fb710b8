/**
 * How the service charges for an endpoint, as one rule per endpoint with two users: the credit
 * guard applies it to the most records the parameters allow (an upper bound, before sending), the
 * sandbox applies it to the records it actually returns. The rules are those of
 * docs/service.md, "Credits".
 */

/** The credit budget's windows: the UTC day, the UTC month, or all time (SVC_CREDIT_WINDOW). */
export const CREDIT_WINDOWS = ['day', 'month', 'total'] as const;
export type CreditWindow = (typeof CREDIT_WINDOWS)[number];

/** A window as a sentence says it: "spent today". */
export const WINDOW_WORDS: Readonly<Record<CreditWindow, string>> = {
  day: 'today',
  month: 'this month',
  total: 'in total',
};

/** Parameters every rule may read: the convert options. */
export interface ConvertParams {
  convert?: string;
  convert_id?: string;
}

export interface CreditRule<P = Record<string, unknown>> {
  /** The rule in words, for the tool description and the docs. */
  text: string;
  /** Credits for a call with these parameters that returned `items` records. */
  charge(params: P, items: number): number;
  /**
   * The most records these parameters allow (1 where the rule does not count records); `now` is
   * Unix seconds, for time ranges that end now.
   */
  maxItems(params: P, now: number): number;
  /** The parameter that sets the record count, when one does: refusals say how far to lower it. */
  scales?: string;
}

/** How many currencies a call asks for: its convert or convert_id list, default one (USD). */
export function currencyCount(params: ConvertParams): number {
  const list = params.convert ?? params.convert_id;
  return list ? list.split(',').length : 1;
}

const CONVERT_TEXT = ', +1 per extra currency';

/** The same credits whatever the answer holds (plus converts beyond the first, when they count). */
export function perCall(
  credits: number,
  options: { convert?: boolean; text?: string } = {},
): CreditRule<object> {
  const base = options.text ?? (credits === 0 ? 'free' : `${credits} per call`);
  return {
    text: `${base}${options.convert ? CONVERT_TEXT : ''}`,
    charge: (params) => credits + (options.convert ? currencyCount(params as ConvertParams) - 1 : 0),
    maxItems: () => 1,
  };
}

export interface PerItemsOptions<P> {
  /** Records per credit. */
  per: number;
  /** What is counted, e.g. "assets" (those the answer holds). */
  what: string;
  /** The most records these parameters allow. */
  items(params: P, now: number): number;
  /** The parameter that sets the count, when one does. */
  scales?: string;
  /** Credits added to every call (the categories endpoints: 1 per request plus per records). */
  base?: number;
  convert?: boolean;
  /** The rule in words, where the generated wording would claim more than is documented. */
  text?: string;
}

/** 1 credit per `per` records, rounded up, at least 1 (an empty page still costs one). */
export function perItems<P extends object>(options: PerItemsOptions<P>): CreditRule<P> {
  const base = options.base ?? 0;
  const lead = `${base > 0 ? `${base} per call + ` : ''}1 per started ${options.per} ${options.what}`;
  return {
    text: options.text ?? `${lead}${options.convert ? CONVERT_TEXT : ''}`,
    charge: (params, items) =>
      Math.max(1, base + Math.ceil(items / options.per)) +
      (options.convert ? currencyCount(params as ConvertParams) - 1 : 0),
    maxItems: (params, now) => options.items(params, now),
    scales: options.scales,
  };
}

/** What a call is estimated to cost before it is sent: the rule at the most records allowed. */
export function estimateCredits<P>(rule: CreditRule<P>, params: P, now: number): number {
  return rule.charge(params, rule.maxItems(params, now));
}
