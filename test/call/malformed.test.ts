/**
 * What a caller sends that is malformed or hostile is answered in one line that names what was
 * wrong and what is allowed: tools/call params that are not an object of arguments, and names and
 * queries with control characters, echoed only as the project's clip prints them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services/index.js';
import { textOf } from '../helpers/cli.js';
import { openInProcess, openRaw, type RawExchange, servicesFor } from '../helpers/in-process.js';

const CONTROL = /[\p{Cc}\p{Cf}]/u;

let services: Services;
let raw: RawExchange;
beforeAll(async () => {
  services = await servicesFor();
  raw = await openRaw(services);
});
afterAll(async () => {
  await raw?.close();
  await services?.close();
});

/** The one text of a tools/call answer, which must be a tool error. */
async function refusal(params: unknown): Promise<string> {
  const answer = (await raw.send({ method: 'tools/call', params })) as {
    result?: { isError?: boolean; content: { text: string }[]; _meta?: object };
    error?: unknown;
  };
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  expect(answer.result?.isError).toBe(true);
  expect(answer.result?._meta).toEqual({ credits: 0 });
  const text = answer.result?.content.map((c) => c.text).join('\n') ?? '';
  expect(text.split('\n')).toHaveLength(1);
  expect(text).not.toMatch(CONTROL);
  return text;
}

describe('malformed tools/call params', () => {
  it.each([
    [
      'arguments null',
      { name: 'get_fear_and_greed_latest', arguments: null },
      /"arguments" must be an object .* got null/,
    ],
    ['arguments an array', { name: 'get_fear_and_greed_latest', arguments: [1] }, /got an array/],
    ['arguments a string', { name: 'get_fear_and_greed_latest', arguments: 'limit=5' }, /got a string/],
    ['no name', { arguments: {} }, /needs "name"/],
    ['a name that is not a string', { name: 42 }, /needs "name"/],
  ])('%s: one line saying what is allowed', async (_, params, expected) => {
    expect(await refusal(params)).toMatch(expected);
  });
});

describe('control characters', () => {
  it('a tool name is echoed printable and short', async () => {
    const text = await refusal({ name: 'get_x\r\n\u0000\u202e', arguments: {} });
    expect(text).toMatch(/^Unknown tool "get_x\?\?\?\?"/);
  });

  it('a search query with control characters is refused naming the parameter, nothing echoed raw', async () => {
    const session = await openInProcess();
    try {
      const result = await session.call('search_cryptocurrencies', { query: 'bit\u0000\u202ecoin\r\n' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Invalid value for "query": .*control/);
      expect(textOf(result)).not.toMatch(CONTROL);
      const found = await session.call('search_cryptocurrencies', { query: 'zzz-no-such-asset' });
      expect(textOf(found)).toMatch(/^No cryptocurrency matches "zzz-no-such-asset"/);
    } finally {
      await session.close();
    }
  });
});
