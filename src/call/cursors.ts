/**
 * The cursors `next` gives: `<result id>.<row>`, a page of a kept result, served free to the owner
 * it was kept for and the tool that kept it. A cursor sent alone stands for the call `next` gave.
 */
import { z } from 'zod';
import type { StoredResult } from '../cache/result-format.js';
import { KEEP_MIN_MS } from '../cache/results.js';
import { formatWhole } from '../format/numbers.js';
import { type ParamsResult, validateParams } from '../kit/arguments.js';
import { canonicalParams } from '../kit/canonical.js';
import type { Tool } from '../kit/define.js';
import { CURSOR, cursorParam } from '../kit/pages.js';
import { formatParam } from '../kit/params.js';
import type { Services } from '../services/index.js';

/** A stored result's page a cursor names, when the result is still kept and the arguments are its page's. */
export interface StoredPage {
  id: string;
  from: number;
  result: StoredResult;
}

/** Why a cursor names no page that can be served, in words that follow "cannot be served: ". */
export interface Unservable {
  unservable: string;
}

const GONE = {
  unservable: `its kept result is gone (results are kept for their endpoint's refresh time, at least ${KEEP_MIN_MS / 60_000} minutes) or was never this key's`,
};

/**
 * The stored page `cursor` names for this call: the result must be kept, be this account's and
 * this tool's (else, to the caller, it is gone: another account's is never said to exist), the row
 * must be in it, and the arguments must be those `next` gave with the cursor (or none but it).
 */
export async function storedPage(
  services: Services,
  tool: Tool,
  call: { params: Record<string, unknown>; cursor: string; owner: string; onlyCursor: boolean },
): Promise<StoredPage | Unservable> {
  const [, id, row] = CURSOR.exec(call.cursor) ?? [];
  const pages = tool.pages;
  if (id === undefined || pages === undefined) return GONE;
  const result = await services.results.get(id, call.owner).catch(() => undefined);
  if (!result || result.tool !== tool.name) return GONE;
  const from = Number(row);
  const total = pages.count(result.data);
  if (from < 1) {
    return { unservable: 'row 1 begins the first page, which the call itself answers and no cursor names' };
  }
  if (from >= total) {
    return {
      unservable: `row ${formatWhole(from + 1)} is past the kept result's ${formatWhole(total)} rows`,
    };
  }
  const expected = canonicalParams(pages.restFrom(result.params, result.data, from));
  if (!call.onlyCursor && canonicalParams(call.params) !== expected) {
    return { unservable: `the arguments sent with it are not those its next gave: send next as it is` };
  }
  return { id, from, result };
}

/** Whether a call's arguments are a cursor alone: the cursor, with the format or with nothing else. */
export function isCursorAlone(args: Record<string, unknown>): boolean {
  return typeof args.cursor === 'string' && Object.keys(args).every((k) => k === 'cursor' || k === 'format');
}

/** What a cursor sent alone to a paged tool is checked by first: a cursor, and a format. */
const CURSOR_ALONE = z.object({ cursor: cursorParam, format: formatParam });

/**
 * A call's arguments checked before anything is opened or read: in full, or a cursor sent alone to
 * a paged tool as a cursor (the arguments of its page come from its kept result: cursorArguments,
 * which then has them checked in full).
 */
export function firstCheck(tool: Tool, args: Record<string, unknown>): ParamsResult<Record<string, unknown>> {
  const alone = tool.pages !== undefined && isCursorAlone(args);
  return validateParams(alone ? CURSOR_ALONE : tool.toolInput, args);
}

/**
 * The arguments a call is checked with. A cursor sent alone stands for the call `next` gave: the
 * arguments of the page it names are filled in from its kept result (so a tool's required
 * arguments need not be sent again), and that page comes with them; its format is the one sent.
 * Any other call's arguments are as sent. A cursor alone whose page cannot be served: why. The
 * arguments have passed firstCheck.
 */
export async function cursorArguments(
  services: Services,
  tool: Tool,
  args: Record<string, unknown>,
  owner: string,
): Promise<{ args: Record<string, unknown>; found?: StoredPage } | Unservable> {
  if (tool.pages === undefined || !isCursorAlone(args)) return { args };
  const { cursor, format } = args as { cursor: string; format?: unknown };
  const found = await storedPage(services, tool, { params: {}, cursor, owner, onlyCursor: true });
  if ('unservable' in found) return found;
  const params = tool.pages.restFrom(found.result.params, found.result.data, found.from);
  return { args: { ...params, cursor, ...(format === undefined ? {} : { format }) }, found };
}
