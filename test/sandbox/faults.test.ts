/** Faults on demand: each kind, counts, path matching, the flag syntax, and none by default. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../src/sandbox/server.js';
import { type Client, openSandbox } from './helpers.js';

const FG = '/v3/fear-and-greed/latest';
const LISTINGS = '/v3/cryptocurrency/listings/latest?limit=20';

let c: Client;
beforeAll(async () => {
  c = await openSandbox({ rateLimit: false });
});
afterEach(() => c.sandbox.faults.clear());
afterAll(() => c.sandbox.close());

describe('fault kinds', () => {
  it('500 for the next `count` requests to the path, then normal answers', async () => {
    c.sandbox.faults.add({ path: FG, kind: '500', count: 2 });
    const statuses = [];
    for (let k = 0; k < 3; k++) statuses.push(await c.get(FG));
    expect(statuses.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(statuses[0]!.body.status).toMatchObject({ error_code: 500, credit_count: 0 });
  });

  it('applies to its path only', async () => {
    c.sandbox.faults.add({ path: FG, kind: '500' });
    expect((await c.get(LISTINGS)).status).toBe(200);
    expect((await c.get(FG)).status).toBe(500);
  });

  it('429 with a Retry-After header', async () => {
    c.sandbox.faults.add({ path: FG, kind: '429', retryAfter: 7 });
    const r = await c.get(FG);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body.status.error_code).toBe(1008);
  });

  it('delay answers normally after the given time', async () => {
    c.sandbox.faults.add({ path: FG, kind: 'delay', ms: 300 });
    const started = performance.now();
    const r = await c.get(FG);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect(r.status).toBe(200);
    expect(r.body.data.value_classification).toBeDefined();
  });

  it('truncate answers 200 with the body cut in the middle', async () => {
    const whole = await c.get(LISTINGS);
    c.sandbox.faults.add({ path: '/v3/cryptocurrency/listings/latest', kind: 'truncate' });
    const cut = await c.get(LISTINGS);
    expect(cut.status).toBe(200);
    expect(cut.body).toBeUndefined();
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(cut.text.length).toBeGreaterThan(whole.text.length / 2 - 4);
    expect(cut.text.length).toBeLessThan(whole.text.length);
    expect(whole.text.startsWith(cut.text)).toBe(true);
  });

  it('reset destroys the connection without an answer', async () => {
    c.sandbox.faults.add({ path: FG, kind: 'reset' });
    await expect(
      fetch(`${c.sandbox.url}${FG}`, { headers: { 'X-SVC_PRO_API_KEY': 'sandbox-basic' } }),
    ).rejects.toThrow();
    expect((await c.get(FG)).status).toBe(200);
  });

  it('a rule without a path applies to any path; clear removes rules', async () => {
    c.sandbox.faults.add({ kind: '500', count: 5 });
    expect((await c.get(LISTINGS)).status).toBe(500);
    c.sandbox.faults.clear();
    expect((await c.get(LISTINGS)).status).toBe(200);
  });

  it('faulted requests count as requests that reached the server', async () => {
    const before = c.sandbox.stats.byPath.get(FG) ?? 0;
    c.sandbox.faults.add({ path: FG, kind: '500' });
    await c.get(FG);
    expect(c.sandbox.stats.byPath.get(FG)).toBe(before + 1);
  });
});

describe('faults from options', () => {
  it('are in force from the start; without them there are none', async () => {
    const faulty = await openSandbox({ faults: [parseFaultSpec(`path=${FG},kind=500,count=1`)] });
    const plain = await openSandbox();
    try {
      expect((await faulty.get(FG)).status).toBe(500);
      expect((await faulty.get(FG)).status).toBe(200);
      for (let k = 0; k < 5; k++) expect((await plain.get(FG)).status).toBe(200);
    } finally {
      await faulty.sandbox.close();
      await plain.sandbox.close();
    }
  });
});

describe('parseFaultSpec', () => {
  it('reads the flag syntax', () => {
    expect(parseFaultSpec('path=/v3/fear-and-greed/latest,kind=500,count=2')).toEqual({
      path: '/v3/fear-and-greed/latest',
      kind: '500',
      count: 2,
    });
    expect(parseFaultSpec('kind=429,retryAfter=3')).toEqual({ kind: '429', retryAfter: 3 });
    expect(parseFaultSpec('kind=delay,ms=250,path=/x')).toEqual({ kind: 'delay', ms: 250, path: '/x' });
    expect(parseFaultSpec('kind=truncate')).toEqual({ kind: 'truncate' });
    expect(parseFaultSpec('kind=reset,count=3')).toEqual({ kind: 'reset', count: 3 });
  });

  it('refuses what it cannot read, saying why', () => {
    expect(() => parseFaultSpec('kind=boom')).toThrow(/kind must be one of 500, 429, delay, truncate, reset/);
    expect(() => parseFaultSpec('path=/x')).toThrow(/kind must be one of/);
    expect(() => parseFaultSpec('kind=500,count=0')).toThrow(/count must be a whole number of at least 1/);
    expect(() => parseFaultSpec('kind=500,colour=red')).toThrow(/unknown key "colour"/);
    expect(() => parseFaultSpec('kind=500,path=x')).toThrow(/path must start with \//);
    expect(() => parseFaultSpec('500')).toThrow(/key=value/);
  });
});
