/**
 * What a server lists, from the tool list generated at build time (tool-list.json, written by
 * `npm run docs` from the tools and checked against it by test/docs.test.ts): the definitions,
 * the instructions and the lists' cache hint, for these settings, without loading the tools. So
 * `initialize` and `tools/list` are answered before the call path has loaded.
 */
import type { CacheHint, Tool as McpTool } from '@modelcontextprotocol/server';
import type { Plan } from '../catalog/plans.js';
import { type Selectable, type Selection, selectFrom, type Toolset } from '../catalog/toolsets.js';
import { instructionsFor } from './instructions.js';
import toolList from './tool-list.json' with { type: 'json' };

/** A tool as the generated list has it: what selects it, and its definition. */
export interface ListedTool extends Selectable {
  name: string;
  title: string;
  toolset: Toolset;
  plans?: Plan[];
  /** Its endpoint's refresh time; 0 for tools the server answers itself. */
  refreshSeconds: number;
  definition: McpTool;
}

export interface Listing {
  names: ReadonlySet<string>;
  definitions: McpTool[];
  definition(name: string): McpTool | undefined;
  instructions: string;
  /** How long a list keeps (2026-07-28): it changes only with the settings. */
  listHint: Required<CacheHint>;
}

/** Every tool the server has, as generated. */
export function generatedTools(): readonly ListedTool[] {
  return (toolList as unknown as { tools: ListedTool[] }).tools;
}

const listings = new WeakMap<object, Listing>();

/** What a server with these settings lists; built once per settings object. */
export function listingFor(config: Selection & { maxAnswerChars: number }): Listing {
  let listing = listings.get(config);
  if (!listing) {
    const all = generatedTools();
    const listed = selectFrom(all, config);
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
