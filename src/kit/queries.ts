/**
 * What a tool sees of kept tables (ToolContext.query): a query's rows, or why it failed, as plain
 * data: the query engine (src/kept/) gives it, the query tool words it.
 */
import { z } from 'zod';

/** A column's type in a kept table; `json` is JSON text (lists, for json_each). */
export type ColumnType = 'integer' | 'real' | 'text' | 'json';

/** A table's columns in order: name and type. */
export type Columns = readonly (readonly [string, ColumnType])[];

/** A kept table as its owner's catalog lists it. */
export interface TableEntry {
  name: string;
  /** The tool whose answer it holds, and the arguments that would fetch it again. */
  tool: string;
  params: Record<string, unknown>;
  columns: Columns;
  rows: number;
  /** Milliseconds since the epoch. */
  expires: number;
}

/** What an answer says of the table its rows are kept as (`kept`): its name, columns, rows and expiry (ISO). */
export const keptSummary = z.object({
  table: z.string(),
  columns: z.record(z.string(), z.string()),
  rows: z.number(),
  expires: z.string(),
});
export type KeptSummary = z.output<typeof keptSummary>;

/** Why a query gave no rows. */
export type QueryErrorCode =
  | 'syntax'
  | 'no table'
  | 'no column'
  | 'denied'
  | 'statements'
  | 'timeout'
  | 'memory'
  | 'too big'
  | 'busy'
  | 'failed'
  | 'other';

export type QueryAnswer =
  | { ok: true; columns: string[]; rows: unknown[][]; more: boolean }
  | {
      ok: false;
      code: QueryErrorCode;
      /** SQLite's words, or the engine's. */
      message: string;
      /** Where in the SQL SQLite placed it (0-based characters). */
      offset?: number;
      /** What the authorizer refused (`PRAGMA`, `ATTACH`, `the function x`). */
      denied?: string;
      /** The caller's tables: live ones, and those expired within a day. */
      tables: TableEntry[];
      /** The server's clock when it failed, in milliseconds. */
      now: number;
    };
