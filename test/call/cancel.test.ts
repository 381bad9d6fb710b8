/**
 * A call that is cancelled or times out stops its upstream request: the connection is closed at once,
 * not left open until the service answers, and the server goes on answering.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { until } from '../helpers/until.js';

const FNG = '/v3/fear-and-greed/latest';
const ANSWER = {
  body: {
    status: { error_code: 0, error_message: null, credit_count: 1 },
    data: { value: 51, value_classification: 'Neutral', update_time: '2026-11-22T12:00:00.000Z' },
  },
};

const fake = useFakeUpstreamSession({ SVC_TIMEOUT_MS: '400' });

describe('an upstream that never answers', () => {
  it('a call the client cancels closes its upstream request at once', async () => {
    fake.upstream.reply(FNG, { hang: true });
    const before = fake.upstream.requests.length;
    const controller = new AbortController();
    const call = fake.mcp.client.callTool({ name: 'get_fear_and_greed_latest', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await until(() => fake.upstream.requests.length > before);
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => fake.upstream.requests[before]!.abandoned, 300);
    expect(fake.upstream.requests.length - before).toBe(1);
  });

  it('a call that times out closes each attempt and says so', async () => {
    fake.upstream.reply(FNG, { hang: true });
    const before = fake.upstream.requests.length;
    const result = await fake.mcp.call('get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not answer within/);
    const attempts = fake.upstream.requests.slice(before);
    expect(attempts.length).toBeGreaterThan(1);
    await until(() => attempts.every((request) => request.abandoned), 1_000);
  });

  it('after both, the server answers the next call', async () => {
    fake.upstream.reply(FNG, ANSWER);
    const result = await fake.mcp.call('get_fear_and_greed_latest');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result).split('\n')[0]).toBe('Fear & Greed 51 – Neutral');
    expect(fake.mcp.alive()).toBe(true);
  });
});
