/**
 * What a script can call, as TypeScript declarations generated from each tool's own zod input and
 * output schemas (never written by hand): one line a tool, `tools.NAME(args): Promise<Output>`,
 * its output being the tool's whole data. A model reads them to write a script without a larger
 * tool list.
 */
import { z } from 'zod';
import { type Tool, tableRows } from '../kit/define.js';
import { keptSummary } from '../kit/queries.js';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: Schema | boolean;
};

const NAME = /^[A-Za-z_$][\w$]*$/;

/** A JSON Schema as a TypeScript type, on one line. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'unknown';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map(typeOf))].join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeOf({ ...schema, type })).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items);
      return /[|&\s]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectOf(schema);
    default:
      return 'unknown';
  }
}

function objectOf(schema: Schema): string {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) {
    const values = schema.additionalProperties;
    if (values === false) return '{}';
    return typeof values === 'object' ? `Record<string, ${typeOf(values)}>` : 'Record<string, unknown>';
  }
  const required = new Set(schema.required ?? []);
  const fields = properties.map(([key, value]) => {
    const name = NAME.test(key) ? key : JSON.stringify(key);
    return `${name}${required.has(key) ? '' : '?'}: ${typeOf(value)}`;
  });
  return `{ ${fields.join('; ')} }`;
}

const declared = new WeakMap<Tool, string>();

/** What a call with rows adds to its data: the table they are kept as (call/paging.ts keptSummary). */
const KEPT = z.toJSONSchema(keptSummary) as Schema;

/** `tools.NAME(args: {...}): Promise<{...}>;` for one tool: the arguments its input takes, its whole data. */
export function declaration(tool: Tool): string {
  let line = declared.get(tool);
  if (line === undefined) {
    const input = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Schema;
    const output = z.toJSONSchema(tool.output, { unrepresentable: 'any' }) as Schema;
    if (tableRows(tool) !== undefined) output.properties = { ...output.properties, kept: KEPT };
    const optional = (input.required ?? []).length === 0 ? '?' : '';
    line = `tools.${tool.name}(args${optional}: ${typeOf(input)}): Promise<${typeOf(output)}>;`;
    declared.set(tool, line);
  }
  return line;
}

/** The declarations of `tools`, and of what a script has besides them. */
export function declarations(tools: readonly Tool[]): string {
  return [
    '// In a script: the body of an async function; `return` gives the answer (JSON). Where a string is taken, a whole number is sent as its digits and a list as its items joined by commas (ids from data pass as they are).',
    ...tools.map(declaration),
    'query(sql: string): Promise<{ columns: string[]; rows: unknown[][]; more: boolean }>; // query_data over your kept tables, free',
    'console.log(...values: unknown[]): void; // kept, bounded, beside the answer',
  ].join('\n');
}
