/**
 * Why a query gave no rows, in one line that leads on: the caller's tables for an unknown one, a
 * table's columns for an unknown column, SQLite's own words and the place for a syntax error (with
 * SQLite's form of another dialect's function or syntax the query used), and for a table that
 * expired, the call that would fetch it again with its price.
 */

import { formatNumber } from '../format/numbers.js';
import { counted, formatTime, namesWithin } from '../format/text.js';
import type { ToolContext } from '../kit/define.js';
import type { QueryAnswer, TableEntry } from '../kit/queries.js';
import { clip, closestName } from '../messages.js';

type Failure = Extract<QueryAnswer, { ok: false }>;

/** The tables the SQL names (as a word, in any case). */
function named(sql: string, tables: readonly TableEntry[]): TableEntry[] {
  const words = new Set(sql.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []);
  return tables.filter((t) => words.has(t.name));
}

/** "ohlcv_3f9k (7,440 rows of get_ohlcv_historical), …", or that there are none. */
function tablesLine(live: readonly TableEntry[]): string {
  if (live.length === 0) {
    return 'You have no kept tables: each answer with rows keeps them as a table and names it (kept.table), for as long as the answer is kept.';
  }
  const listed = live
    .slice(0, 20)
    .map((t) => `${t.name} (${counted(t.rows, 'row')} of ${t.tool})`)
    .join(', ');
  return `Your tables: ${listed}${live.length > 20 ? `, and ${live.length - 20} more` : ''}.`;
}

/** A table past its keep time: when, and what would fetch it again at what price. */
async function expiredLine(table: TableEntry, context: ToolContext): Promise<string> {
  const estimate = await context.estimate(table.tool, table.params).catch(() => undefined);
  const price = estimate?.ok
    ? estimate.cached
      ? 'free, from the cache'
      : counted(estimate.credits, 'credit')
    : undefined;
  const again = `${table.tool} ${JSON.stringify(table.params)} would fetch it again${price ? ` (${price})` : ''}`;
  return `The table ${table.name} expired at ${formatTime(table.expires)}: ${again}, and its answer names the new table.`;
}

/** The most characters a refusal lists of one table's columns: a table may have hundreds. */
const COLUMNS_LISTED_CHARS = 600;

function columnsLine(tables: readonly TableEntry[]): string {
  const columns = (t: TableEntry) =>
    namesWithin(
      t.columns.map(([name]) => name),
      COLUMNS_LISTED_CHARS,
    );
  return tables.map((t) => `${t.name}'s columns: ${columns(t)}`).join('; ');
}

/** " Did you mean value?": the column closest to the unknown one (its table's name aside), if any is. */
function columnMeant(failure: Failure, tables: readonly TableEntry[]): string {
  const unknown = /^no such column: (?:[^.\s]+\.)?(\S+)/.exec(failure.message)?.[1];
  const meant =
    unknown && closestName(unknown, [...new Set(tables.flatMap((t) => t.columns.map(([c]) => c)))]);
  return meant ? ` Did you mean ${meant}?` : '';
}

/** SQLite's words, with where it placed the error when it did. */
function sqliteLine(failure: Failure, sql: string): string {
  const words = clip(failure.message, 200);
  if (failure.offset === undefined) return `SQLite: ${words}.`;
  const at = failure.offset;
  return `SQLite: ${words}, at character ${formatNumber(at + 1)} ("${clip(sql.slice(at), 30)}").`;
}

/** Other dialects' functions a model writes, and SQLite's forms of what they do. */
const FUNCTIONS = new Map([
  [
    'date_trunc',
    "date(x) for the day, strftime('%Y-%m-%d %H:00', x) for the hour, strftime('%Y-%m', x) for the month",
  ],
  ['now', "datetime('now')"],
  ['getdate', "datetime('now')"],
  ['greatest', 'max(a, b, …)'],
  ['least', 'min(a, b, …)'],
  ['datediff', 'julianday(b) - julianday(a), in days'],
  ['dateadd', "datetime(x, '+1 day') (or '-7 days', '+1 hour')"],
  ['date_add', "datetime(x, '+1 day') (or '-7 days', '+1 hour')"],
  ['to_char', 'strftime(format, x)'],
  ['to_timestamp', "datetime(x, 'unixepoch')"],
  ['unix_timestamp', 'unixepoch(x)'],
  ['len', 'length(x)'],
  ['nvl', 'coalesce(x, y)'],
  ['isnull', 'coalesce(x, y)'],
  ['stdevp', 'stddev_pop(x)'],
  ['varp', 'var_pop(x)'],
]);

/** Other dialects' syntax a model writes, found in the SQL of a syntax error, and SQLite's form. */
const FORMS: readonly (readonly [RegExp, string])[] = [
  [/::\s*[a-z]/i, 'CAST(x AS TEXT) (or REAL, INTEGER), not ::'],
  [/\bilike\b/i, 'LIKE, which ignores the case of ASCII letters, not ILIKE'],
  [/^\s*select\s+top\s+\d/i, 'LIMIT n at the end, not TOP n'],
  [/\bextract\s*\(/i, "strftime('%H', x) (%d, %m, %Y, %w too), not EXTRACT"],
  [/\binterval\s+'/i, "datetime(x, '-7 days') (or '+1 hour', 'start of month'), not INTERVAL"],
  [
    /\bwithin\s+group\b/i,
    'percentile_cont(x, 0.5) or median(x), not percentile_cont(0.5) WITHIN GROUP (ORDER BY x)',
  ],
];

/** SQLite's form of another dialect's function or syntax the query used, when it did: " In SQLite: …." */
function inSqlite(failure: Failure, sql: string): string {
  const unknown = /^no such function: (\w+)/.exec(failure.message)?.[1]?.toLowerCase();
  const form =
    unknown !== undefined
      ? FUNCTIONS.get(unknown)
      : failure.code === 'syntax'
        ? FORMS.find(([pattern]) => pattern.test(sql))?.[1]
        : undefined;
  return form === undefined ? '' : ` In SQLite: ${form}.`;
}

export async function queryRefusal(failure: Failure, sql: string, context: ToolContext): Promise<string> {
  const live = failure.tables.filter((t) => t.expires > failure.now);
  switch (failure.code) {
    case 'no table': {
      const name = /no such table: (?:\w+\.)?(\S+)/.exec(failure.message)?.[1]?.toLowerCase() ?? '';
      const expired = failure.tables.find((t) => t.name === name && t.expires <= failure.now);
      if (expired) return expiredLine(expired, context);
      // One edit at most: names differ by their random ends, which a looser match would pair by chance.
      const meant = closestName(
        name,
        live.map((t) => t.name),
        1,
      );
      return `No table ${clip(name, 40)}${meant ? `: did you mean ${meant}?` : '.'} ${tablesLine(live)}`;
    }
    case 'no column': {
      // The tables the query names; naming none, the one table there is, else which there are.
      const tables = named(sql, live);
      const which = tables.length > 0 ? tables : live.length === 1 ? live : [];
      if (which.length === 0) return `${sqliteLine(failure, sql)} ${tablesLine(live)}`;
      return `${sqliteLine(failure, sql)}${columnMeant(failure, which)} ${columnsLine(which)}.`;
    }
    case 'syntax':
      return `${sqliteLine(failure, sql)}${inSqlite(failure, sql)} Send one SELECT in SQLite's dialect.`;
    case 'denied': {
      // A schema change is named by the statement's own first words (DROP TABLE, CREATE INDEX),
      // a statement that is no query by its first word (REINDEX).
      const what =
        failure.denied === 'SCHEMA'
          ? (
              /^\s*(\w+(?:\s+(?:TEMP|TEMPORARY))?(?:\s+\w+)?)/i.exec(sql)?.[1] ?? 'a schema change'
            ).toUpperCase()
          : failure.denied === 'STATEMENT'
            ? (/^\s*(\w+)/.exec(sql)?.[1] ?? 'that statement').toUpperCase()
            : (failure.denied ?? 'that');
      return `Only a SELECT (or WITH … SELECT) over your kept tables runs here: ${clip(what, 40)} is not allowed.`;
    }
    case 'statements':
      return failure.message === 'no statement'
        ? 'The SQL holds no statement: send one SELECT.'
        : 'One statement a query: send one SELECT, with nothing after its ";".';
    case 'timeout':
      return `The query was stopped at its time bound (SVC_QUERY_TIMEOUT_MS): narrow it (WHERE, LIMIT), and give a recursion an end.`;
    case 'memory':
      return 'The query needed more memory than the query engine has (SVC_QUERY_MEMORY_MB): narrow it, or aggregate (GROUP BY) instead of sorting every row.';
    case 'too big':
      return 'A value of the query would be over 16 MB: build smaller values.';
    case 'busy':
      return `The query engine is busy (${failure.message}).`;
    case 'failed':
      return `The query engine failed (${failure.message}); try again.`;
    default:
      return `${sqliteLine(failure, sql)}${inSqlite(failure, sql)}`;
  }
}
