/**
 * A budget per person on one machine's ledger (SQLite on Node 22.13+, the JSON file on Node 20):
 * two people signed in through a real authorization server, each with a budget of 5 inside the
 * team's 8, calling two `svc-mcp http` processes that share one state directory. Concurrent calls
 * never take a person past 5 or the team past 8; what the sandbox received is what was charged;
 * the figures survive both processes restarting; an admin's token sees everyone's figures, and
 * /metrics gives each person's to the operator's token alone, never to a person's. Without any budget, each person's spend is recorded all the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { rawRequest } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { type AuthorizationServer, startAuthorizationServer } from '../helpers/oidc.js';
import { freePort } from '../helpers/ports.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpServer, type Session } from '../helpers/session.js';

const PATH = '/v3/fear-and-greed/historical';
const PEOPLE = ['alice', 'bob', 'carol'] as const;
type Person = (typeof PEOPLE)[number];
const RESOURCE = 'https://mcp.team.test/mcp';
const METRICS_TOKEN = 'operator-token-0123456789abcdef';

let sandbox: Sandbox;
let auth: AuthorizationServer;
const stateDir = newStateDir();
let processes: HttpServer[] = [];
const tokens = {} as Record<Person, string>;
let adminToken: string;

/** Two processes on one state directory, as two servers on one machine behind one address. */
async function startProcesses(): Promise<void> {
  processes = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    processes.push(
      await startHttpServer(
        sandboxEnv(sandbox, 'sandbox-enterprise', {
          SVC_STATE_DIR: stateDir,
          SVC_OAUTH_ISSUER: auth.issuer,
          SVC_OAUTH_RESOURCE: RESOURCE,
          SVC_METRICS_TOKEN: METRICS_TOKEN,
          SVC_CREDIT_BUDGET: '8',
          SVC_USER_CREDIT_BUDGET: '5',
          SVC_CACHE: 'off',
        }),
        { port },
      ),
    );
  }
}

async function withSession<T>(token: string, i: number, work: (session: Session) => Promise<T>): Promise<T> {
  const session = await connectHttp(processes[i % 2]!, 'v2', { authorization: `Bearer ${token}` });
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  auth = await startAuthorizationServer({ [RESOURCE]: 'mcp:tools mcp:admin' }, PEOPLE);
  for (const person of PEOPLE) tokens[person] = await auth.token(RESOURCE, 'mcp:tools', person);
  adminToken = await auth.token(RESOURCE, 'mcp:tools mcp:admin', 'carol');
  await startProcesses();
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await Promise.all([sandbox?.close(), auth?.close()]);
});

/** `count` concurrent calls by `person`, spread over both processes: how many were answered, and the refusals. */
async function burst(person: Person, count: number) {
  const sessions = await Promise.all(
    processes.map((p) => connectHttp(p, 'v2', { authorization: `Bearer ${tokens[person]}` })),
  );
  try {
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        sessions[i % 2]!.call('get_fear_and_greed_historical', { limit: 1 + (i % 50) }),
      ),
    );
    return {
      answered: results.filter((r) => !r.isError).length,
      refusals: results.filter((r) => r.isError).map(textOf),
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

const usageOf = (token: string, i = 0) =>
  withSession(token, i, async (session) => {
    const result = await session.call('get_credit_usage');
    expect(result.isError, textOf(result)).toBeFalsy();
    return { figures: result.structuredContent as Record<string, unknown>, text: textOf(result) };
  });

describe("a budget per person on one machine's ledger", () => {
  it('concurrent calls on two processes: no person past 5, the team not past 8, only what was sent charged', async () => {
    const before = sandbox.stats.byPath.get(PATH) ?? 0;
    const alice = await burst('alice', 60);
    expect(alice.answered).toBe(5);
    for (const text of alice.refusals)
      expect(text).toMatch(/^Refused before sending: .* of your own budget of 5/);
    const bob = await burst('bob', 60);
    expect(bob.answered).toBe(3);
    for (const text of bob.refusals) {
      expect(text).toMatch(
        /^Refused before sending: .* (of the day's budget of 8|of your own budget of 5 .*held by your calls in flight)/,
      );
    }
    expect((sandbox.stats.byPath.get(PATH) ?? 0) - before).toBe(8);
    const { figures, text } = await usageOf(tokens.alice, 1);
    expect(figures).toMatchObject({ budget: 8, spent: 8, left: 0, you: { budget: 5, spent: 5, left: 0 } });
    expect(text).toContain('Yours today: 5 of your 5 spent, 0 left.');
    // Only an admin sees everyone.
    expect(figures.people).toBeUndefined();
  }, 60_000);

  it("an admin's token sees every person's figures, those who spent most first", async () => {
    const { figures, text } = await usageOf(adminToken);
    const people = figures.people as { person: string; spent: number; left: number }[];
    expect(people.map((p) => [p.spent, p.left])).toEqual([
      [5, 0],
      [3, 2],
    ]);
    for (const p of people) expect(p.person).toMatch(/^person:[0-9a-f]{16}$/);
    expect(text).toMatch(/Person.*Spent.*Left/);
    // The admin's own figures: nothing spent yet.
    expect(figures.you).toMatchObject({ spent: 0, left: 5 });
  });

  it("/metrics answers a person's token (an admin's too) with no one's spend", async () => {
    for (const token of [tokens.alice, adminToken]) {
      const response = await rawRequest(`${processes[0]!.origin}/metrics`, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(403);
      expect(response.text).not.toMatch(/credits_spent/);
      expect(JSON.parse(response.text).error.message).toMatch(/operator's token \(SVC_METRICS_TOKEN\)/);
    }
    const unsigned = await rawRequest(`${processes[0]!.origin}/metrics`, { method: 'GET' });
    expect(unsigned.status).toBe(401);
  });

  it("/metrics gives the operator's token each person's window figures by the hash, never the subject", async () => {
    const response = await rawRequest(`${processes[0]!.origin}/metrics`, {
      method: 'GET',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    const spent = [
      ...response.text.matchAll(
        /^svc_mcp_person_window_credits_spent\{person="(person:[0-9a-f]{16})"\} (\S+)$/gm,
      ),
    ];
    // This process served calls of all three: alice's, bob's and the admin's.
    expect(spent.map((m) => Number(m[2])).sort((a, b) => a - b)).toEqual([0, 3, 5]);
    expect(response.text).toMatch(/^svc_mcp_person_window_credits_left\{person="person:[0-9a-f]{16}"\} 0$/m);
    expect(response.text).not.toMatch(/alice|bob|carol/);
  });

  it('the figures survive both processes restarting: a person at their budget stays there', async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await startProcesses();
    const { figures } = await usageOf(tokens.alice);
    expect(figures).toMatchObject({ spent: 8, you: { spent: 5, left: 0 } });
    const before = sandbox.stats.byPath.get(PATH) ?? 0;
    const refused = await withSession(tokens.alice, 0, (s) =>
      s.call('get_fear_and_greed_historical', { limit: 1 }),
    );
    expect(textOf(refused)).toMatch(/of your own budget of 5 are left/);
    expect(sandbox.stats.byPath.get(PATH) ?? 0).toBe(before);
  }, 60_000);
});

describe('without any budget', () => {
  it("one person's kept tables do not exist for another on the same key", async () => {
    const env = { SVC_OAUTH_ISSUER: auth.issuer, SVC_OAUTH_RESOURCE: RESOURCE, SVC_STATE_DIR: newStateDir() };
    const server = await startHttpServer(sandboxEnv(sandbox, 'sandbox-enterprise', env), {
      port: await freePort(),
    });
    const as = async (person: Person, tool: string, args: Record<string, unknown>) => {
      const session = await connectHttp(server, 'v2', { authorization: `Bearer ${tokens[person]}` });
      try {
        return await session.call(tool, args);
      } finally {
        await session.close();
      }
    };
    try {
      const kept = await as('alice', 'get_fear_and_greed_historical', { limit: 3, format: 'json' });
      const { table } = (kept.structuredContent as { kept: { table: string } }).kept;
      const own = await as('alice', 'query_data', { sql: `SELECT count(*) FROM ${table}` });
      expect(own.isError, textOf(own)).toBeFalsy();
      const theirs = await as('bob', 'query_data', { sql: `SELECT * FROM ${table}` });
      expect(theirs.isError).toBe(true);
      expect(textOf(theirs)).toMatch(/^No table \w+\. You have no kept tables/);
    } finally {
      await server.stop();
    }
  });

  it("each person's spend is still recorded, as their calls are sent", async () => {
    const port = await freePort();
    const server = await startHttpServer(
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_STATE_DIR: newStateDir(),
        SVC_OAUTH_ISSUER: auth.issuer,
        SVC_OAUTH_RESOURCE: RESOURCE,
        SVC_CACHE: 'off',
      }),
      { port },
    );
    try {
      const callsBy = async (person: Person, count: number) => {
        const session = await connectHttp(server, 'v2', { authorization: `Bearer ${tokens[person]}` });
        try {
          for (let i = 0; i < count; i++) {
            const result = await session.call('get_fear_and_greed_latest');
            expect(result.isError, textOf(result)).toBeFalsy();
          }
          return (await session.call('get_credit_usage')).structuredContent;
        } finally {
          await session.close();
        }
      };
      await callsBy('alice', 3);
      expect(await callsBy('bob', 2)).toMatchObject({
        budget: null,
        spent: 5,
        reserved: 0,
        you: { budget: null, spent: 2, reserved: 0, left: null },
      });
      expect(await callsBy('alice', 0)).toMatchObject({ spent: 5, you: { spent: 3 } });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
