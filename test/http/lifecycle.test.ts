/**
 * The life of `svc-mcp http`: readiness that says what is wrong, and a graceful stop on SIGTERM or
 * SIGINT that answers the calls in flight, records what they cost and exits 0.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, textOf } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { errorMessage, INITIALIZE, postMcp, rawRequest } from '../helpers/http.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { connectHttp, spawnHttpServer } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const FNG = '/v3/fear-and-greed/latest';
const ANSWER = {
  body: {
    status: { error_code: 0, error_message: null, credit_count: 2 },
    data: { value: 51, value_classification: 'Neutral', update_time: '2026-11-22T12:00:00.000Z' },
  },
};

let upstream: FakeUpstream;
let stateDir: string;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  stateDir = mkdtempSync(join(tmpdir(), 'svc-http-life-'));
});
afterAll(async () => {
  await upstream?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('start-up', () => {
  it('a state directory open to others is named in one line; what is kept in it is private', async () => {
    const open = join(stateDir, 'open');
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    const server = await spawnHttpServer({ SVC_STATE_DIR: open });
    try {
      await server.waitForStderr(/open to others/);
      const lines = server
        .stderr()
        .split('\n')
        .filter((line) => line.includes('open to others'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`The state directory ${open} is open to others (mode 755)`);
      const called = await connectHttp(server, 'v2');
      await called.call('get_fear_and_greed_latest');
      await called.close();
      for (const name of readdirSync(open).filter((n) => n.startsWith('ledger')))
        expect((statSync(join(open, name)).mode & 0o777).toString(8), name).toBe('600');
    } finally {
      await server.stop();
    }
  });
});

describe('readiness', () => {
  it('/readyz is 503 naming the check that failed: a service that does not answer', async () => {
    const server = await spawnHttpServer({ SVC_API_KEY: SECRET_KEY, SVC_BASE_URL: 'http://127.0.0.1:9' });
    try {
      const ready = await rawRequest(`${server.origin}/readyz`, { method: 'GET' });
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toEqual({
        status: 'not ready',
        checks: {
          upstream: 'The connection to the service at 127.0.0.1:9 failed (ECONNREFUSED)',
          ledger: 'ok',
        },
      });
      expect((await rawRequest(`${server.origin}/healthz`, { method: 'GET' })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('/readyz is 503 when the ledger cannot be written', async () => {
    const notADirectory = join(stateDir, 'a-file');
    writeFileSync(notADirectory, '');
    const server = await spawnHttpServer({ SVC_STATE_DIR: notADirectory });
    try {
      const ready = await rawRequest(`${server.origin}/readyz`, { method: 'GET' });
      expect(ready.status).toBe(503);
      const { checks } = JSON.parse(ready.text);
      expect(checks.upstream).toBe('ok');
      expect(checks.ledger).toMatch(/EEXIST|ENOTDIR/);
    } finally {
      await server.stop();
    }
  });
});

/**
 * A server with a call under way (its upstream request sent and held until `answer()`), on a
 * ledger of its own: the call is in flight for as long as the test needs, however busy the machine.
 */
async function serverWithCallInFlight(name: string) {
  const env = {
    SVC_API_KEY: SECRET_KEY,
    SVC_BASE_URL: upstream.url,
    SVC_CREDIT_BUDGET: '100',
    SVC_TIMEOUT_MS: '60000',
    SVC_STATE_DIR: mkdtempSync(join(stateDir, `${name}-`)),
  };
  let answer = () => {};
  upstream.reply(FNG, { ...ANSWER, heldUntil: new Promise<void>((resolve) => (answer = resolve)) });
  const server = await spawnHttpServer(env);
  const session = await connectHttp(server, 'v2');
  const before = upstream.requests.length;
  const call = session.call('get_fear_and_greed_latest');
  await until(() => upstream.requests.length > before);
  return { env, server, session, call, answer };
}

describe('stopping', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} with a call in flight: the call is answered, its credits recorded, exit 0`, async () => {
      const { env, server, session, call, answer } = await serverWithCallInFlight(signal);
      server.proc.child.kill(signal);
      // While the call is still running, a new connection gets 503 with Retry-After (a load
      // balancer then tries another replica), not a reset; /readyz says not ready.
      let finished = false;
      void call.finally(() => {
        finished = true;
      });
      await until(async () => (await postMcp(server.url, INITIALIZE)).status === 503);
      const refused = await postMcp(server.url, INITIALIZE);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers.connection).toBe('close');
      expect(errorMessage(refused)).toMatch(/shutting down; retry in a moment/);
      const ready = await rawRequest(`${server.origin}/readyz`, { method: 'GET' });
      expect([ready.status, ready.headers['retry-after']]).toEqual([503, '1']);
      expect(finished).toBe(false);
      answer();
      const result = await call;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result).split('\n')[0]).toBe('Fear & Greed 51 – Neutral');
      expect(await server.proc.exited).toEqual({ code: 0, signal: null });
      await expect(rawRequest(`${server.origin}/healthz`, { method: 'GET' })).rejects.toThrow(/ECONNREFUSED/);
      const usage = await runCli(['call', 'get_credit_usage', '--json'], env);
      expect(JSON.parse(usage.stdout)).toMatchObject({ spent: 2, reserved: 0 });
      await session.close();
    });
  }

  it('a connection opened before the stop ends with its next answer instead of carrying more', async () => {
    const { server, session, call, answer } = await serverWithCallInFlight('keep-alive');
    // A request under way when the signal comes: its connection is not idle, so it stays open.
    const { hostname: host, port } = new URL(server.origin);
    const socket = connect(Number(port), host);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    const ended = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}:${port}\r\n`);
    server.proc.child.kill('SIGTERM');
    // The server is stopping once a new request is told so.
    await until(async () => (await rawRequest(`${server.origin}/readyz`, { method: 'GET' })).status === 503);
    socket.write('\r\n');
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received.toLowerCase()).toContain('connection: close');
    answer();
    expect((await call).isError).toBeFalsy();
    expect(await server.proc.exited).toEqual({ code: 0, signal: null });
    await session.close();
  });
});
