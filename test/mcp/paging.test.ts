/**
 * Capping and paging: a history asked for more points than 1 MiB carries is asked of the service
 * only as far as the answer carries, charged for that, and continued through the answer's `next`
 * arguments. Paged to its end, the pages hold every point the whole request would have (none
 * twice, none skipped), the service is asked once a page, and what it charged is the sum of the
 * pages' charges.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_HEADER } from '../../src/catalog/define.js';
import { type McpSession, startMcp, textOf } from '../helpers/cli.js';
import { SANDBOX_NOW, type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const KEY = 'sandbox-enterprise';
const HISTORY_PATH = '/v1/global-metrics/quotes/historical';
const CONVERT = 'USD,EUR,BTC,ETH';

let sandbox: Sandbox;
let mcp: McpSession;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  // The server's clock is the sandbox's, so that "now" is the same instant on both sides.
  mcp = await startMcp(sandboxEnv(sandbox, KEY, { SVC_NOW: SANDBOX_NOW, SVC_CACHE: 'off' }));
});

afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

/** GET on the sandbox itself, as the service answers it (no cap). */
async function upstream(path: string, query: Record<string, string> = {}): Promise<{ data: unknown }> {
  const url = `${sandbox.url}${path}?${new URLSearchParams(query)}`;
  const response = await fetch(url, { headers: { [DEFAULT_KEY_HEADER]: KEY } });
  expect(response.status, url).toBe(200);
  return (await response.json()) as { data: unknown };
}

async function creditsUsed(): Promise<number> {
  const body = (await upstream('/v1/key/info')) as {
    data: { usage: { current_month: { credits_used: number } } };
  };
  return body.data.usage.current_month.credits_used;
}

interface HistoryPage {
  quotes: { timestamp: string }[];
  next?: Record<string, unknown>;
  truncated?: string;
}

/** Every page from `args` on, following `next`, with each page's charge. */
async function pageThrough(args: Record<string, unknown>) {
  const pages: { data: HistoryPage; credits: number }[] = [];
  let next: Record<string, unknown> | undefined = args;
  while (next !== undefined) {
    expect(pages.length, 'pages').toBeLessThan(60);
    const result = (await mcp.call('get_global_metrics_historical', next)) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as unknown as HistoryPage;
    pages.push({ data, credits: Number(result._meta?.credits) });
    next = data.next;
  }
  return pages;
}

const timestamps = (quotes: { timestamp: string }[]) => quotes.map((q) => q.timestamp);

const DIRECTIONS: { label: string; args: Record<string, string> }[] = [
  { label: 'counted back from now', args: {} },
  { label: 'forward from time_start', args: { time_start: '2026-10-01T00:00:00Z' } },
];

describe.each(DIRECTIONS)('paging 10,000 points at 5m in four currencies, $label', ({ args }) => {
  it('reaches the end with every point once, one request and one charge a page', async () => {
    const asked = { count: 10_000, interval: '5m', convert: CONVERT, ...args };
    const whole = (await upstream(HISTORY_PATH, {
      ...args,
      interval: '5m',
      convert: CONVERT,
      count: '10000',
      time_end: SANDBOX_NOW,
    })) as { data: { quotes: { timestamp: string }[] } };
    const requestsBefore = sandbox.stats.byPath.get(HISTORY_PATH) ?? 0;
    const creditsBefore = await creditsUsed();

    const pages = await pageThrough(asked);

    // Capped before asking: each page holds a few hundred points, and says so.
    expect(pages.length).toBeGreaterThan(20);
    for (const { data } of pages.slice(0, -1)) {
      expect(data.quotes.length).toBeGreaterThan(250);
      expect(data.truncated).toMatch(/^Capped to count=\d+ of [\d,]+ to stay under 1 MiB/);
    }
    expect(pages.at(-1)?.data.next).toBeUndefined();
    // Pages go forward from time_start, or back from now: either way, together, the whole series.
    const ordered = 'time_start' in args ? pages : [...pages].reverse();
    const paged = ordered.flatMap((p) => timestamps(p.data.quotes));
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(timestamps(whole.data.quotes));

    // One request a page, each charged for its own points, and nothing else charged.
    expect((sandbox.stats.byPath.get(HISTORY_PATH) ?? 0) - requestsBefore).toBe(pages.length);
    for (const { data, credits } of pages)
      expect(credits).toBe(Math.max(1, Math.ceil(data.quotes.length / 100)));
    const charged = pages.reduce((sum, p) => sum + p.credits, 0);
    expect((await creditsUsed()) - creditsBefore).toBe(charged);
  });
});

it('a listing asked for more rows than 1 MiB carries is capped, with the next start', async () => {
  const convert = 'USD,EUR,GBP,JPY,BTC,ETH,CHF,CAD,AUD,CNY,INR,BRL,KRW,MXN,SGD';
  const requestsBefore = sandbox.stats.byPath.get('/v3/cryptocurrency/listings/latest') ?? 0;
  const result = (await mcp.call('get_cryptocurrency_listings_latest', {
    limit: 5000,
    convert,
  })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  const data = result.structuredContent as { items: unknown[]; next: Record<string, unknown> };
  const kept = data.items.length;
  expect(kept).toBeLessThan(231);
  expect(data.next).toMatchObject({ start: 1 + kept, limit: 5000 - kept, convert });
  expect((sandbox.stats.byPath.get('/v3/cryptocurrency/listings/latest') ?? 0) - requestsBefore).toBe(1);
  // Charged for the rows asked for: 1 per 200 plus 14 extra currencies, not 25 + 14.
  expect(result._meta?.credits).toBe(1 + 14);
});
