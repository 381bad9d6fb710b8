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

/**
 * JSON Schema as the model reads it (every byte is paid for in each conversation), without what
 * says nothing to it: the `$schema` line, a `type` beside an `enum` (the values say it), the
 * safe-integer bound of an integer without a maximum, `propertyNames` of type string, and the rules the server enforces and names
 * in its refusals anyway: `additionalProperties: false` (an unknown parameter is refused with the
 * list of those taken) and a string's `pattern` and length bounds (a malformed or oversized value
 * is refused naming the parameter; descriptions give examples). Nothing is sent for a refused call.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return trim(rest) as Record<string, unknown>;
}

const STRING_RULES: ReadonlySet<string> = new Set(['pattern', 'minLength', 'maxLength']);

function trim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trim);
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && 'enum' in schema) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (STRING_RULES.has(key) && schema.type === 'string') continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    // Object keys are strings in JSON: saying so says nothing.
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    // These hold values, not schemas.
    out[key] = key === 'enum' || key === 'required' || key === 'default' ? value : trim(value);
  }
  return out;
}

/**
 * What any answer may carry besides its own fields: set when the data was cut to fit 1 MiB, saying
 * what was left out and how to fetch it (call/cut.ts). The name says it: no description is paid for.
 */
const truncated = z.string().optional();

export function toolDefinition(tool: Tool): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.toolInput, 'input') as McpTool['inputSchema'],
    outputSchema: jsonSchema(tool.output.safeExtend({ truncated }), 'output') as McpTool['outputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: true },
  };
}
