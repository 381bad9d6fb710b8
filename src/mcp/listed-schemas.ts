/**
 * A tool's definition as `tools/list` gives it, from the tool's code: what `npm run docs` writes into
 * the generated list (inventory/tool-list.json), trimmed to what a model needs to read.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { callsService, type Tool } from '../kit/index.js';
import { MAX_UNBOUNDED_INT } from '../kit/params.js';
import { viewMeta } from './views.js';

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
  if (JSON.stringify(nothing) !== '{"type":"null"}' || typeof value?.type !== 'string') return schema;
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
    // Object keys are strings in JSON, and any value is what an unsaid one allows: saying so says nothing.
    if (key === 'propertyNames' && JSON.stringify(trim(value)) === '{"type":"string"}') continue;
    if (key === 'additionalProperties' && JSON.stringify(value) === '{}') continue;
    // These hold values, not schemas.
    out[key] = key === 'enum' || key === 'required' || key === 'default' ? value : trim(value);
  }
  return out;
}

/**
 * The cursor every paged tool takes, which the instructions explain once (send an answer's `next`
 * as it is): not listed tool by tool. The listed schemas allow parameters they do not name, and
 * the server takes it. `format`, which every tool takes, is listed by its values alone, so that a
 * client that sends only what a schema names can send it; the instructions say what each gives.
 */
const EXPLAINED_ONCE: ReadonlySet<string> = new Set(['cursor']);

/** Parameters whose names say what they are (an offset, a page size, a range's bounds): listed without their words. */
const SELF_EXPLAINED = /^(start|limit|amount|convert_id|skip_invalid|time_end|\w+_(min|max))$/;
const RANGE_BOUND = /_(min|max)$/;
/** A longer list of values is listed by its first few, as examples: a refusal names them all. */
const ENUM_SHOWN = 4;

/**
 * An input schema as listed: what the instructions explain once, self-explained parameters without
 * their words, and long lists of values by their first few (the definitions put the common ones first).
 */
function listedInput(schema: Record<string, unknown>): Record<string, unknown> {
  const fields = schema.properties as Record<string, Record<string, unknown>>;
  const listed = (name: string, field: Record<string, unknown>): Record<string, unknown> => {
    const { description, enum: values, ...rest } = field;
    if (name === 'format') return { enum: values };
    const plain = SELF_EXPLAINED.test(name);
    // "Default all." says what JSON Schema's `default` says, in fewer bytes.
    const only = /^Default ([\w.-]+)\.$/.exec(String(description ?? ''))?.[1];
    if (only !== undefined) rest.default ??= only;
    const words = plain || only !== undefined ? undefined : (description as string | undefined);
    // An offset from 1, or a page size or count of at least 1, goes without saying.
    if ((plain || name === 'count') && rest.minimum === 1) delete rest.minimum;
    // A time goes as text (Unix seconds as digits, or ISO 8601); the server takes a number too.
    if (Array.isArray(rest.type) && rest.type.join() === 'string,number') rest.type = 'string';
    if (name === 'start' && rest.default === 1) delete rest.default;
    // A flag is off unless sent.
    if (rest.type === 'boolean' && rest.default === false) delete rest.default;
    // A range's bound by its type alone: a negative price or cap is refused, naming the parameter.
    if (RANGE_BOUND.test(name)) return { type: rest.type };
    if (Array.isArray(values) && values.length > ENUM_SHOWN + 2) {
      const examples = `e.g. ${values.slice(0, ENUM_SHOWN).join(', ')}.`;
      return { ...rest, type: 'string', description: words ? `${words} ${examples}` : examples };
    }
    return { ...rest, ...(values ? { enum: values } : {}), ...(words ? { description: words } : {}) };
  };
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(fields)
        .filter(([name]) => !EXPLAINED_ONCE.has(name))
        .map(([name, field]) => [name, listed(name, field)]),
    ),
  };
}

/** How deep a listed output schema goes: the answer's fields, and its lists' and objects' fields. */
const OUTPUT_DEPTH = 2;
/** What a listed output schema keeps of a node, besides its fields. */
const OUTPUT_KEYS: ReadonlySet<string> = new Set(['type', 'enum', 'const']);

/**
 * An output schema as listed: the answer's fields with their types, and its lists' and objects'
 * fields one level down by name alone; no descriptions, bounds or required fields (the tool's
 * description says what the answer holds; `truncated` and `next` are the text's to explain).
 * Hosts compile a validator of every listed output schema each time they list, before the list
 * is theirs: typing the fields one level down would make that several times longer (decision
 * 009). The server checks each answer against the whole shape itself (kit/define.ts,
 * checkedData).
 */
function compactOutput(node: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth >= OUTPUT_DEPTH) return out;
  for (const [key, value] of Object.entries(node)) {
    if (OUTPUT_KEYS.has(key)) out[key] = value;
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = value.map((option) => compactOutput(option as Record<string, unknown>, depth));
  }
  const fields = node.properties as Record<string, Record<string, unknown>> | undefined;
  if (fields) {
    out.properties = Object.fromEntries(
      Object.entries(fields).map(([name, field]) => [name, compactOutput(field, depth + 1)]),
    );
  }
  const items = node.items as Record<string, unknown> | undefined;
  if (items) out.items = compactOutput(items, depth);
  const values = node.additionalProperties;
  if (values && typeof values === 'object')
    out.additionalProperties = compactOutput(values as Record<string, unknown>, depth + 1);
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
    inputSchema: listedInput(jsonSchema(tool.toolInput, 'input')) as McpTool['inputSchema'],
    outputSchema: compactOutput(jsonSchema(tool.output, 'output'), 0) as McpTool['outputSchema'],
    // Every tool only reads (so whether it is idempotent or destructive says nothing, MCP's
    // annotations say); the service's world is open, which is the hint's default: only the
    // server's own tools say otherwise.
    annotations: callsService(tool) ? { readOnlyHint: true } : { readOnlyHint: true, openWorldHint: false },
    ...(view === undefined ? {} : { _meta: view }),
  };
}
