/**
 * Toolsets: the groups tools are exposed by, and how SVC_TOOLSETS names them. `default` is not a
 * group but a choice each tool makes (`inDefault`): the tools most questions need, kept few so the
 * tool list stays small in a model's context. Which tools settings select is decided here, from
 * what a tool says of itself (toolset, default, plans), so that the generated list (mcp/listing.ts)
 * selects as the tools do without loading them.
 */
import { ALL_PLANS, type Plan } from './plans.js';

export const TOOLSETS = {
  global_metrics: 'Global market totals, latest and historical',
  sentiment: 'Fear and greed, altcoin season',
  indices: 'The svc100 and svc20 market indices',
  community: 'Community trending tokens and topics',
  dex: 'DEX platforms',
  cryptocurrency:
    'Cryptocurrencies: search, map, info, listings, quotes, history, trends, categories, market pairs',
  content: 'News, articles and community posts',
  kline: 'DEX token candles and price points by contract address',
  utilities: 'Price conversion and the fiat map',
  legacy: 'Deprecated endpoints kept for old integrations (v1 listings, v2 quotes)',
  analysis: 'Returns, risk, indicators and correlation computed from candles',
  account: 'Credit usage and key info',
} as const;
export type Toolset = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as Toolset[];

/** What SVC_TOOLSETS selects: toolsets, and `default` (every tool that is in the default list). */
export type ToolsetChoice = Toolset | 'default';

/** Everything SVC_TOOLSETS accepts: the toolsets, and `all` and `default`. */
export const TOOLSET_CHOICES: readonly string[] = [...TOOLSET_NAMES, 'all', 'default'];

/** What the settings choose: the key's plan (SVC_PLAN) and the toolsets (SVC_TOOLSETS). */
export interface Selection {
  plan?: Plan;
  toolsets: readonly ToolsetChoice[];
}

/** What a tool says of itself for its selection; `plans` undefined: every plan has it. */
export interface Selectable {
  toolset: Toolset;
  inDefault?: boolean;
  plans?: readonly Plan[];
}

/** The plans that have the tool: an endpoint's, or those of the endpoints a local tool reads. */
export function toolPlans(tool: Selectable): readonly Plan[] {
  return tool.plans ?? ALL_PLANS;
}

/** Whether the plan has the tool. */
export function planHas(plan: Plan | undefined, tool: Selectable): boolean {
  return plan === undefined || toolPlans(tool).includes(plan);
}

/** The chosen toolsets' and default tools, minus those the plan lacks. */
export function selectFrom<T extends Selectable>(tools: readonly T[], config: Selection): T[] {
  return tools.filter((tool) => isSelected(tool, config.toolsets) && planHas(config.plan, tool));
}

/** The one-line error of settings under which `selectFrom` finds no tool at all. */
export function noToolsMessage(config: Selection): string {
  return `SVC_PLAN=${config.plan} and SVC_TOOLSETS=${config.toolsets.join(',')} leave no tool to expose: every tool in those toolsets needs a higher plan. Add toolsets (default, all) or check SVC_PLAN.`;
}

/** Whether a tool is selected by these choices. */
export function isSelected(
  tool: { toolset: Toolset; inDefault?: boolean },
  choices: readonly ToolsetChoice[],
): boolean {
  return choices.includes(tool.toolset) || (tool.inDefault === true && choices.includes('default'));
}
