/**
 * The account tools: get_key_info in both documented shapes (with and without the older daily
 * figures), never cached and free, beside the guard's own figures; and the svc://credits resource.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const KEY_INFO = '/v1/key/info';
const current = {
  plan: {
    credit_limit_monthly: 120000,
    credit_limit_monthly_reset: 'In 3 days, 19 hours, 56 minutes',
    credit_limit_monthly_reset_timestamp: '2026-12-01T00:00:00.000Z',
    rate_limit_minute: 60,
  },
  usage: {
    current_minute: { requests_made: 1, requests_left: 59 },
    current_day: { credits_used: 1, credits_left: 3999 },
    current_month: { credits_used: 1, credits_left: 119999 },
  },
};
const legacy = {
  ...current,
  plan: {
    ...current.plan,
    credit_limit_daily: 4000,
    credit_limit_daily_reset: 'In 19 hours, 56 minutes',
    credit_limit_daily_reset_timestamp: '2026-11-23T00:00:00.000Z',
  },
};

const fake = useFakeUpstreamSession({ SVC_CREDIT_BUDGET: '100', SVC_NOW: '2026-11-22T12:00:00Z' });

describe('get_key_info', () => {
  it('reads the current shape, with the guard figures beside it, for 0 credits and never from the cache', async () => {
    fake.upstream.reply(KEY_INFO, { body: { data: current, status: { ...okStatus, credit_count: 0 } } });
    const before = fake.upstream.requests.length;
    const first = await fake.mcp.call('get_key_info');
    const second = await fake.mcp.call('get_key_info');
    expect(fake.upstream.requests.length - before).toBe(2);
    expect(second._meta).toMatchObject({ cached: false, credits: 0 });
    expect(first.structuredContent).toEqual({
      credit_limit_monthly: 120000,
      credit_limit_monthly_reset_at: '2026-12-01T00:00:00.000Z',
      rate_limit_minute: 60,
      minute: { requests_made: 1, requests_left: 59 },
      day: { used: 1, left: 3999 },
      month: { used: 1, left: 119999 },
      guard: { window: 'day', budget: 100, spent: 0, left: 100, resets_at: '2026-11-23T00:00:00.000Z' },
    });
    const text = textOf(first);
    expect(text).toMatch(
      /^Credits this month: 1 used, 119,999 left of 120,000 \(resets 2026-12-01 00:00 UTC\)/,
    );
    expect(text).toMatch(
      /This server's budget \(day\): 0 of 100 spent, 100 left, resets 2026-11-23 00:00 UTC/,
    );
  });

  it('reads the legacy shape with daily limits', async () => {
    fake.upstream.reply(KEY_INFO, { body: { data: legacy, status: okStatus } });
    const result = await fake.mcp.call('get_key_info');
    expect(result.structuredContent).toMatchObject({
      credit_limit_daily: 4000,
      credit_limit_daily_reset_at: '2026-11-23T00:00:00.000Z',
    });
    expect(textOf(result)).toMatch(/Today: 1 used, 3,999 left of 4,000 \(resets 2026-11-23 00:00 UTC\)/);
  });
});

describe('svc://credits', () => {
  it('is listed, and reads as the same figures as get_credit_usage', async () => {
    const { resources } = await fake.mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('svc://credits');
    const read = await fake.mcp.client.readResource({ uri: 'svc://credits' });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe('application/json');
    const tool = await fake.mcp.call('get_credit_usage');
    expect(JSON.parse(content.text)).toEqual(tool.structuredContent);
    // The legacy answer above said it cost 1 credit: the guard settles what the service reports.
    expect(JSON.parse(content.text)).toMatchObject({ window: 'day', budget: 100, spent: 1, left: 99 });
  });
});
