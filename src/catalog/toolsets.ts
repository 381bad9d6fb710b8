/** Toolsets: the groups tools are exposed by, and how SVC_TOOLSETS names them. */
import type { z } from 'zod';

export const TOOLSETS = {
  global_metrics: 'Global market totals, latest and historical',
  sentiment: 'Fear and greed, altcoin season',
  indices: 'The svc100 and svc20 market indices',
  community: 'Community trending tokens and topics',
  dex: 'DEX platforms',
  cryptocurrency: 'Cryptocurrency listings and quotes',
  account: 'Credit usage and key info',
} as const;
export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSET_NAMES;

/** Everything SVC_TOOLSETS accepts: the toolsets, and `all` and `default`. */
export const TOOLSET_CHOICES: readonly string[] = [...TOOLSET_NAMES, 'all', 'default'];

/** SVC_TOOLSETS (case-insensitive comma list; unset means `default`) → the toolsets it names. */
export function parseToolsets(value: string | undefined, ctx: z.RefinementCtx): Toolset[] {
  const names = (value ?? 'default').split(',').map((s) => s.trim().toLowerCase());
  const unknown = names.find((n) => !TOOLSET_CHOICES.includes(n));
  if (unknown !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `names an unknown toolset "${unknown.slice(0, 40)}"; allowed: ${TOOLSET_CHOICES.join(', ')}`,
    });
    return [];
  }
  const expanded = names.flatMap((n) =>
    n === 'all' ? TOOLSET_NAMES : n === 'default' ? DEFAULT_TOOLSETS : [n as Toolset],
  );
  return [...new Set(expanded)];
}
