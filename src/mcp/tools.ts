/** The tools a configuration exposes, their definitions as MCP lists them, and how long a list keeps. */
import type { CacheHint, Tool as McpTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { LOCAL_TOOLS } from '../call/local-tools.js';
import type { Tool } from '../call/pipeline.js';
import { endpoints } from '../catalog/index.js';
import type { Config } from '../config.js';

/** Every tool the server has: the catalog's endpoints, then the tools it answers itself. */
export const ALL_TOOLS: readonly Tool[] = [...endpoints, ...LOCAL_TOOLS];

/** The chosen toolsets, minus the endpoints the plan lacks. */
export function selectTools(config: Pick<Config, 'plan' | 'toolsets'>): Tool[] {
  return ALL_TOOLS.filter(
    (tool) =>
      config.toolsets.includes(tool.toolset) &&
      (config.plan === undefined || !('plans' in tool) || tool.plans.includes(config.plan)),
  );
}

/** The tools a configuration exposes, by name, with their definitions computed on first use. */
export function exposedTools(config: Pick<Config, 'plan' | 'toolsets'>) {
  const selected = selectTools(config);
  let definitions: McpTool[] | undefined;
  let byName: Map<string, McpTool> | undefined;
  return {
    tools: new Map(selected.map((tool) => [tool.name, tool])),
    get definitions(): McpTool[] {
      definitions ??= selected.map(toolDefinition);
      return definitions;
    },
    definition(name: string): McpTool | undefined {
      byName ??= new Map(this.definitions.map((d) => [d.name, d]));
      return byName.get(name);
    },
  };
}

/**
 * The cache hint of the lists (2026-07-28 clients keep a list for `ttlMs`): a list changes only when
 * the server restarts with other settings, so a client may keep it as long as the slowest data its
 * tools serve, the longest refresh frequency among them; it is the same for every caller (public).
 */
export function listCacheHint(tools: readonly Tool[]): Required<CacheHint> {
  const longest = Math.max(0, ...tools.map((tool) => ('refreshSeconds' in tool ? tool.refreshSeconds : 0)));
  return { ttlMs: longest * 1000, cacheScope: 'public' };
}

/** JSON Schema without the `$schema` line: it costs every conversation context and says nothing. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

export function toolDefinition(tool: Tool): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.toolInput, 'input') as McpTool['inputSchema'],
    outputSchema: jsonSchema(tool.output, 'output') as McpTool['outputSchema'],
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: true },
  };
}
