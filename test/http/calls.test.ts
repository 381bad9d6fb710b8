/**
 * Tool calls over `svc-mcp http` that stdio has no equivalent of: keys sent by clients (each with a
 * budget of its own), the cap on requests at once, the request timeout, progress on a long call and
 * cancellation reaching the upstream request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { errorMessage, INITIALIZE, postMcp } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { SECRET_KEY } from '../helpers/secret.js';
import { connectHttp, type HttpServer } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const FNG = '/v3/fear-and-greed/latest';
const FNG_HISTORICAL = '/v3/fear-and-greed/historical';
const KEY_HEADER = 'X-SVC_PRO_API_KEY';
const ANSWER = {
  body: {
    status: { error_code: 0, error_message: null, credit_count: 1 },
    data: { value: 51, value_classification: 'Neutral', update_time: '2026-11-22T12:00:00.000Z' },
  },
};
const HISTORY = {
  body: {
    status: { error_code: 0, error_message: null, credit_count: 1 },
    data: [{ value: 51, value_classification: 'Neutral', timestamp: '2026-11-22T00:00:00.000Z' }],
  },
};

describe('keys sent by clients, on the embedded sandbox', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttpServer({ SVC_CREDIT_BUDGET: '3', SVC_CACHE: 'off' });
  });
  afterAll(() => server?.stop());

  it('each key has a budget of its own, and the server key another', async () => {
    const basic = await connectHttp(server, 'v2', { [KEY_HEADER]: 'sandbox-basic' });
    const startup = await connectHttp(server, 'sdk1', { [KEY_HEADER]: 'sandbox-startup' });
    const own = await connectHttp(server, 'v2');
    for (let i = 0; i < 3; i++) {
      expect((await basic.call('get_fear_and_greed_latest')).isError, `basic ${i}`).toBeFalsy();
    }
    const refused = await basic.call('get_fear_and_greed_latest');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Refused before sending: .* 0 credits of the day's budget of 3 are left/);
    for (const session of [startup, own]) {
      expect((await session.call('get_fear_and_greed_latest')).isError).toBeFalsy();
    }
    const figures = async (session: typeof basic) =>
      JSON.parse((await session.readResource('svc://credits')).contents[0]!.text ?? '{}');
    expect(await figures(basic)).toMatchObject({ budget: 3, spent: 3, left: 0 });
    expect(await figures(startup)).toMatchObject({ budget: 3, spent: 1, left: 2 });
    expect(await figures(own)).toMatchObject({ budget: 3, spent: 1, left: 2 });
    await Promise.all([basic.close(), startup.close(), own.close()]);
  });

  it('a key the service does not know gets its answer (401 / 1001), like any upstream refusal', async () => {
    const stranger = await connectHttp(server, 'sdk1', { [KEY_HEADER]: 'sandbox-nobody' });
    const result = await stranger.call('get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/401.*1001/);
    await stranger.close();
  });

  it('a key that cannot be a header value is refused (400) without being repeated', async () => {
    const response = await postMcp(server.url, INITIALIZE, { [KEY_HEADER]: 'k'.repeat(300) });
    expect(response.status).toBe(400);
    expect(errorMessage(response)).toMatch(/X-SVC_PRO_API_KEY header must hold a key of at most 256/);
    expect(response.text).not.toContain('kkkk');
  });
});

describe('with SVC_BASE_URL and no key of its own', () => {
  let upstream: FakeUpstream;
  let server: HttpServer;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.reply(FNG, ANSWER);
    server = await startHttpServer({ SVC_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
  });

  it('a request without a key gets 401 saying to send one in the key header', async () => {
    const response = await postMcp(server.url, INITIALIZE);
    expect(response.status).toBe(401);
    expect(errorMessage(response)).toBe(
      'This server has no key of its own for the service: send yours in the X-SVC_PRO_API_KEY header with each request.',
    );
  });

  it('a request with a key calls the service with that key, and the key stays out of answers', async () => {
    const session = await connectHttp(server, 'v2', { [KEY_HEADER]: SECRET_KEY });
    const result = await session.call('get_fear_and_greed_latest');
    expect(textOf(result).split('\n')[0]).toBe('Fear & Greed 51 – Neutral');
    expect(upstream.requests.at(-1)?.headers['x-svc_pro_api_key']).toBe(SECRET_KEY);
    await session.close();
  });
});

describe('a slow or silent service', () => {
  let upstream: FakeUpstream;
  let server: HttpServer;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    server = await startHttpServer({
      SVC_API_KEY: SECRET_KEY,
      SVC_BASE_URL: upstream.url,
      SVC_CACHE: 'off',
      SVC_TIMEOUT_MS: '10000',
      SVC_HTTP_MAX_REQUESTS: '2',
      SVC_HTTP_REQUEST_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
  });

  it('past SVC_HTTP_MAX_REQUESTS a request gets 503 with Retry-After, and room comes back', async () => {
    upstream.reply(FNG, { hang: true });
    const session = await connectHttp(server, 'v2');
    const before = upstream.requests.length;
    const controller = new AbortController();
    const calls = [1, 2].map(() =>
      session.call('get_fear_and_greed_latest', {}, { signal: controller.signal }).catch((e) => e),
    );
    await until(() => upstream.requests.length === before + 2);
    const busy = await postMcp(server.url, INITIALIZE);
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(errorMessage(busy)).toMatch(/answering 2 messages already \(SVC_HTTP_MAX_REQUESTS/);
    controller.abort();
    await Promise.all(calls);
    await until(() => upstream.requests.slice(before).every((request) => request.abandoned));
    upstream.reply(FNG, ANSWER);
    expect((await session.call('get_fear_and_greed_latest')).isError).toBeFalsy();
    await session.close();
  });

  it('each message of a 2025-03-26 batch counts against SVC_HTTP_MAX_REQUESTS', async () => {
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping', params: {} });
    const headers = { 'mcp-protocol-version': '2025-03-26' };
    const three = await postMcp(server.url, JSON.stringify([ping(1), ping(2), ping(3)]), headers);
    expect(three.status).toBe(503);
    expect(three.headers['retry-after']).toBe('1');
    expect(errorMessage(three)).toMatch(/each message of a batch counts/);
    const two = await postMcp(server.url, JSON.stringify([ping(1), ping(2)]), headers);
    expect(two.status).toBe(200);
    expect(two.text).toContain('"id":2');
  });

  it('a call past SVC_HTTP_REQUEST_TIMEOUT_MS is cut off and its upstream request closed', async () => {
    upstream.reply(FNG, { hang: true });
    // A 2026-07-28 answer is one JSON body: nothing is sent before it, so the timeout answers 504.
    // A 2025 answer is an event stream already under way: the timeout cuts it.
    for (const [client, failure] of [
      ['v2', /did not finish within 3 s \(SVC_HTTP_REQUEST_TIMEOUT_MS\); the call was cancelled/],
      ['sdk1', /fetch failed|terminated|closed/i],
    ] as const) {
      const session = await connectHttp(server, client);
      const before = upstream.requests.length;
      await expect(session.call('get_fear_and_greed_latest'), client).rejects.toThrow(failure);
      await until(() => upstream.requests.length > before && upstream.requests[before]!.abandoned, 2_000);
      await session.close();
    }
  });

  it('a long call reports progress to a client that asks, on either revision', async () => {
    upstream.reply(FNG_HISTORICAL, { ...HISTORY, delayMs: 2_500 });
    for (const client of ['v2', 'sdk1'] as const) {
      const session = await connectHttp(server, client);
      const progress: { progress: number; message?: string }[] = [];
      const result = await session.call(
        'get_fear_and_greed_historical',
        { limit: 1 },
        {
          onprogress: (update) => progress.push(update),
        },
      );
      expect(result.isError, `${client}: ${textOf(result)}`).toBeFalsy();
      expect(progress.length, client).toBeGreaterThanOrEqual(2);
      expect(progress[0], client).toEqual({ progress: 1, message: 'Waiting for the service: 1 s' });
      expect(progress[1]!.progress, client).toBeGreaterThan(progress[0]!.progress);
      await session.close();
    }
  });

  it('a call the v2 client cancels closes its upstream request at once', async () => {
    upstream.reply(FNG, { hang: true });
    const session = await connectHttp(server, 'v2');
    const before = upstream.requests.length;
    const controller = new AbortController();
    const call = session.call('get_fear_and_greed_latest', {}, { signal: controller.signal });
    await until(() => upstream.requests.length > before);
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => upstream.requests[before]!.abandoned, 500);
    await session.close();
  });
});
