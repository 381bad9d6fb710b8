/**
 * A budget per person on one key (SVC_USER_CREDIT_BUDGET): two people signed in through a real
 * authorization server, each with a budget of 5 inside the team's 8, calling two `svc-mcp http`
 * replicas that share one Redis. 200 concurrent calls never take a person past 5 or the team past
 * 8, and what the sandbox received matches what was charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/in-process.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { freePort } from '../helpers/ports.js';
import { redisMissing, type SharedRedis, sharedRedis } from '../helpers/redis.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpServer, type Session } from '../helpers/session.js';

const missing = redisMissing();
const PATH = '/v3/fear-and-greed/historical';
const PEOPLE = ['alice', 'bob'] as const;

describe.skipIf(missing)('a budget per person on one key, two replicas on Redis', () => {
  let redis: SharedRedis;
  let sandbox: Sandbox;
  let auth: AuthorizationServer;
  const replicas: HttpServer[] = [];
  const sessions: Record<string, Session[]> = {};
  /** A person's session on replica `i`, which beforeAll opened. */
  const sessionOf = (person: string, i: number): Session => {
    const session = sessions[person]?.[i];
    if (!session) throw new Error(`no session of ${person} on replica ${i}`);
    return session;
  };
  let resource: string;

  beforeAll(async () => {
    redis = sharedRedis();
    sandbox = await startTestSandbox({ rateLimit: false });
    // Both replicas answer for one resource, as behind one load balancer: the audience is the same.
    resource = 'https://mcp.team.test/mcp';
    auth = await startAuthorizationServer({ [resource]: 'mcp:tools mcp:admin' }, [...PEOPLE, 'carol']);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      replicas.push(
        await startHttpServer(
          sandboxEnv(sandbox, 'sandbox-enterprise', {
            SVC_REDIS_URL: redis.url,
            SVC_REDIS_PREFIX: redis.prefix,
            SVC_OAUTH_ISSUER: auth.issuer,
            SVC_OAUTH_RESOURCE: resource,
            SVC_CREDIT_BUDGET: '8',
            SVC_USER_CREDIT_BUDGET: '5',
            SVC_CACHE: 'off',
          }),
          { port },
        ),
      );
    }
    for (const person of PEOPLE) {
      const token = await auth.token(resource, 'mcp:tools', person);
      sessions[person] = await Promise.all(
        replicas.map((replica) => connectHttp(replica, 'v2', { authorization: `Bearer ${token}` })),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      Object.values(sessions)
        .flat()
        .map((s) => s.close()),
    );
    await Promise.all(replicas.map((r) => r.stop()));
    await Promise.all([sandbox?.close(), auth?.close()]);
  });

  /** `count` concurrent calls by `person`, spread over both replicas: the texts of the answers and refusals. */
  async function burst(person: string, count: number) {
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        sessionOf(person, i % 2).call('get_fear_and_greed_historical', { limit: 1 + (i % 50) }),
      ),
    );
    return {
      answered: results.filter((r) => !r.isError).length,
      refusals: results.filter((r) => r.isError).map(textOf),
    };
  }

  it('200 concurrent calls: no person past 5, the team not past 8, and only what was sent charged', async () => {
    const before = sandbox.stats.byPath.get(PATH) ?? 0;
    // Alice alone: her own budget stops her at 5, with the team's 8 not reached.
    const alice = await burst('alice', 100);
    expect(alice.answered).toBe(5);
    for (const text of alice.refusals)
      expect(text).toMatch(/^Refused before sending: .* of your own budget of 5/);
    // Bob: his own budget has room, the team's has 3 credits left. While his calls hold their
    // credits against his own budget, waiting on the team's, others of his burst are told so.
    const bob = await burst('bob', 100);
    expect(bob.answered).toBe(3);
    for (const text of bob.refusals) {
      expect(text).toMatch(
        /^Refused before sending: .* (of the day's budget of 8|of your own budget of 5 .*held by your calls in flight)/,
      );
    }
    expect(bob.refusals.some((text) => text.includes("of the day's budget of 8"))).toBe(true);
    // Each answered call was one request, and no refused call reached the service.
    expect((sandbox.stats.byPath.get(PATH) ?? 0) - before).toBe(8);

    const usage = await sessionOf('alice', 0).call('get_credit_usage');
    expect(usage.structuredContent).toMatchObject({
      budget: 8,
      spent: 8,
      you: { budget: 5, spent: 5, left: 0 },
    });
    expect(textOf(usage)).toContain('Yours today: 5 of your 5 spent, 0 left.');
    // The logs name each person by a hash of the token's subject: never the subject or the token.
    const logged = replicas.map((r) => r.stderr()).join('\n');
    expect(logged).toMatch(
      /"msg":"tool call".*"person":"person:[0-9a-f]{16}"|"person":"person:[0-9a-f]{16}".*"msg":"tool call"/,
    );
    expect(logged).not.toMatch(/alice|bob|Bearer/);
    const his = await sessionOf('bob', 1).call('get_credit_usage');
    expect(his.structuredContent).toMatchObject({ spent: 8, left: 0, you: { spent: 3, left: 2 } });
  }, 60_000);

  it("an admin's token sees every person's figures, from either replica", async () => {
    const token = await auth.token(resource, 'mcp:tools mcp:admin', 'carol');
    for (const replica of replicas) {
      const admin = await connectHttp(replica, 'v2', { authorization: `Bearer ${token}` });
      try {
        const usage = (await admin.call('get_credit_usage')).structuredContent as {
          people: { person: string; spent: number; left: number }[];
        };
        expect(usage.people.map((p) => [p.spent, p.left])).toEqual([
          [5, 0],
          [3, 2],
        ]);
      } finally {
        await admin.close();
      }
    }
  });
});
