/**
 * What a server lists for these settings, from the one list and its selection
 * (inventory/listed.ts): the definitions, the instructions and the lists' cache hint, without
 * loading the tools. So `initialize` and `tools/list` are answered before the call path has loaded.
 */
import type { CacheHint, Tool as McpTool } from '@modelcontextprotocol/server';
import { generatedTools, type ListedTool, selectedTools } from '../inventory/listed.js';
import type { Selection } from '../kit/toolsets.js';
import { instructionsFor } from './instructions.js';

export interface Listing {
  names: ReadonlySet<string>;
  definitions: McpTool[];
  definition(name: string): McpTool | undefined;
  instructions: string;
  /** How long a list keeps (2026-07-28): it changes only with the settings. */
  listHint: Required<CacheHint>;
}

const listings = new WeakMap<object, Listing>();

/** What a server with these settings lists; built once per settings object. */
export function listingFor(config: Selection & { maxAnswerChars: number }): Listing {
  let listing = listings.get(config);
  if (!listing) {
    const all = generatedTools();
    const listed = selectedTools(config);
    const byName = new Map(listed.map((tool) => [tool.name, tool.definition]));
    listing = {
      names: new Set(byName.keys()),
      definitions: [...byName.values()],
      definition: (name) => byName.get(name),
      instructions: instructionsFor(listed, all, config.maxAnswerChars),
      listHint: listCacheHint(listed),
    };
    listings.set(config, listing);
  }
  return listing;
}

/**
 * The cache hint of the lists (2026-07-28 clients keep a list for `ttlMs`): a list changes only when
 * the server restarts with other settings, so a client may keep it as long as the slowest data its
 * tools serve, the longest refresh frequency among them; it is the same for every caller (public).
 */
function listCacheHint(tools: readonly ListedTool[]): Required<CacheHint> {
  const longest = Math.max(0, ...tools.map((tool) => tool.refreshSeconds));
  return { ttlMs: longest * 1000, cacheScope: 'public' };
}
