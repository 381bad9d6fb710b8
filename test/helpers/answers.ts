/** Checks every successful tool answer must pass, shared by the call suites. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { firstText, textOf } from './cli.js';

/** How a text answer built from sandbox data ends: its cost line names the sandbox last. */
export const SANDBOX_NOTE = ' · sandbox data';

/** A text page's rows by default (SVC_TEXT_PAGE_CHARS), and its notes after them at most. */
const TEXT_PAGE_MOST = 20_000 + 2_000;

/**
 * Not an error, structured data present, a text page (its rows within SVC_TEXT_PAGE_CHARS, then
 * its notes) that ends with its cost line, naming the sandbox. An answer to default arguments is
 * shorter still: the callers check that.
 */
export function expectAnswer(result: CallToolResult, what: string): string {
  expect(result.isError, `${what}: ${textOf(result)}`).toBeFalsy();
  expect(result.structuredContent, what).toBeTypeOf('object');
  const text = firstText(result);
  expect(text.length, `${what}: ${text.length} chars`).toBeLessThanOrEqual(TEXT_PAGE_MOST);
  expect(text.split('\n').at(-1), what).toMatch(
    /^(from the cache, |joined an identical call, |from the kept result of the call that paid for it, )?\d+ credits? .*· sandbox data$/,
  );
  // A page cursor is random base64url, so it may spell these; it is left out of this check.
  const withoutCursors = text.replace(/"cursor":"[^"]*"/g, '"cursor":""');
  expect(withoutCursors, what).not.toMatch(/undefined|NaN|\[object Object\]/);
  expect(text, what).not.toMatch(/^\s*[{[]/); // never the upstream JSON pasted in
  return text;
}

export type Structured<T> = T & Record<string, unknown>;
export function data<T>(result: CallToolResult): Structured<T> {
  return result.structuredContent as Structured<T>;
}

/** The two items of a list the test built with two: a shorter one fails the test here, by name. */
export function pairOf<T>(items: readonly T[], what = 'items'): [T, T] {
  const [a, b] = items;
  if (a === undefined || b === undefined) throw new Error(`expected two ${what}, got ${items.length}`);
  return [a, b];
}
