/**
 * query_data: one SQLite SELECT over the caller's kept tables, free. Every answer with rows keeps
 * them as a table (its `kept.table`), so that a question over a large pull is asked in SQL rather
 * than read page by page. Nothing is sent and nothing is charged; the rows are paged like any answer.
 */
import { z } from 'zod';
import { plainSignificant } from '../format/numbers.js';
import { counted, lines, table } from '../format/text.js';
import { defineLocalTool, ToolRefusal } from '../kit/define.js';
import { computedPages } from '../kit/pages.js';
import { paramsObject } from '../kit/params.js';
import { queryRefusal } from './query-refusals.js';

/** The longest SQL taken. */
export const MAX_SQL_CHARS = 10_000;

/** A cell as the text shows it: a number to 10 significant digits, never as an exponent; null as "null". */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return plainSignificant(value, 10);
  return String(value).replaceAll('\n', ' ');
}

export const queryData = defineLocalTool({
  name: 'query_data',
  title: 'Query kept data',
  toolset: 'analysis',
  inDefault: true,
  summary:
    'SQL over what earlier answers kept: each list or history answer names its table and columns (kept). One SQLite SELECT: joins, GROUP BY, window functions, stddev.',
  input: paramsObject({
    sql: z
      .string()
      .min(1)
      .max(MAX_SQL_CHARS)
      .describe('e.g. SELECT symbol, max(quote_usd_high) FROM ohlcv_3f9k GROUP BY symbol'),
  }),
  output: z.object({
    columns: z.array(z.string()),
    rows: z.array(z.array(z.unknown())).describe("In the columns' order"),
    more: z
      .boolean()
      .describe('The query gives more rows than one query keeps (100,000, or 16 MB of values): narrow it'),
  }),
  pages: computedPages('rows'),
  async data({ sql }, context) {
    const answer = await context.query(sql);
    if (!answer.ok) {
      const busy = answer.code === 'busy' ? 'busy' : undefined;
      throw new ToolRefusal(await queryRefusal(answer, sql, context), busy);
    }
    return { columns: answer.columns, rows: answer.rows, more: answer.more };
  },
  summarise(data, _params, whole = data) {
    if (data.rows.length === 0) return `No rows. Columns: ${data.columns.join(', ')}.`;
    return lines(
      `${counted(whole.rows.length, 'row')} of ${data.columns.join(', ')}:`,
      table(
        data.columns,
        data.rows.map((row) => row.map(cellText)),
      ),
      data.more &&
        'The query gives more rows than one query keeps (100,000, or 16 MB of values); these are its first. Narrow it (WHERE, GROUP BY, LIMIT) for the figures wanted.',
    );
  },
});
