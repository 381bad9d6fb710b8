/**
 * Scripts of several callers on one HTTP server: at most 4 run at once in the process, and at most
 * 2 of them one owner's, so that one caller's long scripts leave room for another's. Tried as a
 * hostile person on a team's server would: four scripts that loop until their deadline held every
 * place, and everyone else's scripts were refused until they ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { rawRequest } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { sample } from '../helpers/metrics.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpServer, type Session } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const KEY_HEADER = 'X-SVC_PRO_API_KEY';

let sandbox: Sandbox;
let server: HttpServer;
let stranger: Session;
let other: Session;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  server = await startHttpServer({
    SVC_BASE_URL: sandbox.url,
    SVC_STATE_DIR: newStateDir(),
    SVC_SCRIPT_TIMEOUT_MS: '2000',
  });
  const connect = (key: string) => connectHttp(server, 'v2', { [KEY_HEADER]: key });
  [stranger, other] = [await connect('sandbox-startup'), await connect('sandbox-basic')];
});
afterAll(async () => {
  await Promise.all([stranger?.close(), other?.close()]);
  await server?.stop();
  await sandbox?.close();
});

/** The tool calls the server is answering now (its /metrics). */
async function callsInFlight(): Promise<number> {
  const text = (await rawRequest(`${server.origin}/metrics`, { method: 'GET' })).text;
  return sample(text, 'svc_mcp_tool_calls_in_flight') ?? 0;
}

describe('scripts at once', () => {
  it("are two of one owner's at most: another's script runs meanwhile", async () => {
    const looping = Array.from({ length: 4 }, () => stranger.call('run_script', { code: 'while (true) {}' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mine = await other.call('run_script', { code: 'return 6 * 7', format: 'json' });
    expect(mine.isError, textOf(mine)).toBeFalsy();
    expect(mine.structuredContent).toMatchObject({ result: 42, credits: 0 });
    const texts = (await Promise.all(looping)).map(textOf);
    const refused = texts.filter((t) => t.startsWith('2 of your scripts are running already'));
    expect(refused, texts.join('\n')).toHaveLength(2);
    expect(texts.filter((t) => /deadline|time/.test(t) && !refused.includes(t))).toHaveLength(2);
  });

  it('are four at most in the process: a fifth is refused at once, free', async () => {
    const keys = ['sandbox-enterprise', 'sandbox-professional', 'sandbox-standard'];
    const sessions = await Promise.all(keys.map((key) => connectHttp(server, 'v2', { [KEY_HEADER]: key })));
    try {
      const looping = [stranger, stranger, sessions[0], sessions[1]].map((s) =>
        (s as Session).call('run_script', { code: 'while (true) {}' }),
      );
      // The four are in the server before the fifth is sent, with no fixed pause a busy machine could outlast.
      await until(async () => (await callsInFlight()) >= 4);
      const fifth = await (sessions[2] as Session).call('run_script', { code: 'return 1' });
      expect(fifth.isError).toBe(true);
      expect(textOf(fifth)).toMatch(/^4 scripts are running already; try again when one has ended\./);
      expect(fifth._meta).toMatchObject({ credits: 0 });
      await Promise.all(looping);
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  });
});
