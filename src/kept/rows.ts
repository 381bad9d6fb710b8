/**
 * A kept result as a table: its rows (by the shape its tool declares) flattened into columns. A
 * nested object's fields join their path with `_` (`quote_usd_close`); a list of per-currency
 * figures (`[{currency: 'USD', close}]`) is keyed by its currency the same way; any other list is
 * one column of JSON text. Names are lower case letters, digits and `_`. Each column has one type:
 * `integer`, `real`, `text`, or `json` (JSON text, for json_each). Pure, so that the query engine's
 * thread reads rows the same way.
 */
import type { RowsShape } from '../catalog/pages.js';
import type { Columns, ColumnType } from '../catalog/queries.js';

type Row = Record<string, unknown>;

/** The rows of a tool's data, as its shape places them: one list, or each asset's points with the asset's fields. */
export function rowsOf(data: Row, shape: RowsShape): Row[] {
  if ('list' in shape) return (data[shape.list] as Row[] | undefined) ?? [];
  const assets = (data.items as Row[] | undefined) ?? [];
  return assets.flatMap((asset) => {
    const { [shape.points]: points, ...fields } = asset;
    return ((points as Row[] | undefined) ?? []).map((point) => ({ ...fields, ...point }));
  });
}

/** A column name from a path: lower case, each run of other characters one `_`. */
function columnName(path: string): string {
  const name = path
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return name === '' ? 'value' : name;
}

function isPlainObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A list of per-currency figures, keyed by currency when flattened. */
function isCurrencyList(value: unknown[]): value is Row[] {
  return value.length > 0 && value.every((item) => isPlainObject(item) && typeof item.currency === 'string');
}

/** Calls `leaf(column, value)` for each of the row's leaves, in the order its fields come. */
function eachLeaf(row: Row, leaf: (column: string, value: unknown) => void, prefix = ''): void {
  for (const [key, value] of Object.entries(row)) {
    const path = prefix === '' ? key : `${prefix}_${key}`;
    if (isPlainObject(value)) eachLeaf(value, leaf, path);
    else if (Array.isArray(value) && isCurrencyList(value)) {
      for (const { currency, ...figures } of value) eachLeaf(figures, leaf, `${path}_${currency}`);
    } else leaf(columnName(path), value);
  }
}

function typeOf(value: unknown): ColumnType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'real';
  if (typeof value === 'boolean') return 'integer';
  if (typeof value === 'string') return 'text';
  return 'json';
}

/** The wider of two types: integer and real make real; any other mix, text. */
function wider(a: ColumnType | undefined, b: ColumnType | undefined): ColumnType | undefined {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  if ((a === 'integer' && b === 'real') || (a === 'real' && b === 'integer')) return 'real';
  return 'text';
}

/** Every column the rows have, in the order first met, each with the type its values take (text when none has a value). */
export function columnsOf(rows: readonly Row[]): Columns {
  const types = new Map<string, ColumnType | undefined>();
  for (const row of rows) {
    eachLeaf(row, (column, value) => types.set(column, wider(types.get(column), typeOf(value))));
  }
  return [...types].map(([name, type]) => [name, type ?? 'text'] as const);
}

/** A value as the table holds it: booleans as 0 or 1, lists and objects as JSON text, the rest as they are. */
function cell(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The rows as arrays of cells in the columns' order. */
export function cellsOf(rows: readonly Row[], columns: Columns): (string | number | null)[][] {
  const at = new Map(columns.map(([name], index) => [name, index]));
  return rows.map((row) => {
    const cells: (string | number | null)[] = new Array(columns.length).fill(null);
    eachLeaf(row, (column, value) => {
      const index = at.get(column);
      if (index !== undefined) cells[index] = cell(value);
    });
    return cells;
  });
}
