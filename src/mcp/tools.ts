/** The tools a configuration exposes, their definitions as MCP lists them, and how long a list keeps. */
import type { CacheHint, Tool as McpTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { callsService, dataSchema, type Selection, selectTools, type Tool } from '../catalog/index.js';
import { MAX_UNBOUNDED_INT } from '../catalog/params.js';
import { viewMeta } from './views.js';

/** The tools a configuration exposes, by name, with their definitions computed on first use. */
export function exposedTools(config: Selection) {
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
  const longest = Math.max(0, ...tools.map((tool) => (tool.kind === 'endpoint' ? tool.refreshSeconds : 0)));
  return { ttlMs: longest * 1000, cacheScope: 'public' };
}

/**
 * JSON Schema as the model reads it (every byte is paid for in each conversation), without what
 * says nothing to it: the `$schema` line, a `type` beside an `enum` (the values say it), the
 * bounds that only keep absurd values out (see MAX_UNBOUNDED_INT), `propertyNames` of type string, and the rules the server enforces and names
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

/** `anyOf: [X, {type: null}]` with X of one type is X whose type also admits null: the same values. */
function nullableAsType(schema: Record<string, unknown>): Record<string, unknown> {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(schema).length !== 1) return schema;
  const [value, nothing] = options as Record<string, unknown>[];
  if (JSON.stringify(nothing) !== '{"type":"null"}' || typeof value.type !== 'string') return schema;
  return { ...value, type: [value.type, 'null'] };
}

function trim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trim);
  if (node === null || typeof node !== 'object') return node;
  const schema = nullableAsType(node as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && 'enum' in schema) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (STRING_RULES.has(key) && schema.type === 'string') continue;
    // A maximum that only keeps absurd values out (offsets past a million, money past 1e17) tells a
    // model nothing; the server still refuses such values, naming the parameter.
    if (key === 'maximum' && typeof value === 'number' && value >= MAX_UNBOUNDED_INT) continue;
    // Object keys are strings in JSON: saying so says nothing.
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    // These hold values, not schemas.
    out[key] = key === 'enum' || key === 'required' || key === 'default' ? value : trim(value);
  }
  return out;
}

const definitions = new WeakMap<Tool, McpTool>();

/** A tool's definition as tools/list gives it, built once: it depends on the tool alone. */
export function toolDefinition(tool: Tool): McpTool {
  let definition = definitions.get(tool);
  if (definition === undefined) {
    definition = buildDefinition(tool);
    definitions.set(tool, definition);
  }
  return definition;
}

function buildDefinition(tool: Tool): McpTool {
  const view = viewMeta(tool.name);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.toolInput, 'input') as McpTool['inputSchema'],
    outputSchema: jsonSchema(
      dataSchema(tool.output, tool.kind === 'endpoint' && tool.pages !== undefined),
      'output',
    ) as McpTool['outputSchema'],
    // Every tool only reads, and a call made again asks the same; the service's world is open.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: callsService(tool) },
    ...(view === undefined ? {} : { _meta: view }),
  };
}
