/**
 * The kinds of value a setting takes, each a zod schema whose message names what is allowed: whole
 * numbers in a range, one of a few words, comma lists, OAuth scopes, toolsets. Blank values and a
 * desktop host's unfilled placeholders count as unset.
 */

import { z } from 'zod';
import { TOOLSET_CHOICES, TOOLSET_NAMES, type ToolsetChoice } from '../kit/toolsets.js';
import { clip } from '../messages.js';

/** One setting: its variable, schema, and how people read it. */
export interface Setting<S extends z.ZodType = z.ZodType> {
  env: `SVC_${string}`;
  /** The bundle manifest's user_config key. */
  key: string;
  title: string;
  meaning: string;
  /**
   * What leaving it unset means, for a setting whose schema has no default value (docs/settings.md
   * and the manifest show the schema's default otherwise).
   */
  whenUnset?: string;
  /** Never repeated in an error message (and marked sensitive in the manifest). */
  sensitive?: boolean;
  /**
   * Parses the value, `undefined` when unset. Built on first use, once: zod's schemas are costly to
   * build, and most settings are first read once the call path loads, after the first answers.
   */
  schema: () => S;
}

export function setting<S extends z.ZodType>(entry: Setting<S>): Setting<S> {
  let built: S | undefined;
  return { ...entry, schema: () => (built ??= entry.schema()) };
}

/** Empty values and `${user_config.x}` placeholders left by a desktop host count as unset. */
export function unsetIfBlank(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return text === '' || /^\$\{user_config\.[^}]*\}$/.test(text) ? undefined : text;
}

export const optionalText = <S extends z.ZodType<string>>(schema: S) =>
  z.preprocess(unsetIfBlank, schema.optional());

/** A whole number in [min, max], its message naming the range and unit. */
export function wholeNumber(min: number, max: number, unit: string) {
  const rule = `must be a whole number of ${unit} from ${min} to ${max}`;
  return z.coerce.number({ message: rule }).int({ message: rule }).min(min, rule).max(max, rule);
}

/** One of a few words, case-insensitive. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { message: `must be one of ${values.join(', ')}` });
}

/** A comma list, each item trimmed and checked by `item`; empty items are dropped. */
export function commaList(item: z.ZodType<string>) {
  return z.preprocess(
    (value) => {
      const text = unsetIfBlank(value);
      return typeof text === 'string'
        ? text
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
        : [];
    },
    z.array(item).max(100, 'must list at most 100 entries'),
  );
}

export function lowerCase(value: unknown): unknown {
  const text = unsetIfBlank(value);
  return typeof text === 'string' ? text.toLowerCase() : text;
}

/** One OAuth scope (RFC 6749's characters), `fallback` when unset. */
export function oauthScope(fallback: string) {
  return z.preprocess(
    unsetIfBlank,
    z
      .string()
      .regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/, { message: `must be one OAuth scope, e.g. ${fallback}` })
      .default(fallback),
  );
}

/** SVC_TOOLSETS (case-insensitive comma list) → what it selects. */
export function parseToolsets(value: string, ctx: z.RefinementCtx): ToolsetChoice[] {
  const names = value.split(',').map((s) => s.trim().toLowerCase());
  const unknown = names.find((n) => !TOOLSET_CHOICES.includes(n));
  if (unknown !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `names an unknown toolset "${clip(unknown, 40)}"; allowed: ${TOOLSET_CHOICES.join(', ')}`,
    });
    return [];
  }
  const expanded = names.flatMap((n) => (n === 'all' ? TOOLSET_NAMES : [n as ToolsetChoice]));
  return [...new Set(expanded)];
}
