/**
 * The messages between the server's thread and the query engine's (engine.ts, engine-worker.ts):
 * plain data, so that nothing but JSON-like values crosses.
 */
import type { KeptBody } from '../cache/result-format.js';
import type { RowsShape } from '../kit/pages.js';
import type { Columns, QueryErrorCode } from '../kit/queries.js';

/** The engine's bounds, fixed when its thread starts. */
export interface EngineLimits {
  /** SQLite's hard heap limit, in bytes: a query past it fails, out of memory. */
  heapBytes: number;
  /** Cells (rows × columns) the loaded tables hold at most; past it the least recently used go. */
  heldCells: number;
  /** Rows one query may give at most; one more says there are more. */
  maxRows: number;
  /**
   * What one query's rows may take at most, each value counted as 16 bytes and a text its
   * characters more: past it, the rows so far, saying there are more.
   */
  maxRowsBytes: number;
  /** The longest text or blob a value may be, in bytes. */
  maxValueBytes: number;
}

/** A kept table as the owner's catalog has it: what the engine makes its empty shell from. */
export interface TableRef {
  name: string;
  /** The kept result it is made from: a table of the same name from another result is replaced. */
  id: string;
  columns: Columns;
}

export type ToEngine =
  | {
      kind: 'query';
      seq: number;
      owner: string;
      sql: string;
      /** Every live table of the owner's: the engine holds shells of these, and no others. */
      tables: TableRef[];
      /** How long it may run, from when the engine starts it (its wait for a turn aside). */
      timeoutMs: number;
      /** When the engine must have started it (clockMs): later, it is skipped ('late'). */
      startBy: number;
    }
  | {
      kind: 'load';
      seq: number;
      owner: string;
      table: TableRef;
      shape: RowsShape;
      /** The kept result's body: its data as JSON, or the service's answer to normalise. */
      stored: KeptBody;
      /** Rows × columns, for the engine's bound. */
      cells: number;
      /** As a query's. */
      startBy: number;
    };

/** Why a query failed, as SQLite said it. */
export type EngineErrorCode = Exclude<QueryErrorCode, 'busy' | 'failed'>;

export type FromEngine =
  | { seq: number; kind: 'ready' }
  /** The engine began it: its time runs from now. */
  | { seq: number; kind: 'started' }
  /** The engine got to it past its `startBy` (the wait for a turn is bounded): not run. */
  | { seq: number; kind: 'late' }
  | { seq: number; kind: 'loaded' }
  | { seq: number; kind: 'need'; names: string[] }
  | { seq: number; kind: 'rows'; columns: string[]; rows: unknown[][]; more: boolean }
  | {
      seq: number;
      kind: 'error';
      code: EngineErrorCode;
      message: string;
      /** Where in the SQL SQLite placed the error (0-based characters), when it did. */
      offset?: number;
      /** What the authorizer refused ('PRAGMA', 'ATTACH', 'INSERT', …), for 'denied'. */
      denied?: string;
    };

/** The replies that end a query. */
export type QueryReply = Extract<FromEngine, { kind: 'need' | 'rows' | 'error' }>;

/**
 * The time in milliseconds, as both threads read it alike: the process's own monotonic clock from
 * each thread's origin, which a Date set by hand (tests that stand the clock still) does not move.
 */
export function clockMs(): number {
  return performance.timeOrigin + performance.now();
}
