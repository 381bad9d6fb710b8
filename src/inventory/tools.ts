/**
 * Every tool the server has, as code, in the order they are listed (the endpoints, then the tools
 * the server answers itself), and those of them a configuration exposes: the names the one
 * selection (listed.ts) gives.
 */
import { endpoints } from '../endpoints/index.js';
import type { Tool } from '../kit/define.js';
import type { Selection } from '../kit/toolsets.js';
import { localTools } from '../local/index.js';
import { selectedTools } from './listed.js';

export const tools: readonly Tool[] = [...endpoints, ...localTools];

const byName = new Map(tools.map((tool) => [tool.name, tool]));

/** The tools these settings expose, by name. */
export function exposedTools(config: Selection): ReadonlyMap<string, Tool> {
  return new Map(selectedTools(config).map((listed) => [listed.name, byName.get(listed.name) as Tool]));
}
