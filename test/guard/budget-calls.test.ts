/**
 * The context bill: what the tool list and the answers cost a model. The default tool list stays
 * within 600 bytes a tool on average, and 18 KB in all, for what the model reads (name, title,
 * description, input schema), no tool over 1,200; the whole tools/list within 30 KB (output
 * schemas, annotations and views included); no definition over 3 KB in any toolset
 * (docs/decisions/009); default answers within 4,000 characters of text and 16 KB of structured
 * data; no answer over 1 MiB on the wire, whatever its arguments and SVC_MAX_ANSWER_CHARS.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, formatPrice } from '../../src/format/numbers.js';
import { table } from '../../src/format/text.js';
import { firstText } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import type { Session } from '../helpers/session.js';
import { defaultArgs } from '../helpers/tool-names.js';

const READ_BUDGET = 600;
const READ_TOTAL = 18 * 1024;
const TOOL_READ_MOST = 1200;
const LIST_BUDGET = 30 * 1024;
const DEFINITION_BUDGET = 3 * 1024;
const TEXT_BUDGET = 4000;
const DATA_BUDGET = 16 * 1024;
const WIRE_LIMIT = 1024 * 1024;

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/** A definition as it can reach a model: `_meta` (the MCP Apps view to render) is for the host. */
const definitionBytes = ({ _meta: _, ...tool }: Tool) => bytes(tool);

/** What the model reads of a tool. */
const readBytes = (t: Tool) =>
  bytes({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema });

/** Bytes a tool, on average: what the model reads, and the whole definition. */
function perTool(tools: Tool[]): { read: number; all: number } {
  const read = tools.reduce((n, t) => n + readBytes(t), 0);
  const all = tools.reduce((n, t) => n + definitionBytes(t), 0);
  return { read: Math.round(read / tools.length), all: Math.round(all / tools.length) };
}

let mcp: Session;
beforeAll(async () => {
  mcp = await startMcp();
});
afterAll(() => mcp?.close());

describe('the tool list', () => {
  it(`default: at most ${READ_BUDGET} bytes a tool read by the model (${READ_TOTAL} in all, ${TOOL_READ_MOST} a tool), the list ${LIST_BUDGET}`, () => {
    const { read, all } = perTool(mcp.tools);
    const total = mcp.tools.reduce((n, t) => n + readBytes(t), 0);
    const list = bytes({ tools: mcp.tools });
    console.log(
      `tools/list default: ${mcp.tools.length} tools, ${read} bytes a tool read (${total} in all), ${all} a whole definition, ${list} the list`,
    );
    expect(read).toBeLessThanOrEqual(READ_BUDGET);
    expect(total).toBeLessThanOrEqual(READ_TOTAL);
    for (const tool of mcp.tools) expect(readBytes(tool), tool.name).toBeLessThanOrEqual(TOOL_READ_MOST);
    expect(list).toBeLessThanOrEqual(LIST_BUDGET);
  });

  it('all: every tool listed, the figures printed', async () => {
    const everything = await startMcp({ SVC_TOOLSETS: 'all' });
    try {
      const { read, all } = perTool(everything.tools);
      console.log(
        `tools/list all: ${everything.tools.length} tools, ${read} bytes a tool read, ${all} in all`,
      );
      expect(everything.tools.length).toBeGreaterThan(mcp.tools.length);
      // Every tool alone stays readable: no definition over 3 KB.
      for (const tool of everything.tools)
        expect(definitionBytes(tool), tool.name).toBeLessThan(DEFINITION_BUDGET);
    } finally {
      await everything.close();
    }
  });
});

describe('answers', () => {
  it(`every default tool with default arguments: text under ${TEXT_BUDGET} characters, data under 16 KB`, async () => {
    let largest = { tool: '', text: 0, data: 0 };
    for (const tool of mcp.tools) {
      const result = await mcp.call(tool.name, defaultArgs(tool.name));
      expect(result.isError, `${tool.name}: ${firstText(result)}`).toBeFalsy();
      const text = firstText(result).length;
      const data = bytes(result.structuredContent);
      expect(text, tool.name).toBeLessThan(TEXT_BUDGET);
      expect(data, tool.name).toBeLessThan(DATA_BUDGET);
      if (data > largest.data) largest = { tool: tool.name, text, data };
    }
    console.log(
      `largest default answer: ${largest.tool}, ${largest.data} bytes of data, ${largest.text} of text`,
    );
  });

  it('text shows no empty columns, and money with cents from $1 up', async () => {
    // The svc100 has no constituent prices: no Price column of n/a.
    const svc100 = firstText(await mcp.call('get_svc100_index_latest'));
    expect(svc100).toMatch(/^Asset \| Weight$/m);
    expect(svc100).not.toContain('n/a');
    const quotes = firstText(await mcp.call('get_cryptocurrency_quotes_latest', { id: '1,1027' }));
    const prices = [...quotes.matchAll(/\| (\$[\d,.]+) \|/g)].map((m) => m[1]);
    expect(prices).toHaveLength(2);
    for (const price of prices) expect(price).toMatch(/^\$[\d,]+\.\d\d$/);
    expect([formatPrice(3733.5), formatPrice(412), formatPrice(0.07088), formatMoney(1.93e12)]).toEqual([
      '$3,733.50',
      '$412.00',
      '$0.07088',
      '$1.93T',
    ]);
    expect(
      table(
        ['A', 'Price'],
        [
          ['x', 'n/a'],
          ['y', 'n/a'],
        ],
      ),
    ).toBe('A\nx\ny');
    expect(quotes).toMatch(/\$\d{1,3}(,\d{3})+\.\d\d/);
  });

  it('at the largest answers a host may be given (SVC_MAX_ANSWER_CHARS), no result passes 1 MiB on the wire: a page, saying which rows it holds and how to fetch the rest', async () => {
    const big = await startMcp({ SVC_MAX_CREDITS_PER_CALL: '1000', SVC_MAX_ANSWER_CHARS: '400000' });
    try {
      const args = { count: 10_000, interval: '5m', convert: 'USD,EUR,GBP,JPY' };
      for (const format of ['text', 'json'] as const) {
        const result = await big.call('get_global_metrics_historical', { ...args, format });
        expect(result.isError, firstText(result)).toBeFalsy();
        expect(bytes({ jsonrpc: '2.0', id: 1, result })).toBeLessThan(WIRE_LIMIT);
        const data = result.structuredContent as { quotes: unknown[]; truncated?: string; next?: object };
        expect(data.quotes.length).toBeGreaterThan(100);
        expect(data.quotes.length).toBeLessThan(10_000);
        expect(data.truncated).toMatch(
          new RegExp(`^Rows 1–${data.quotes.length} of [\\d,]+; next is the following page, free`),
        );
        expect(data.next).toMatchObject({ cursor: expect.stringMatching(/\.\d+$/) });
        expect(firstText(result)).toContain(data.truncated);
      }
      // Assets named by symbol, which the service cannot page: paged from its one answer.
      const listed = await big.call('get_cryptocurrency_listings_latest', { limit: 231, format: 'json' });
      const symbols = (listed.structuredContent as { items: { symbol: string }[] }).items.map(
        (a) => a.symbol,
      );
      const convert = 'USD,EUR,GBP,JPY,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD,BTC,ETH,SEK,NOK,DKK,PLN,CZK';
      const result = await big.call('get_cryptocurrency_quotes_latest', {
        symbol: symbols.join(','),
        convert,
        format: 'json',
      });
      expect(bytes({ jsonrpc: '2.0', id: 1, result })).toBeLessThan(WIRE_LIMIT);
      expect((result.structuredContent as { truncated?: string }).truncated).toMatch(
        /^Rows 1–[\d,]+ of 231; next is the following page, free/,
      );
      // The session survived the large answers.
      expect((await big.call('get_fear_and_greed_latest')).isError).toBeFalsy();
    } finally {
      await big.close();
    }
  });
});
