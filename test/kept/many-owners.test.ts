/**
 * Many owners querying one server's query engine, over HTTP, where each request may carry a key
 * of its own. Tried as a hostile caller would: 6,000 queries, each with a made-up key, left the
 * engine's SQLite out of memory for everyone (a database each). Now a caller with no kept table
 * opens no database, and owners' databases are bounded (the least recently used closed, its tables
 * loaded again when next read): with the engine's memory at its least (16 MB), 400 strangers and
 * 400 owners of a table each are all answered, and the first owner's table still reads whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/kit/plans.js';
import { newStateDir } from '../helpers/cli.js';
import { callToolRaw } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import type { HttpServer } from '../helpers/session.js';

const OWNERS = 400;
const KEY_HEADER = 'X-SVC_PRO_API_KEY';
const people = Array.from({ length: OWNERS }, (_, i) => `person-key-${i}`);

let sandbox: Sandbox;
let server: HttpServer;
beforeAll(async () => {
  const keys: Record<string, Plan> = Object.fromEntries(people.map((key) => [key, 'basic' as Plan]));
  sandbox = await startTestSandbox({ rateLimit: false, keys });
  server = await startHttpServer({
    SVC_API_KEY: 'sandbox-enterprise',
    SVC_BASE_URL: sandbox.url,
    SVC_STATE_DIR: newStateDir(),
    SVC_QUERY_MEMORY_MB: '16',
  });
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

/** One tool call with `key`: its result. */
const callAs = (key: string, name: string, args: Record<string, unknown>) =>
  callToolRaw(server.url, name, args, { [KEY_HEADER]: key });

/** `work` for each of `items`, eight at a time. */
async function eightAtOnce<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let at = 0; at < items.length; at += 8)
    out.push(...(await Promise.all(items.slice(at, at + 8).map(work))));
  return out;
}

const count = (key: string, table: string) =>
  callAs(key, 'query_data', { sql: `SELECT count(*) FROM ${table}`, format: 'json' });

describe('the query engine, queried by many owners', () => {
  it('answers strangers with made-up keys, and each of 400 owners of a table, all of them', async () => {
    const strangers = Array.from({ length: OWNERS }, (_, i) => `made-up-key-${i}`);
    const asked = await eightAtOnce(strangers, (key) =>
      callAs(key, 'query_data', { sql: 'SELECT 1 AS one' }),
    );
    for (const result of asked) expect(result.isError, result.content[0]?.text).toBeFalsy();

    const tables = await eightAtOnce(people, async (key) => {
      const listed = await callAs(key, 'get_cryptocurrency_listings_latest', { limit: 2, format: 'json' });
      expect(listed.isError, listed.content[0]?.text).toBeFalsy();
      return (listed.structuredContent as { kept: { table: string } }).kept.table;
    });
    const counted = await eightAtOnce(people, (key) => count(key, tables[people.indexOf(key)] ?? ''));
    for (const result of counted) {
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(result.structuredContent?.rows).toEqual([[2]]);
    }
    // The first owner's database was closed long ago: its table loads again, whole.
    expect((await count(people[0] ?? '', tables[0] ?? '')).structuredContent?.rows).toEqual([[2]]);
  });
});
