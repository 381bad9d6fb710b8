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
  slugListParam,
  splitList,
  symbolListParam,
} from './params.js';

type Issue = { path: string; message: string };
/** A rule between parameters, as paramsObject takes it. */
export type Rule = (value: Record<string, unknown>, add: (issue: Issue) => void) => void;

/** Exactly one of `keys` must be given. */
export function exactlyOne(...keys: string[]): Rule {
  return (value, add) => {
    const given = keys.filter((k) => value[k] !== undefined);
    if (given.length === 1) return;
    const names = `${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`;
    add({
      path: given[1] ?? keys[0],
      message:
        given.length === 0
          ? `one of ${names} is required`
          : `send only one of ${names}, not ${given.join(' and ')}`,
    });
  };
}

/** `a` and `b` must not both be given. */
export function notTogether(a: string, b: string): Rule {
  return (value, add) => {
    if (value[a] !== undefined && value[b] !== undefined) {
      add({ path: b, message: `must not be combined with ${a}: send one of them` });
    }
  };
}

export const ids = idListParam.optional().describe('Asset ids, comma-separated, e.g. "1,1027"; recommended.');
export const slugs = slugListParam.optional().describe('Slugs, comma-separated, e.g. "bitcoin,ethereum".');
export const symbols = symbolListParam
  .optional()
  .describe('Symbols, comma-separated, e.g. "BTC,ETH"; a shared symbol answers every asset that has it.');

export const oneId = z
  .string()
  .regex(/^\d+$/, { message: 'must be one numeric id, e.g. "1"' })
  .optional()
  .describe('One asset id, e.g. "1".');
export const oneSlug = z
  .string()
  .regex(/^[0-9a-z-]+$/, { message: 'must be one lowercase slug, e.g. "bitcoin"' })
  .max(100)
  .optional()
  .describe('One slug, e.g. "bitcoin".');
export const oneSymbol = z
  .string()
  .regex(/^[0-9A-Za-z$@-]+$/, { message: 'must be one symbol, e.g. "BTC"' })
  .max(40)
  .optional()
  .describe('One symbol, e.g. "BTC".');

/** How many assets an id, slug or symbol list names (the credit estimate's count). */
export function namedCount(p: { id?: string; slug?: string; symbol?: string }): number {
  const list = p.id ?? p.slug ?? p.symbol;
  return list === undefined ? 1 : splitList(list).length;
}

export function skipInvalid(byDefault: boolean) {
  return z
    .boolean()
    .optional()
    .describe(`Leave out unknown ids, slugs or symbols instead of failing; default ${byDefault}.`);
}

/** `start` and `limit`; where the service's default page is large, the tool's is smaller (said here). */
export function page(maxLimit: number, defaultLimit: number, what = 'Items', serviceDefault?: number) {
  const note = serviceDefault === undefined ? '' : ` (the service's is ${serviceDefault})`;
  return {
    start: intParam(1, undefined, '1-based offset; default 1.').default(1),
    limit: intParam(
      1,
      maxLimit,
      `${what} per page, 1 to ${maxLimit}; default ${defaultLimit}${note}.`,
    ).default(defaultLimit),
  };
}

/** `convert` and `convert_id`, up to `max` currencies; pair with the convertExclusive rule. */
export function currencies(max = 120) {
  return {
    convert: convertParam(max).describe(
      `Quote currencies, comma-separated symbols, e.g. "USD,EUR,BTC"; up to ${max}; default USD; +1 credit each beyond the first.`,
    ),
    convert_id: convertIdParam(max).describe(
      `Quote currencies by id (USD 2781, EUR 2790, BTC 1); up to ${max}; not with convert.`,
    ),
  };
}
