/**
 * Kept results as tables. An answer with rows keeps its tool's whole data in the result store (its
 * following pages come from there, free) and names it as a table in its owner's catalog; a query
 * runs in the query engine over the owner's tables, each loaded from the result store the first
 * time a query reads it. Nothing is fetched and nothing is charged here.
 */
import { LRUCache } from 'lru-cache';
import {
  type KeptBody,
  keptBodyOfResult,
  type ServiceAnswer,
  type StoredResult,
} from '../cache/result-format.js';
import { keepUntil, type ResultStore } from '../cache/results.js';
import type { RowsShape } from '../kit/pages.js';
import type { QueryAnswer, QueryErrorCode } from '../kit/queries.js';
import type { KeptTable, TableCatalog } from './catalog.js';
import type { QueryEngine } from './engine.js';
import { EngineUnavailable } from './engine.js';
import { keptId } from './names.js';
import { columnsOf, rowCount } from './rows.js';

/**
 * The most columns a table has: SQLite's own bound (SQLITE_MAX_COLUMN). Rows wider than that (120
 * currencies asked make under 1,000) are kept for their pages, not as a table.
 */
const MAX_TABLE_COLUMNS = 2_000;

/** A call's whole data, to keep. */
export interface ToKeep {
  owner: string;
  tool: string;
  /** The call's arguments, without format and cursor. */
  params: Record<string, unknown>;
  data: Record<string, unknown>;
  /** When the service answered, in milliseconds. */
  fetchedAt: number;
  /** The service's answer the data was normalised from, when it is kept as sent (result-format.ts). */
  answer?: ServiceAnswer;
  /** Where its rows are; none: kept for its pages only, not as a table. */
  shape?: RowsShape;
  keepMs: number;
  /** Made with nothing sent or charged: it goes before results paid for (StoredResult.free). */
  free?: boolean;
}

/** What was kept: the result's id (what cursors name) and its table, when it is one. */
export interface Kept {
  id: string;
  table?: KeptTable;
}

export class KeptTables {
  /** What this process kept lately, by id: the same answer asked again is kept once. */
  private readonly known = new LRUCache<string, Kept & { expires: number }>({ max: 1_000 });

  constructor(
    private readonly results: ResultStore,
    private readonly catalog: TableCatalog,
    private readonly engine: QueryEngine,
    private readonly options: {
      queryTimeoutMs: number;
      warn?: (fields: Record<string, unknown>, message: string) => void;
    },
  ) {}

  /** Results being written that the answer did not wait for: their tables are loaded from here meanwhile. */
  private readonly writing = new Map<string, { result: StoredResult; done: Promise<boolean> }>();

  /**
   * Keeps the call's data (and names its table); undefined when it is too large to keep. An answer
   * whose rows all fit its page does not wait for the write (its table is queried from this
   * process's memory meanwhile): it holds no cursor another process could follow.
   */
  async keep(call: ToKeep & { whole: boolean }): Promise<Kept | undefined> {
    const id = keptId(call.owner, call.tool, call.params, call.fetchedAt);
    const known = this.known.get(id);
    if (known && known.expires > Date.now()) {
      // Kept already, by an answer that did not wait for the write: one whose cursor is served waits.
      const writing = call.whole ? undefined : this.writing.get(id);
      return writing === undefined || (await writing.done) ? known : undefined;
    }
    const { owner, tool, params, data, fetchedAt, answer, shape, free } = call;
    const expires = keepUntil(call.keepMs);
    const result: StoredResult = {
      tool,
      owner,
      params,
      data,
      fetchedAt,
      ...(answer ? { answer } : {}),
      ...(free ? { free } : {}),
    };
    const written = this.results.put(id, result, expires).catch((error: unknown) => {
      this.options.warn?.({ tool, err: error }, 'a result could not be written: it is not kept');
      return false;
    });
    if (call.whole) this.track(id, result, written);
    else if (!(await written)) return undefined;
    const kept: Kept = { id };
    const rows = shape === undefined ? 0 : rowCount(data, shape);
    if (shape !== undefined && rows > 0) {
      const columns = columnsOf(data, shape);
      if (columns.length <= MAX_TABLE_COLUMNS) {
        kept.table = await this.catalog.add(owner, { id, tool, params, columns, rows, shape, expires });
      } else {
        this.options.warn?.(
          { tool, columns: columns.length },
          'rows too wide for a table: kept for their pages',
        );
      }
    }
    this.known.set(id, { ...kept, expires });
    // A write not waited for that fails is forgotten: the same answer asked again keeps it again,
    // rather than naming a result that is not there.
    if (call.whole) void written.then((ok) => ok || this.known.delete(id));
    return kept;
  }

  /** Resolves once what this process keeps is written: a one-shot command waits for it. */
  async flush(): Promise<void> {
    await Promise.all([...this.writing.values()].map((w) => w.done));
  }

  private track(id: string, result: StoredResult, written: Promise<boolean>): void {
    const done = written.finally(() => this.writing.delete(id));
    this.writing.set(id, { result, done });
  }

  /** A kept result's body, for the query engine: still being written, or stored. */
  private async stored(id: string, owner: string): Promise<KeptBody | undefined> {
    const writing = this.writing.get(id);
    if (writing) return writing.result.owner === owner ? keptBodyOfResult(writing.result) : undefined;
    return this.results.body(id, owner);
  }

  /** The table this process kept under `id`, if it did. */
  tableOf(id: string): KeptTable | undefined {
    return this.known.get(id)?.table;
  }

  /** One SELECT over the owner's kept tables: its rows, or why not. */
  async query(owner: string, sql: string): Promise<QueryAnswer> {
    let tables = await this.catalog.list(owner);
    const now = Date.now();
    const live = tables.filter((t) => t.expires > now);
    const refs = live.map(({ name, id, columns }) => ({ name, id, columns }));
    const failed = (code: QueryErrorCode, message: string, more: object = {}): QueryAnswer => ({
      ok: false,
      code,
      message,
      tables,
      now,
      ...more,
    });
    try {
      for (let round = 0; round <= live.length; round++) {
        const timeoutMs = this.options.queryTimeoutMs;
        const reply = await this.engine.query({ kind: 'query', owner, sql, tables: refs, timeoutMs });
        if (reply.kind === 'rows') {
          return { ok: true, columns: reply.columns, rows: reply.rows, more: reply.more };
        }
        if (reply.kind === 'error') {
          const { code, message, offset, denied } = reply;
          return failed(code, message, {
            ...(offset === undefined ? {} : { offset }),
            ...(denied ? { denied } : {}),
          });
        }
        for (const name of reply.names) {
          const table = live.find((t) => t.name === name);
          const stored = table && (await this.stored(table.id, owner));
          if (!table || stored === undefined) {
            // Its result left the store before its time (the store's bound): expired now.
            tables = tables.map((t) => (t.name === name ? { ...t, expires: now } : t));
            return failed('no table', `no such table: ${name}`);
          }
          const { id, columns, shape, rows } = table;
          const cells = rows * columns.length;
          await this.engine.load({ kind: 'load', owner, table: { name, id, columns }, shape, stored, cells });
        }
      }
      return failed('failed', 'the tables it reads could not be loaded');
    } catch (error) {
      if (error instanceof EngineUnavailable) return failed(error.code, error.message);
      throw error;
    }
  }
}
