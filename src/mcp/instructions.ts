/**
 * The server's instructions, built from the tools it lists: what they answer (a toolset listed
 * whole by its own words, one listed in part by its tools' titles), and how to use them, naming
 * only tools that are listed.
 */

import { formatWhole } from '../format/numbers.js';
import { TOOLSETS, type Toolset } from '../kit/toolsets.js';

/** What the instructions read of a tool. */
export interface Named {
  name: string;
  title: string;
  toolset: Toolset;
}

/** What the listed tools of each toolset answer: the toolset's words, or its listed tools' titles. */
function subjects(listed: readonly Named[], all: readonly Named[]): string[] {
  const byToolset = new Map<Toolset, Named[]>();
  for (const tool of listed) byToolset.set(tool.toolset, [...(byToolset.get(tool.toolset) ?? []), tool]);
  return [...byToolset].flatMap(([toolset, tools]) => {
    if (toolset === 'account') return [];
    const whole = tools.length === all.filter((t) => t.toolset === toolset).length;
    return [whole ? lowerFirst(TOOLSETS[toolset]) : tools.map((t) => lowerFirst(t.title)).join(', ')];
  });
}

/** The toolsets with tools not listed here, and what they add, for the person who runs the server. */
function moreToolsets(listed: readonly Named[], all: readonly Named[]): string | undefined {
  const names = new Set(listed.map((tool) => tool.name));
  const off = (Object.keys(TOOLSETS) as Toolset[]).filter((toolset) =>
    all.some((tool) => tool.toolset === toolset && !names.has(tool.name)),
  );
  if (off.length === 0) return undefined;
  return `More tools can be turned on with SVC_TOOLSETS: ${off.map((t) => `${t} (${lowerFirst(TOOLSETS[t])})`).join(', ')}.`;
}

/** "Global market totals" → "global market totals"; an acronym ("DEX platforms") stays. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** The instructions for a server listing `listed` (of the tools' `all`), pages of at most `maxChars`. */
export function instructionsFor(listed: readonly Named[], all: readonly Named[], maxChars: number): string {
  const has = (name: string) => listed.some((tool) => tool.name === name);
  const costs = [
    has('estimate_cost') && 'estimate_cost prices planned calls',
    has('get_credit_usage') && 'get_credit_usage shows the budget',
  ].filter(Boolean);
  return [
    `Cryptocurrency market data from the Market Data Service. The tools here answer: ${subjects(listed, all).join('; ')}.`,
    has('search_cryptocurrencies') && "search_cryptocurrencies finds an asset's id, free.",
    'Answers are compact text whose last line says what the call cost; format=json gives the structured data.',
    'A parameter a tool does not list, or a malformed value, is refused before anything is sent.',
    `A longer list or history comes in pages of at most ${formatWhole(maxChars)} characters: send an answer's \`next\` as the arguments for the next page.`,
    has('query_data') &&
      'Every answer with rows keeps them as a table (its kept.table): to answer a question over a large pull, ask query_data in SQL rather than reading it page by page; it is free.',
    has('run_script') &&
      'Where a question needs many calls (a ranking of 50 coins, a screen of gainers), one run_script does them inside a short script, priced and capped by max_credits, and returns only what the script returns (svc://scripts/declarations lists what it can call).',
    `Each description gives the credit cost${costs.length > 0 ? `; ${costs.join('; ')}` : ''}.`,
    moreToolsets(listed, all),
  ]
    .filter(Boolean)
    .join(' ');
}
