/**
 * Parameters the cryptocurrency tools share, built from the spec's rules in params.ts with short
 * descriptions (each is paid for in every conversation's context): how assets are named, pages,
 * currencies, and the rules between them.
 */
import { z } from 'zod';
import {
  convertIdParam,
  convertParam,
  idListParam,
  intParam,
  type Rule,
  slugListParam,
  splitList,
  symbolListParam,
  timeParam,
} from '../kit/params.js';
import { clip, FIND_ASSET } from '../messages.js';

/** Exactly one of `keys` must be given. */
export function exactlyOne(...keys: string[]): Rule {
  return (value, add) => {
    const given = keys.filter((k) => value[k] !== undefined);
    if (given.length === 1) return;
    const either = (quote: string) =>
      `${keys
        .slice(0, -1)
        .map((k) => `${quote}${k}${quote}`)
        .join(', ')} or ${quote}${keys.at(-1)}${quote}`;
    add({
      // None sent: the issue belongs to no one parameter, so the message names them all.
      path: given[1] ?? '',
      message:
        given.length === 0
          ? `one of ${either('"')} is required`
          : `send only one of ${either('')}, not ${given.join(' and ')}`,
    });
  };
}

export const idsParam = idListParam.optional().describe('e.g. 1, 1027.');

/** The assets a call named, as its text names them ("symbol NOTACOIN"); undefined when it named none. */
export function assetsAsked(params: { id?: unknown; slug?: unknown; symbol?: unknown }): string | undefined {
  for (const key of ['symbol', 'slug', 'id'] as const) {
    if (typeof params[key] === 'string') return `${key} ${clip(params[key], 100)}`;
  }
  return undefined;
}

/**
 * The text of an answer with no rows about the assets a call named: it names them, and where to
 * look a name up, for one the service may not know.
 */
export function noneAbout(
  what: string,
  params: { id?: unknown; slug?: unknown; symbol?: unknown },
): string | undefined {
  const asked = assetsAsked(params);
  return asked === undefined
    ? undefined
    : `No ${what} about ${asked}. If it is not a known ${asked.split(' ')[0]}, ${FIND_ASSET}.`;
}
export const slugsParam = slugListParam.optional().describe('e.g. bitcoin.');
export const symbolsParam = symbolListParam.optional().describe('e.g. BTC, ETH.');

export const oneId = z
  .string()
  .regex(/^\d+$/, { message: 'must be one numeric id, e.g. "1"' })
  .optional()
  .describe('One asset id, e.g. 1.');
export const oneSlug = z
  .string()
  .overwrite((v) => v.toLowerCase())
  .regex(/^[0-9a-z-]+$/, { message: 'must be one slug, e.g. "bitcoin"' })
  .max(100)
  .optional()
  .describe('One slug, e.g. bitcoin.');
export const oneSymbol = z
  .string()
  .regex(/^[0-9A-Za-z$@-]+$/, { message: 'must be one symbol, e.g. "BTC"' })
  .max(40)
  .optional()
  .describe('One symbol, e.g. BTC.');

/** How many assets an id, slug or symbol list names (the credit estimate's count). */
export function namedCount(p: { id?: string; slug?: string; symbol?: string }): number {
  const list = p.id ?? p.slug ?? p.symbol;
  return list === undefined ? 1 : splitList(list).length;
}

/**
 * Sent false unless asked: an unknown id, slug or symbol is then the service's refusal, which costs
 * nothing, instead of an answer without it that is charged (the service's own default is true on
 * some endpoints).
 */
export const skipInvalid = z.boolean().default(false).describe('Skip unknown assets.');

/** The service's own skip_invalid, for serviceParams: unset unless sent, its default its own. */
export const serviceSkipInvalid = { skip_invalid: z.boolean().optional() };

/**
 * `start` and `limit`. Where the service's default page is larger than the tool's, servicePage
 * gives the sandbox the service's (the call always sends the tool's).
 */
export function pageParams(maxLimit: number, defaultLimit: number) {
  return {
    start: intParam(1, undefined, 'Offset.').default(1),
    limit: intParam(1, maxLimit, 'Page size.').default(defaultLimit),
  };
}

/**
 * The service's own page size, for serviceParams where the tool's default page is smaller: the
 * sandbox answers a request without limit as the service does (its default, or all).
 */
export function servicePage(maxLimit: number): { limit: z.ZodOptional<ReturnType<typeof intParam>> };
export function servicePage(
  maxLimit: number,
  serviceDefault: number,
): { limit: z.ZodDefault<ReturnType<typeof intParam>> };
export function servicePage(maxLimit: number, serviceDefault?: number) {
  const limit = intParam(1, maxLimit, 'Page size.');
  return { limit: serviceDefault === undefined ? limit.optional() : limit.default(serviceDefault) };
}

/** `convert` and `convert_id`, up to `max` currencies; pair with the convertExclusive rule. */
export function currencyParams(max = 120, note = '') {
  return {
    convert: convertParam(max, note).describe(max < 120 ? `At most ${max}; default USD.` : 'Default USD.'),
    convert_id: convertIdParam(max).describe('Ids, e.g. 2790.'),
  };
}

/** A time bound (Unix seconds or ISO 8601), described in few words: its name says what it bounds. */
export function timeBoundParam(description?: string) {
  return timeParam('Time').describe(`${description ? `${description}; ` : ''}Unix s or ISO 8601.`);
}

/** The end of a series (the start's description says the format; an end is inclusive). */
export const timeEndParam = timeParam('End').describe('Default: now.');

/** A time the call cannot do without. */
export function requiredTimeParam(description: string) {
  return timeParam(description).unwrap().describe(`${description} (Unix s or ISO 8601).`);
}
