/**
 * Structured logs: JSON lines on stderr (kept by the test for a server built in it), one per tool
 * call (and one per upstream request at debug), never the key and never an argument value; a
 * stdio process writes none by default, only its banner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { type Session, spawnMcp } from '../helpers/session.js';
import { withoutLedgerNotice } from '../helpers/sqlite.js';

/** Values passed as arguments: none may reach a log line. */
const ARGUMENT_VALUES = ['2026-11-03T04:05:06Z', 'ZZ-ARG-77'];

/** The JSON lines of a stderr (the banner is the one line that is not JSON). */
function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('logs', () => {
  let sandbox: Sandbox;
  const sessions: Session[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await sandbox?.close();
  });

  async function start(key: string, extra: Record<string, string>): Promise<Session> {
    const session = await startMcp(sandboxEnv(sandbox, key, extra));
    sessions.push(session);
    return session;
  }

  it('a JSON line per tool call and per upstream request, with no key and no argument values', async () => {
    const mcp = await start('sandbox-enterprise', { SVC_LOG_LEVEL: 'debug' });
    const series = { time_start: ARGUMENT_VALUES[0], count: 5 };
    await mcp.call('get_global_metrics_historical', series);
    await mcp.call('get_global_metrics_historical', series);
    await mcp.call('get_global_metrics_latest', { convert: ARGUMENT_VALUES[1] });
    await mcp.call('get_fear_and_greed_latest', { limit: 5 });
    await mcp.waitForStderr(/"outcome":"invalid"/);

    const lines = logLines(mcp.stderr());
    const calls = lines.filter((l) => l.msg === 'tool call');
    expect(calls.map((l) => [l.tool, l.outcome, l.cache, l.credits])).toEqual([
      ['get_global_metrics_historical', 'ok', 'upstream', 1],
      ['get_global_metrics_historical', 'ok', 'cache', 0],
      ['get_global_metrics_latest', 'error', undefined, 0],
      ['get_fear_and_greed_latest', 'invalid', undefined, 0],
    ]);
    for (const line of calls) {
      expect(line).toMatchObject({ level: 'info', duration_ms: expect.any(Number) });
      expect(Object.keys(line).sort()).toEqual(
        expect.arrayContaining(['tool', 'outcome', 'credits', 'duration_ms', 'time', 'pid']),
      );
    }
    expect(calls[0]!.account).toMatch(/^key:[0-9a-f]{16}$/);
    const upstream = lines.filter((l) => l.msg === 'upstream request');
    expect(upstream.map((l) => [l.tool, l.path, l.level])).toEqual([
      ['get_global_metrics_historical', '/v1/global-metrics/quotes/historical', 'debug'],
      ['get_global_metrics_latest', '/v1/global-metrics/quotes/latest', 'debug'],
    ]);
    for (const value of [...ARGUMENT_VALUES, 'sandbox-enterprise']) expect(mcp.stderr()).not.toContain(value);
  });

  it('the key is never logged, only its hash', async () => {
    const mcp = await start(SECRET_KEY, { SVC_LOG_LEVEL: 'info' });
    expect((await mcp.call('get_fear_and_greed_latest')).isError).toBe(true); // the sandbox does not know it
    await mcp.waitForStderr(/"msg":"tool call"/);
    const line = logLines(mcp.stderr()).find((l) => l.msg === 'tool call');
    expect(line).toMatchObject({ tool: 'get_fear_and_greed_latest', outcome: 'error' });
    expect(mcp.stderr()).not.toContain(SECRET_KEY);
  });

  it('on stdio by default the banner is the only line', async () => {
    const mcp = await spawnMcp(sandboxEnv(sandbox, 'sandbox-enterprise'));
    sessions.push(mcp);
    await mcp.waitForStderr(/on stdio/);
    expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
    expect(withoutLedgerNotice(mcp.stderr())).toEqual([expect.stringMatching(/^svc-mcp .* on stdio · /)]);
  });
});
