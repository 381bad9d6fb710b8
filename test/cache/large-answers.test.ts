/**
 * An answer past the cache's 2 MB bound, asked again within its endpoint's refresh, through a real
 * MCP client on the sandbox: the cache notes where its kept result is, and the same call is
 * answered from there, free, with nothing sent (estimate_cost says so first), the same data and
 * the same table; on Redis, through another replica too; another person of the account is
 * answered from it as well, and keeps it as a table of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditUsage, newStateDir, textOf } from '../helpers/cli.js';
import { startHttpServer, startMcp } from '../helpers/in-process.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { redisMissing, sharedRedis } from '../helpers/redis.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpServer, type Session } from '../helpers/session.js';

const PATH = '/v1/global-metrics/quotes/historical';
/** 5,000 points in two currencies: some 3 MB from the service, past the cache's 2 MB. */
const HISTORY = { count: 5000, interval: '5m', convert: 'USD,EUR' };
const RESOURCE = 'https://mcp.team.test/mcp';

type Page = { quotes: unknown[]; next?: Record<string, unknown>; kept?: { table: string } };

let sandbox: Sandbox;
const sessions: Session[] = [];
const requests = () => sandbox.stats.byPath.get(PATH) ?? 0;
const call = (session: Session) =>
  session.call('get_global_metrics_historical', { ...HISTORY, format: 'json' });

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sandbox?.close();
});

describe('asked again within its refresh', () => {
  it('is answered from its kept result: free, nothing sent, the same data and table, its pages served', async () => {
    const mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_STATE_DIR: newStateDir() }));
    sessions.push(mcp);
    const before = requests();
    const first = await call(mcp);
    expect(first.isError, textOf(first)).toBeFalsy();
    const paid = Number(first._meta?.credits);
    expect(paid).toBeGreaterThan(0);
    expect(requests() - before).toBe(1);

    const planned = await mcp.call('estimate_cost', {
      calls: [{ tool: 'get_global_metrics_historical', arguments: HISTORY }],
    });
    expect(planned.structuredContent).toMatchObject({ total: 0 });
    const again = await call(mcp);
    expect(again._meta).toMatchObject({ credits: 0, cached: true });
    expect(requests() - before).toBe(1);
    expect(again.structuredContent).toEqual(first.structuredContent);
    const next = await mcp.call('get_global_metrics_historical', (again.structuredContent as Page).next);
    expect(next.isError, textOf(next)).toBeFalsy();
    expect(next._meta).toMatchObject({ credits: 0, stored: true });
    expect(requests() - before).toBe(1);
    expect((await creditUsage(mcp)).spent).toBe(paid);
  });

  it('many at once: each answered as the first call was, free, nothing sent', async () => {
    const mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_STATE_DIR: newStateDir() }));
    sessions.push(mcp);
    const before = requests();
    const first = await call(mcp);
    const many = await Promise.all(Array.from({ length: 12 }, () => call(mcp)));
    for (const answer of many) {
      expect(answer._meta).toMatchObject({ credits: 0, cached: true });
      expect(answer.structuredContent).toEqual(first.structuredContent);
    }
    expect(requests() - before).toBe(1);
  });

  it("a script's call, made again at once by the script and by a tool, is answered from it", async () => {
    const mcp = await startMcp(heavyCallsEnv(sandbox, { SVC_STATE_DIR: newStateDir() }));
    sessions.push(mcp);
    const before = requests();
    const args = JSON.stringify(HISTORY);
    // A script's call keeps its whole without waiting for the write; it is noted for the cache too.
    const code = `const a = await tools.get_global_metrics_historical(${args});
      const b = await tools.get_global_metrics_historical(${args});
      return [a.quotes.length === b.quotes.length, a.kept.table === b.kept.table];`;
    const script = await mcp.call('run_script', { code });
    expect(script.isError, textOf(script)).toBeFalsy();
    expect(script.structuredContent).toMatchObject({ result: [true, true], calls: 2 });
    const again = await call(mcp);
    expect(again._meta).toMatchObject({ credits: 0, cached: true });
    expect(requests() - before).toBe(1);
  });
});

describe.skipIf(redisMissing())('on Redis', () => {
  it('a call through another replica is answered from the result the first kept', async () => {
    const redis = sharedRedis();
    const replica = () =>
      startMcp(
        heavyCallsEnv(sandbox, {
          SVC_REDIS_URL: redis.url,
          SVC_REDIS_PREFIX: redis.prefix,
          SVC_STATE_DIR: newStateDir(),
        }),
      );
    const [one, other] = [await replica(), await replica()];
    sessions.push(one, other);
    const before = requests();
    const first = await call(one);
    expect(first.isError, textOf(first)).toBeFalsy();
    const again = await call(other);
    expect(again._meta).toMatchObject({ credits: 0, cached: true });
    expect(requests() - before).toBe(1);
    expect(again.structuredContent).toEqual(first.structuredContent);
  });
});

describe('another person of the account', () => {
  let auth: AuthorizationServer;
  let server: HttpServer;
  beforeAll(async () => {
    auth = await startAuthorizationServer({ [RESOURCE]: 'mcp:tools' }, ['alice', 'bob']);
    server = await startHttpServer(
      heavyCallsEnv(sandbox, {
        SVC_STATE_DIR: newStateDir(),
        SVC_OAUTH_ISSUER: auth.issuer,
        SVC_OAUTH_RESOURCE: RESOURCE,
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await auth?.close();
  });

  it("is answered from it too, free, and keeps it as a table of their own: not the other's", async () => {
    const as = async (person: string) => {
      const token = await auth.token(RESOURCE, 'mcp:tools', person);
      const session = await connectHttp(server, 'v2', { authorization: `Bearer ${token}` });
      sessions.push(session);
      return session;
    };
    const [alice, bob] = [await as('alice'), await as('bob')];
    const before = requests();
    const first = await call(alice);
    expect(first.isError, textOf(first)).toBeFalsy();
    const again = await call(bob);
    expect(again._meta).toMatchObject({ credits: 0, cached: true });
    expect(requests() - before).toBe(1);
    const [aliceTable, bobTable] = [first, again].map((r) => (r.structuredContent as Page).kept?.table);
    expect(bobTable).toBeDefined();
    expect(bobTable).not.toBe(aliceTable);
    const count = await bob.call('query_data', { sql: `SELECT count(*) FROM ${bobTable}`, format: 'json' });
    expect(count.isError, textOf(count)).toBeFalsy();
    const denied = await bob.call('query_data', { sql: `SELECT count(*) FROM ${aliceTable}` });
    expect(textOf(denied)).toMatch(/^No table/);
  });
});
