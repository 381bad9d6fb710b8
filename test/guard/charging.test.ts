import { afterEach, describe, expect, it } from 'vitest';
import { callTool } from '../../src/call/pipeline.js';
import { loadConfig } from '../../src/config/index.js';
import { endpointsByName } from '../../src/endpoints/index.js';
import type { Endpoint } from '../../src/kit/define.js';
import { createServices } from '../../src/services/index.js';
import {
  ESTIMATE,
  FNG,
  FNG_ANSWER,
  IN_FLIGHT,
  killWithCallsWaiting,
  settledUsage,
  usage,
} from '../helpers/charging.js';
import { type Env, newStateDir, runCli, textOf } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { MCP_HEADERS } from '../helpers/http.js';
import { startHttpServer, startMcp } from '../helpers/in-process.js';
import { sample } from '../helpers/metrics.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { HttpServer } from '../helpers/session.js';
import { until } from '../helpers/until.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const upstreams: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

async function fakeUpstream(): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream();
  upstreams.push(upstream);
  return upstream;
}

/** A server's settings: the fake upstream, the secret key, a ledger of the test's own, the cache off. */
function settings(upstream: FakeUpstream, extra: Env = {}): Env {
  return {
    SVC_API_KEY: SECRET_KEY,
    SVC_BASE_URL: upstream.url,
    SVC_CACHE: 'off',
    SVC_STATE_DIR: newStateDir(),
    SVC_CREDIT_BUDGET: '100',
    ...extra,
  };
}

/**
 * What an HTTP server says it charged besides the ledger: /metrics' credits spent on the tool, and
 * the credits of its log lines (a line per call, at info).
 */
async function reported(server: HttpServer): Promise<{ metric: number; logged: number }> {
  const metrics = await (await fetch(`${server.origin}/metrics`)).text();
  const metric = sample(metrics, 'svc_mcp_credits_spent_total', { tool: 'get_fear_and_greed_latest' });
  const logged = server
    .stderr()
    .split('\n')
    .slice(0, -1) // complete lines only
    .filter((line) => line.startsWith('{') && line.includes('"msg":"tool call"'))
    .reduce((sum, line) => sum + (JSON.parse(line) as { credits: number }).credits, 0);
  return { metric: metric ?? 0, logged };
}

/** A tools/call POSTed to an HTTP server, as a client that may hang up (a 2025 client, stateless). */
function postCall(url: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_fear_and_greed_latest', arguments: {} },
    }),
    signal,
  });
}

describe('a call sent and never answered is charged its estimate', () => {
  it('HTTP callers that hang up are charged, and the budget then refuses further calls', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { ...FNG_ANSWER, delayMs: 1_500 });
    const env = settings(upstream, { SVC_CREDIT_BUDGET: '5' });
    const server = await startHttpServer(env);
    try {
      const hangUp = () =>
        postCall(server.url, AbortSignal.timeout(700)).then(
          (response) => response.text(),
          (error: Error) => error.name,
        );
      // 20 callers at once, each hanging up after 700 ms: 5 fit the budget, the others are refused.
      await Promise.all(Array.from({ length: 20 }, hangUp));
      // Callers keep coming and hanging up until the budget is used (on a loaded machine a caller may
      // hang up before its call was sent, which cost nothing).
      for (let i = 0; i < 10 && (await settledUsage(env, 10_000)).left !== 0; i++) await hangUp();
      const refused = await (await postCall(server.url)).text();
      expect(refused).toMatch(/Refused before sending: .* 0 credits of the .* budget of 5 are left/);
      await settledUsage(env, 10_000);
      // A request written just before its caller hung up reaches the loopback service's handler
      // whenever this busy process's event loop gets to it: wait for what the service saw. On a
      // loaded machine a hang-up may reach the server after the answer: answered, it costs the same.
      await until(() => upstream.requests.length >= 5 && upstream.requests.every((r) => r.ended), 10_000);
      expect(upstream.requests).toHaveLength(5);
      expect(upstream.requests.some((r) => r.abandoned)).toBe(true);
      expect(await usage(env)).toMatchObject({ spent: 5 * ESTIMATE, reserved: 0, left: 0 });
      // Its metrics and logs say the same: the calls that hung up were charged.
      await until(async () => (await reported(server)).logged === 5 * ESTIMATE);
      expect(await reported(server)).toEqual({ metric: 5 * ESTIMATE, logged: 5 * ESTIMATE });
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('a call cut by SVC_HTTP_REQUEST_TIMEOUT_MS is charged', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, FNG_ANSWER);
    const env = settings(upstream, { SVC_HTTP_REQUEST_TIMEOUT_MS: '1000' });
    const server = await startHttpServer(env);
    try {
      // One answered call first, so that the calls cut next reach the service well within 1 s.
      expect(await (await postCall(server.url)).text()).toContain('"credits":1');
      // Far past the 1 s request timeout: the request is cut whatever the machine's speed.
      upstream.reply(FNG, { ...FNG_ANSWER, delayMs: 10_000 });
      // The answer is a 504, or a cut connection when the answer's stream had already begun.
      const ends = await Promise.all(
        [1, 2].map(() =>
          postCall(server.url).then(
            (response) => response.status,
            () => 'cut',
          ),
        ),
      );
      for (const end of ends) expect([504, 'cut']).toContain(end);
      await settledUsage(env, 10_000);
      const cut = upstream.requests.slice(1);
      expect(cut.length).toBeGreaterThan(0);
      // The service sees each connection close a moment after the server cut it.
      await until(() => cut.every((request) => request.abandoned));
      const spent = upstream.requests.length * ESTIMATE;
      expect((await usage(env)).spent).toBe(spent);
      await until(async () => (await reported(server)).logged === spent);
      expect(await reported(server)).toEqual({ metric: spent, logged: spent });
    } finally {
      await server.stop();
    }
  });

  it('a call the MCP client cancels over stdio after it was sent is charged', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { hang: true });
    const env = settings(upstream);
    const mcp = await startMcp(env);
    try {
      const controller = new AbortController();
      const call = mcp.client
        .callTool({ name: 'get_fear_and_greed_latest', arguments: {} }, undefined, {
          signal: controller.signal,
        })
        .catch((error: Error) => error);
      await until(() => upstream.requests.length === 1);
      controller.abort();
      await call;
      await until(() => upstream.requests[0]!.abandoned);
      await settledUsage(env);
      expect((await usage(env)).spent).toBe(ESTIMATE);
    } finally {
      await mcp.close();
    }
  });

  it('a call cancelled while it waits to retry is charged for the attempt sent before', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { hang: true });
    const env = settings(upstream, { SVC_TIMEOUT_MS: '5000' });
    const mcp = await startMcp(env);
    try {
      const controller = new AbortController();
      const call = mcp.client
        .callTool({ name: 'get_fear_and_greed_latest', arguments: {} }, undefined, {
          signal: controller.signal,
        })
        .catch((error: Error) => error);
      // The first attempt is sent and times out; the second is answered 500, asking for 3 s.
      await until(() => upstream.requests.length === 1);
      upstream.reply(FNG, {
        status: 500,
        body: { status: { ...okStatus, error_code: 500, error_message: 'busy', credit_count: 0 } },
        headers: { 'retry-after': '3' },
      });
      await until(() => upstream.requests.length === 2, 10_000);
      controller.abort(); // during the 3 s wait
      await call;
      await settledUsage(env);
      expect(upstream.requests).toHaveLength(2);
      expect((await usage(env)).spent).toBe(ESTIMATE);
    } finally {
      await mcp.close();
    }
  }, 30_000);

  it('a call whose attempts all time out is charged once, however many the service received', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { hang: true });
    const env = settings(upstream, { SVC_TIMEOUT_MS: '2000' });
    const mcp = await startMcp(env);
    try {
      const result = await mcp.call('get_fear_and_greed_latest');
      expect(textOf(result)).toMatch(/did not answer within .* \(after \d attempts\)/);
      expect(upstream.requests.length).toBeGreaterThan(1);
    } finally {
      await mcp.close();
    }
    expect(await usage(env)).toMatchObject({ spent: ESTIMATE, reserved: 0 });
  });
});

describe('a call that reached the service only to be refused, or never reached it, costs nothing', () => {
  it('an error answer costs nothing, after every retry', async () => {
    const upstream = await fakeUpstream();
    const error = (code: number, message: string) => ({
      status: code,
      body: { status: { ...okStatus, error_code: code, error_message: message, credit_count: 0 } },
    });
    const env = settings(upstream);
    const mcp = await startMcp(env);
    try {
      upstream.reply(FNG, error(400, 'Invalid value for "x"'));
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBe(true);
      upstream.reply(FNG, error(500, 'server error'));
      expect(textOf(await mcp.call('get_fear_and_greed_latest'))).toMatch(/after 4 attempts/);
    } finally {
      await mcp.close();
    }
    expect(upstream.requests).toHaveLength(5);
    expect(await usage(env)).toMatchObject({ spent: 0, reserved: 0 });
  });

  it('a connection refused costs nothing', async () => {
    const upstream = await fakeUpstream();
    const env = settings(upstream);
    await upstream.close();
    const run = await runCli(['call', 'get_fear_and_greed_latest'], env);
    expect(run.stderr).toMatch(/The connection to the service at .* failed \(ECONNREFUSED\)/);
    expect(await usage(env)).toMatchObject({ spent: 0, reserved: 0 });
  });
});

describe('a server that stops or dies', () => {
  it('stopping past the drain with a call still sent and unanswered charges it its estimate', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { hang: true });
    const env = settings(upstream);
    // In this process, so that the server stops with the call still open, as it does once the
    // drain's bound has passed; the ledger's owner (this process) stays alive, so nothing is reaped.
    const services = await createServices(loadConfig({ ...env, SVC_LOG_LEVEL: 'silent' }));
    const cancel = new AbortController();
    const tool = endpointsByName.get('get_fear_and_greed_latest') as Endpoint;
    const call = callTool(services, tool, {}, { signal: cancel.signal });
    await until(() => upstream.requests.length === 1);
    const closing = services.close();
    await settledUsage(env);
    expect((await usage(env)).spent).toBe(ESTIMATE);
    // The call ends afterwards; its own end changes nothing.
    cancel.abort();
    await Promise.all([call, closing]);
    expect(await usage(env)).toMatchObject({ spent: ESTIMATE, reserved: 0 });
  });

  it('SIGKILL with 8 calls sent and more waiting for a turn: the sent ones only are charged', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { hang: true });
    const env = settings(upstream);
    await killWithCallsWaiting(upstream, env);
    expect(await usage(env)).toMatchObject({ spent: IN_FLIGHT * ESTIMATE, reserved: 0 });
  });

  it('without a budget too: the sent ones are charged, the waiting ones were never written', async () => {
    const upstream = await fakeUpstream();
    upstream.reply(FNG, { hang: true });
    const { SVC_CREDIT_BUDGET: _, ...env } = settings(upstream);
    await killWithCallsWaiting(upstream, env);
    expect(await usage(env)).toMatchObject({ spent: IN_FLIGHT * ESTIMATE, reserved: 0, left: null });
  });
});
