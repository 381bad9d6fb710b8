/**
 * The time rule (src/time-bounds.ts), scaled down so the suite stays fast: SVC_TIMEOUT_MS=2000
 * lets a request take 2 s and a call's requests 4 s in all, so a slow answer within the timeout is
 * answered, and a service that never answers gets two attempts and one clear message.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';

const FNG = '/v3/fear-and-greed/latest';
const BODY = {
  status: { error_code: 0, error_message: null, credit_count: 1 },
  data: { value: 51, value_classification: 'Neutral', update_time: '2026-11-22T12:00:00.000Z' },
};

const fake = useFakeUpstreamSession({ SVC_TIMEOUT_MS: '2000' });

describe('SVC_TIMEOUT_MS=2000', () => {
  it('an answer that takes 1 s, within the 2 s timeout, is answered by the first request', async () => {
    fake.upstream.reply(FNG, { body: BODY, delayMs: 1_000 });
    const before = fake.upstream.requests.length;
    const result = await fake.mcp.call('get_fear_and_greed_latest');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result).split('\n')[0]).toBe('Fear & Greed 51 – Neutral');
    expect(fake.upstream.requests.length - before).toBe(1);
  });

  it('a service that never answers: two attempts within twice the timeout, then one message naming the setting once', async () => {
    fake.upstream.reply(FNG, { hang: true });
    const before = fake.upstream.requests.length;
    const result = await fake.mcp.call('get_fear_and_greed_latest');
    const text = textOf(result);
    expect(result.isError).toBe(true);
    // The second attempt gets what is left of the 4 s; a third could not start in time.
    expect(fake.upstream.requests.length - before).toBe(2);
    expect(text).toBe(
      "The service did not answer within the 4 s a call's requests may take (after 2 attempts). Try again shortly; if the service is this slow, raise SVC_TIMEOUT_MS (now 2000, at most 120000).\n1 credit charged, for the requests the call sent before it ended: the service charges a request that reaches it, answered or not.",
    );
  });
});
