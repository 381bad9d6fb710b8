/**
 * A tool's kept table as its output schema describes it, for the docs: the columns its rows
 * flatten to (rows.ts), named as rows.ts names them, with `<currency>` where per-currency figures
 * are keyed by the currencies asked for. The table itself takes its columns from the rows.
 */
import type { z } from 'zod';
import type { RowsShape } from '../kit/pages.js';

interface Node {
  def: { type: string; in?: Node; out?: Node; innerType?: Node };
  shape?: Record<string, Node>;
  element?: Node;
  valueType?: Node;
  options?: Node[];
}

/** Through what wraps a schema (optional, nullable, a default, a pipe's output) to what it holds. */
function inner(node: Node): Node {
  const { type } = node.def;
  if (type === 'optional' || type === 'nullable' || type === 'default') {
    return inner(node.def.innerType as Node);
  }
  if (type === 'pipe') return inner(node.def.out as Node);
  return node;
}

function columnsAt(node: Node, path: string, out: string[]): void {
  const held = inner(node);
  const { type } = held.def;
  if (type === 'object' && held.shape) {
    for (const [key, field] of Object.entries(held.shape)) {
      columnsAt(field, path === '' ? key : `${path}_${key}`, out);
    }
    return;
  }
  const element = type === 'array' ? inner(held.element as Node) : undefined;
  if (element?.def.type === 'object' && element.shape && 'currency' in element.shape) {
    const { currency: _, ...figures } = element.shape;
    for (const key of Object.keys(figures)) out.push(`${path}_<currency>_${key}`);
    return;
  }
  if (type === 'record') columnsAt(held.valueType as Node, `${path}_<key>`, out);
  else out.push(path);
}

/** The columns of a tool's kept table, by its output schema and where its rows are. */
export function columnsOfSchema(output: z.ZodObject, shape: RowsShape): string[] {
  const fields = (output as unknown as Node).shape ?? {};
  const out: string[] = [];
  if ('list' in shape) {
    const list = inner(fields[shape.list] as Node);
    columnsAt(list.element as Node, '', out);
    return out;
  }
  const asset = inner(inner(fields.items as Node).element as Node);
  const { [shape.points]: points, ...assetFields } = asset.shape ?? {};
  for (const [key, field] of Object.entries(assetFields)) columnsAt(field, key, out);
  columnsAt(inner(points as Node).element as Node, '', out);
  return out;
}
