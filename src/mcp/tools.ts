/** The tools a configuration exposes, and their definitions as MCP lists them. */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { creditUsage, type LocalTool } from '../call/local-tools.js';
import type { Tool } from '../call/pipeline.js';
import { searchCryptocurrencies } from '../call/search.js';
import { endpoints, isSelected } from '../catalog/index.js';
import type { Config } from '../config.js';

/** Every tool the server has: the catalog's endpoints, then the tools it answers itself. */
export const ALL_TOOLS: readonly Tool[] = [
  ...endpoints,
  ...([searchCryptocurrencies, creditUsage] as unknown as LocalTool[]),
];

/** The chosen toolsets and default tools, minus the endpoints the plan lacks. */
export function selectTools(config: Pick<Config, 'plan' | 'toolsets'>): Tool[] {
  return ALL_TOOLS.filter(
    (tool) =>
      isSelected(tool, config.toolsets) &&
      (config.plan === undefined || !('plans' in tool) || tool.plans.includes(config.plan)),
  );
}

/** The tools a configuration exposes, by name, with their definitions computed on first use. */
export function exposedTools(config: Pick<Config, 'plan' | 'toolsets'>) {
  const selected = selectTools(config);
  let definitions: McpTool[] | undefined;
  return {
    tools: new Map(selected.map((tool) => [tool.name, tool])),
    get definitions(): McpTool[] {
      definitions ??= selected.map(toolDefinition);
      return definitions;
    },
  };
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
