/**
 * What a call costs when it does not end in an answer, on a loopback fake upstream: an answer of an
 * unexpected shape was still charged (settled with the service's charge); a call waiting for one of
 * the 8 upstream turns holds its reservation, and cancelling it releases the reservation, charged
 * nothing, while the calls already sent are charged their estimate when cancelled.
 */
import { describe, expect, it } from 'vitest';
import { FNG, IN_FLIGHT } from '../helpers/charging.js';
import { textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { until } from '../helpers/until.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const fake = useFakeUpstreamSession({ SVC_CREDIT_BUDGET: '100', SVC_TIMEOUT_MS: '15000' });

async function usage(): Promise<{ spent: number; reserved: number }> {
  const result = await fake.mcp.call('get_credit_usage');
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as { spent: number; reserved: number };
}

describe('what a call that ends without an answer costs', () => {
  it('an answer of an unexpected shape is an error, charged what the service charged', async () => {
    fake.upstream.reply(FNG, {
      body: { data: { value: 'high' }, status: { ...okStatus, credit_count: 3 } },
    });
    const result = await fake.mcp.call('get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/unexpected shape/);
    expect(await usage()).toMatchObject({ spent: 3, reserved: 0 });
  });

  it('a call waiting for an upstream turn holds its reservation; cancelled, it costs nothing', async () => {
    const spentBefore = (await usage()).spent;
    fake.upstream.reply(FNG, { hang: true });
    const before = fake.upstream.requests.length;
    const calls = Array.from({ length: IN_FLIGHT + 1 }, () => {
      const controller = new AbortController();
      const answer = fake.mcp.client
        .callTool({ name: 'get_fear_and_greed_latest', arguments: {} }, undefined, {
          signal: controller.signal,
        })
        .catch((error: Error) => error);
      return { controller, answer };
    });
    await until(() => fake.upstream.requests.length - before === IN_FLIGHT);
    await until(async () => (await usage()).reserved === IN_FLIGHT + 1);
    // Only 8 went out: the ninth waits for a turn.
    expect(fake.upstream.requests.length - before).toBe(IN_FLIGHT);

    const waiting = calls.at(-1);
    waiting?.controller.abort();
    await waiting?.answer;
    await until(async () => (await usage()).reserved === IN_FLIGHT);

    for (const call of calls) call.controller.abort();
    await Promise.all(calls.map((call) => call.answer));
    await until(async () => (await usage()).reserved === 0);
    expect(fake.upstream.requests.length - before).toBe(IN_FLIGHT);
    // The 8 sent were cancelled after reaching the service: each costs its estimate of 1.
    expect((await usage()).spent).toBe(spentBefore + IN_FLIGHT);
  });
});
