/**
 * The compiled parse against zod's own: where it accepts a value, its output is zod's, key for key
 * and in the same order; where zod refuses, it gives way (so zod says why). The schemas are those
 * the endpoints read the service with (lenient readers, both quote forms) and the kinds of node they
 * are made of; then every tool's answer on the sandbox, checked against its output schema both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../src/endpoints/index.js';
import { fastParse } from '../../src/kit/fast-parse.js';
import { lenient } from '../../src/kit/lenient.js';
import { quoteEntry, quoteOf } from '../../src/kit/quotes.js';
import { newStateDir } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import type { Session } from '../helpers/session.js';
import { defaultArgs } from '../helpers/tool-names.js';

/** Both parses of `value`: the compiled one's output (undefined when it gave way) and zod's. */
function both(schema: z.ZodType, value: unknown) {
  const fast = fastParse(schema, value);
  const zod = schema.safeParse(value);
  return { fast, zod };
}

/** The compiled parse accepts `value` and gives exactly what zod gives. */
function expectSame(schema: z.ZodType, value: unknown): void {
  const { fast, zod } = both(schema, value);
  expect(zod.success, JSON.stringify(zod.error?.issues)).toBe(true);
  expect(fast, 'the compiled parse gave way').toBeDefined();
  expect(JSON.stringify(fast?.value)).toBe(JSON.stringify(zod.data));
  expect(fast?.value).toEqual(zod.data);
}

/** zod refuses `value`, and so does the compiled parse (giving way). */
function expectRefused(schema: z.ZodType, value: unknown): void {
  const { fast, zod } = both(schema, value);
  expect(zod.success).toBe(false);
  expect(fast).toBeUndefined();
}

const figures = quoteEntry(['price', 'volume_24h']);
const asset = z.object({
  id: z.number(),
  name: z.string(),
  active: z.boolean().optional(),
  max_supply: z.number().nullable().optional(),
  tags: z.array(z.string()).optional(),
  quote: z.array(figures),
  kind: z.enum(['coin', 'token']).optional(),
});
const reader = lenient(asset, { name: 'slug_name', quote: quoteOf(figures) });

describe("the compiled parse is zod's", () => {
  it('lenient readers: numbers and booleans as strings, nulls, moved fields, unknown keys, both quote forms', () => {
    expectSame(reader, {
      id: '1',
      slug_name: 'Bitcoin',
      active: 1,
      max_supply: null,
      tags: ['pow'],
      quote: { USD: { price: '98000.5', volume_24h: 12, extra: true } },
      unknown: { deep: [1] },
      kind: 'coin',
    });
    expectSame(reader, { id: 2, slug_name: 7, quote: [{ symbol: 'EUR', price: 1, volume_24h: null }] });
    // Keyed: the key is the currency, unless the figures name one; an entry that is no object is refused.
    expectSame(reader, {
      id: 3,
      slug_name: 'x',
      quote: { USD: { price: 1 }, 2781: { currency: 'EUR', price: '2', volume_24h: null } },
    });
    expectRefused(reader, { id: 3, slug_name: 'x', quote: { USD: { price: 1 }, EUR: 5 } });
    expectRefused(reader, { id: 3, slug_name: 'x', quote: { USD: { price: 'many' } } });
    expectSame(z.array(reader), []);
  });

  it('objects: optional keys absent or present as undefined, loose objects keep the rest in order', () => {
    const schema = z.object({ a: z.string(), b: z.number().optional(), c: z.unknown() });
    expectSame(schema, { a: 'x', c: 1 });
    expectSame(schema, { c: undefined, b: undefined, a: 'x', z: 1 });
    expectSame(z.looseObject({ a: z.string() }), { z: 1, a: 'x', y: [2] });
    expectSame(z.object({ a: z.string().default('d') }), {});
    expectRefused(z.strictObject({ a: z.string() }), { a: 'x', b: 1 });
    expectRefused(schema, { b: 1 });
  });

  it('unions, pipes, transforms, literals, enums, records and checks', () => {
    const loose = z.union([z.number(), z.string().regex(/^\d+$/)]).transform(Number);
    expectSame(loose, 5);
    expectSame(loose, '42');
    expectRefused(loose, '4x');
    expectSame(
      z.preprocess((v) => (v === 'none' ? undefined : v), z.string().optional()),
      'none',
    );
    expectSame(z.literal(['a', 1]), 1);
    expectSame(z.enum(['up', 'down']), 'down');
    expectSame(z.record(z.string(), z.number()), { b: 1, a: 2, 10: 3, 2: 4 });
    expectRefused(z.record(z.string(), z.number()), { a: 'x' });
    expectSame(z.record(z.string().regex(/^[a-z]$/), z.number()), { a: 1 });
    expectSame(z.number().min(0).max(100), 62);
    expectRefused(z.number().min(0).max(100), 101);
    expectRefused(z.number(), Number.NaN);
    expectRefused(z.number(), Number.POSITIVE_INFINITY);
    expectRefused(z.string(), 5);
    expectRefused(z.array(z.number()), [1, 'x']);
  });
});

describe("every tool's answer on the sandbox", () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await startMcp({ SVC_TOOLSETS: 'all', SVC_STATE_DIR: newStateDir() });
  });
  afterAll(() => mcp?.close());

  it('checked against its output schema, compiled and by zod, is the same', async () => {
    for (const endpoint of endpoints) {
      const result = await mcp.call(endpoint.name, { ...defaultArgs(endpoint.name), format: 'json' });
      expect(result.isError, endpoint.name).toBeFalsy();
      const {
        kept: _,
        truncated: __,
        next: ___,
        ...data
      } = result.structuredContent as Record<string, unknown>;
      expectSame(endpoint.output, data);
    }
  }, 60_000);
});
