/**
 * The cache's size check against JSON.stringify: it never calls a value longer than its JSON is, it
 * is exact where nothing needs escaping, and through a real client an answer past the cache's bound
 * is not held (once its kept result is gone it is fetched and charged again) while one within it
 * is a hit.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLongerThan } from '../../src/cache/json-size.js';
import { newStateDir } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

const VALUES: unknown[] = [
  null,
  0,
  -1.5e-7,
  9.999999999999999e14,
  1e15,
  -123456.789,
  1e21,
  2 ** 53,
  Number.NaN,
  true,
  false,
  '',
  'plain',
  'quote " and \\ and \n and \u0001',
  [],
  {},
  [1, 'two', null, undefined, [3, [4]], { five: 5 }],
  { a: 1, b: undefined, c: () => 1, d: [undefined], 'é key': { nested: [true, false, 'x'] } },
  {
    quotes: Array.from({ length: 300 }, (_, i) => ({
      timestamp: `2026-01-${i}`,
      price: i / 7,
      up: i % 2 === 0,
    })),
  },
];

describe('jsonLongerThan', () => {
  it('never calls a value longer than its JSON, for every bound around its length', () => {
    for (const value of VALUES) {
      const length = JSON.stringify(value)?.length ?? 0;
      for (const bound of [0, Math.floor(length / 2), length - 1, length, length + 1, 2 * length]) {
        if (jsonLongerThan(value, bound)) expect(length, JSON.stringify(value)).toBeGreaterThan(bound);
      }
    }
  });

  it('counts no number longer than it is written, at any magnitude', () => {
    for (let exponent = -30; exponent <= 30; exponent++) {
      for (const mantissa of [1, 1.5, 9.999999999999, 4.0625, 7]) {
        for (const value of [mantissa * 10 ** exponent, -mantissa * 10 ** exponent]) {
          expect(jsonLongerThan(value, JSON.stringify(value).length), String(value)).toBe(false);
        }
      }
    }
  });

  it('counts exactly where nothing needs escaping and no number needs writing', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ name: `row ${i}`, up: i % 2 === 0, gone: null }));
    for (const value of [{}, [], { a: [7, 'b', null], c: { d: true } }, { rows }]) {
      const length = JSON.stringify(value).length;
      expect(jsonLongerThan(value, length - 1)).toBe(true);
      expect(jsonLongerThan(value, length)).toBe(false);
    }
  });

  it('stops once past the bound', () => {
    let read = 0;
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      get value() {
        read++;
        return i;
      },
    }));
    expect(jsonLongerThan(rows, 10_000)).toBe(true);
    expect(read).toBeLessThan(2_000);
  });
});

describe('the cache bound, through a client on the sandbox', () => {
  let sandbox: Sandbox;
  let mcp: Session;
  const stateDir = newStateDir();
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    mcp = await startMcp(
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_STATE_DIR: stateDir,
        SVC_MAX_CREDITS_PER_CALL: '1000',
      }),
    );
  });
  afterAll(async () => {
    await mcp?.close();
    await sandbox?.close();
  });

  it('an answer past the bound is not held: its kept result gone, it is fetched and charged again; one within it is a hit', async () => {
    // 5,000 points in two currencies are some 3 MB of JSON: past the bound, kept, never cached:
    // the cache only notes where it is kept (test/cache/large-answers.test.ts).
    const large = { count: 5000, interval: '5m', convert: 'USD,EUR', format: 'json' };
    const first = await mcp.call('get_global_metrics_historical', large);
    expect((first.structuredContent as { kept: { rows: number } }).kept.rows).toBeGreaterThan(4_000);
    const results = join(stateDir, 'results');
    for (const name of readdirSync(results)) if (name.endsWith('.result')) rmSync(join(results, name));
    const again = await mcp.call('get_global_metrics_historical', large);
    expect(again._meta).toMatchObject({
      cached: false,
      credits: (first._meta as { credits: number }).credits,
    });
    expect((again._meta as { credits: number }).credits).toBeGreaterThan(0);
    const small = { limit: 10, format: 'json' };
    await mcp.call('get_cryptocurrency_listings_latest', small);
    expect((await mcp.call('get_cryptocurrency_listings_latest', small))._meta).toMatchObject({
      cached: true,
      credits: 0,
    });
  });
});
