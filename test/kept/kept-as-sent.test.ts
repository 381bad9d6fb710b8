/**
 * An answer past the cache's bound is kept as the service sent it, through a real MCP client: the
 * stored result is the sandbox's own body after one line about it; its later pages (normalised
 * again on the server's thread) and its table (normalised again on the query engine's) read the
 * same rows as its first answer, a page read by another server normalising it as one heavy piece
 * in its turn; and an answer that echoes the key is stored normalised, redacted, never as sent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuTurns } from '../../src/cpu-turns.js';
import { newStateDir, textOf } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startMcp } from '../helpers/in-process.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';

const PATH = '/v1/global-metrics/quotes/historical';
/** 5,000 points in two currencies: some 3 MB from the service, past the cache's 2 MB. */
const HISTORY = { count: 5000, interval: '5m', convert: 'USD,EUR' };
/** The same request as the service gets it. */
const QUERY = new URLSearchParams({ ...HISTORY, count: String(HISTORY.count) });

type Page = {
  quotes: { timestamp: string }[];
  next?: Record<string, unknown>;
  kept?: { table: string; rows: number };
};

/** The kept results in a state directory: each file's first line, parsed, and its body. */
function storedResults(stateDir: string): { header: Record<string, unknown>; body: string }[] {
  const dir = join(stateDir, 'results');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.result'))
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const end = text.indexOf('\n');
      return { header: JSON.parse(text.slice(0, end)), body: text.slice(end + 1) };
    });
}

describe('on the sandbox', () => {
  let sandbox: Sandbox;
  let mcp: Session;
  const stateDir = newStateDir();
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_STATE_DIR: stateDir }));
  });
  afterAll(async () => {
    await mcp?.close();
    await sandbox?.close();
  });

  it('is stored as sent, and its pages and its table read the rows of its first answer', async () => {
    const first = await mcp.call('get_global_metrics_historical', { ...HISTORY, format: 'json' });
    expect(first.isError, textOf(first)).toBeFalsy();
    const [stored, ...others] = storedResults(stateDir);
    expect(others).toEqual([]);
    expect(stored?.header).toMatchObject({
      tool: 'get_global_metrics_historical',
      nowMs: expect.any(Number),
    });
    const sent = await fetch(`${sandbox.url}${PATH}?${QUERY}`, {
      headers: { 'X-SVC_PRO_API_KEY': 'sandbox-enterprise' },
    });
    expect(stored?.body).toBe(await sent.text());

    let page = first.structuredContent as Page;
    const kept = page.kept;
    const walked = [...page.quotes.map((q) => q.timestamp)];
    for (let n = 0; page.next !== undefined; n++) {
      expect(n).toBeLessThan(200);
      const result = await mcp.call('get_global_metrics_historical', { ...page.next, format: 'json' });
      expect(result._meta).toMatchObject({ credits: 0, stored: true });
      page = result.structuredContent as Page;
      walked.push(...page.quotes.map((q) => q.timestamp));
    }
    expect(walked.length).toBe(kept?.rows);

    const rows: unknown[] = [];
    let next: Record<string, unknown> | undefined = {
      sql: `SELECT timestamp FROM ${kept?.table} ORDER BY rowid`,
      format: 'json',
    };
    while (next !== undefined) {
      const answer = (await mcp.call('query_data', { ...next, format: 'json' })).structuredContent as {
        rows: unknown[][];
        next?: Record<string, unknown>;
      };
      rows.push(...answer.rows.map(([timestamp]) => timestamp));
      next = answer.next;
    }
    expect(rows).toEqual(walked);
  });

  it('read by another server, it is normalised again as one heavy piece, in a turn of its own', async () => {
    const first = await mcp.call('get_global_metrics_historical', { ...HISTORY, format: 'json' });
    const { next } = first.structuredContent as Page;
    const stored = storedResults(stateDir).find((r) => r.header.tool === 'get_global_metrics_historical');
    const other = await startMcp(heavyCallsEnv(sandbox, { SVC_STATE_DIR: stateDir }));
    // What the collection once heavy work stops is told of (src/heap.ts): each heavy piece's bytes.
    const pieces: number[] = [];
    cpuTurns.afterHeavy = (bytes) => pieces.push(bytes);
    try {
      const page = await other.call('get_global_metrics_historical', { ...next, format: 'json' });
      expect(page._meta).toMatchObject({ credits: 0, stored: true });
      expect(pieces).toEqual([Buffer.byteLength(stored?.body ?? '')]);
    } finally {
      cpuTurns.afterHeavy = undefined;
      await other.close();
    }
  });
});

describe('an answer that echoes the key', () => {
  let upstream: FakeUpstream;
  let mcp: Session;
  const stateDir = newStateDir();
  beforeAll(async () => {
    const sandbox = await startTestSandbox({ rateLimit: false });
    const sent = await fetch(`${sandbox.url}${PATH}?${QUERY}`, {
      headers: { 'X-SVC_PRO_API_KEY': 'sandbox-enterprise' },
    });
    const body = (await sent.json()) as { status: Record<string, unknown> };
    await sandbox.close();
    body.status.notice = `requested with ${SECRET_KEY}`;
    upstream = await startFakeUpstream();
    upstream.reply(PATH, { body });
    mcp = await startMcp({
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: upstream.url,
      SVC_STATE_DIR: stateDir,
      SVC_MAX_CREDITS_PER_CALL: '1000',
    });
  });
  afterAll(async () => {
    await mcp?.close();
    await upstream?.close();
  });

  it('is stored normalised, without the key', async () => {
    const first = await mcp.call('get_global_metrics_historical', { ...HISTORY, format: 'json' });
    expect(first.isError, textOf(first)).toBeFalsy();
    const [stored] = storedResults(stateDir);
    expect(stored?.header.nowMs).toBeUndefined();
    expect(JSON.parse(stored?.body ?? '')).toHaveProperty('quotes');
    expect(`${JSON.stringify(stored?.header)}${stored?.body}`).not.toContain(SECRET_KEY);
  });
});
