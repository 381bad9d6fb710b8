/**
 * Upstream failures, from the real sandbox in external mode: a wrong key, a plan that lacks the
 * endpoint, and each sandbox fault. Every one is a tool result (never a crash) that keeps the
 * upstream's code and says what to do; retries happen only where they help, and are bounded.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { firstText, textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { SECRET_KEY } from '../helpers/secret.js';
import type { Session } from '../helpers/session.js';

const FNG = '/v3/fear-and-greed/latest';
const FEAR_AND_GREED_LINE = /^Fear & Greed \d{1,3} – (Extreme Fear|Fear|Neutral|Greed|Extreme Greed)$/;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());

const requestsTo = (path: string) => sandbox.stats.byPath.get(path) ?? 0;

/** Call a tool and measure how many sandbox requests and how long it took. */
async function measured(mcp: Session, tool: string, args: Record<string, unknown> = {}, path = FNG) {
  const before = requestsTo(path);
  const started = performance.now();
  const result = await mcp.call(tool, args);
  return {
    result,
    text: textOf(result),
    requests: requestsTo(path) - before,
    ms: performance.now() - started,
  };
}

describe('keys and plans', () => {
  it('a wrong key: isError with 401 / 1001 and what to do, one request, no retry', async () => {
    const mcp = await startMcp(sandboxEnv(sandbox, SECRET_KEY, { SVC_CACHE: 'off' }));
    try {
      const { result, text, requests } = await measured(mcp, 'get_fear_and_greed_latest');
      expect(result.isError).toBe(true);
      expect(text).toMatch(/401/);
      expect(text).toMatch(/1001/);
      expect(text).toMatch(/check SVC_API_KEY/);
      expect(text).not.toContain(SECRET_KEY);
      expect(requests).toBe(1);
    } finally {
      await mcp.close();
    }
  });

  it('a Basic key on a community tool: 403 / 1006 naming the plans that include it', async () => {
    const mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-basic', { SVC_CACHE: 'off' }));
    try {
      const path = '/v1/community/trending/token';
      const { result, text, requests } = await measured(mcp, 'get_trending_community_tokens', {}, path);
      expect(result.isError).toBe(true);
      expect(text).toMatch(/403/);
      expect(text).toMatch(/1006/);
      expect(text).toContain('Standard, Professional, Enterprise');
      expect(text).toMatch(/SVC_PLAN/);
      // Each fact once: the plans are named by the service's message, not repeated by the advice.
      expect(text.split('Standard, Professional, Enterprise')).toHaveLength(2);
      expect(requests).toBe(1);
      // The same key still works where the plan allows it.
      const allowed = await mcp.call('get_fear_and_greed_latest');
      expect(allowed.isError, textOf(allowed)).toBeFalsy();
      expect(firstText(allowed)).not.toContain('sandbox data');
    } finally {
      await mcp.close();
    }
  });
});

describe('error messages', () => {
  it('read as sentences: the upstream message and the advice are not joined by a doubled full stop', async () => {
    const mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-basic', { SVC_CACHE: 'off' }));
    try {
      const texts = [
        textOf(await mcp.call('get_trending_community_topics')), // 403 / 1006
        textOf(await mcp.call('get_cryptocurrency_quotes_latest', { id: '99999999' })), // 400
      ];
      for (const text of texts) {
        expect(text).toMatch(/\S/);
        expect(text).not.toMatch(/[^.]\.\.(\s|$)/);
      }
    } finally {
      await mcp.close();
    }
  });
});

describe('sandbox faults', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off' }));
  });
  afterAll(() => mcp?.close());
  afterEach(async () => {
    sandbox.faults.clear();
    // Whatever happened, the server is alive and answers the next call.
    expect(mcp.alive()).toBe(true);
    const next = await mcp.call('get_fear_and_greed_latest');
    expect(next.isError, textOf(next)).toBeFalsy();
    expect(firstText(next).split('\n')[0]).toMatch(FEAR_AND_GREED_LINE);
  });

  it('500 once: retried, the call succeeds, the sandbox saw 2 requests', async () => {
    sandbox.faults.add({ path: FNG, kind: '500', count: 1 });
    const { result, text, requests } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError, text).toBeFalsy();
    expect(text.split('\n')[0]).toMatch(FEAR_AND_GREED_LINE);
    expect(requests).toBe(2);
  });

  it('500 for 10 requests: isError after a bounded number of attempts, keeping the 500', async () => {
    sandbox.faults.add({ path: FNG, kind: '500', count: 10 });
    const { result, text, requests, ms } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(text).toMatch(/HTTP 500/);
    expect(text).toMatch(new RegExp(`after ${requests} attempts`));
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(requests).toBeLessThanOrEqual(5);
    expect(text).toMatch(/try again/i);
    expect(ms).toBeLessThan(20_000);
  });

  it('429 with Retry-After 60: surfaced at once, says to retry in 60 s', async () => {
    sandbox.faults.add({ path: FNG, kind: '429', retryAfter: 60, count: 1 });
    const { result, text, requests, ms } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(text).toMatch(/429/);
    expect(text).toMatch(/retry in 60 s/);
    expect(requests).toBe(1);
    expect(ms).toBeLessThan(10_000);
  });

  it('429 with Retry-After 1: waited for and retried, the call succeeds', async () => {
    sandbox.faults.add({ path: FNG, kind: '429', retryAfter: 1, count: 1 });
    const { result, text, requests, ms } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError, text).toBeFalsy();
    expect(requests).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(900);
  });

  it('a truncated body once: an error result or a retried success, never a crash', async () => {
    sandbox.faults.add({ path: FNG, kind: 'truncate', count: 1 });
    const { result, text, requests } = await measured(mcp, 'get_fear_and_greed_latest');
    if (result.isError) {
      expect(text).toMatch(/not valid JSON|could not be read|unexpected shape/i);
      expect(requests).toBe(1);
    } else {
      expect(text.split('\n')[0]).toMatch(FEAR_AND_GREED_LINE);
      expect(requests).toBe(2);
    }
  });

  it('truncated bodies on listings: same', async () => {
    const path = '/v3/cryptocurrency/listings/latest';
    sandbox.faults.add({ path, kind: 'truncate', count: 10 });
    const { result, text } = await measured(mcp, 'get_cryptocurrency_listings_latest', { limit: 50 }, path);
    expect(result.isError).toBe(true);
    expect(text).toMatch(/not valid JSON|could not be read/i);
  });

  it('a reset connection once: retried, the call succeeds', async () => {
    sandbox.faults.add({ path: FNG, kind: 'reset', count: 1 });
    const { result, text, requests } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError, text).toBeFalsy();
    expect(requests).toBe(2);
  });

  it('a reset connection every time: isError saying the connection failed, after bounded attempts', async () => {
    sandbox.faults.add({ path: FNG, kind: 'reset', count: 10 });
    const { result, text, requests, ms } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(text).toMatch(/connection/i);
    expect(text).toMatch(new RegExp(`after ${requests} attempts`));
    expect(requests).toBeLessThanOrEqual(5);
    expect(ms).toBeLessThan(20_000);
  });

  it('a fault on another path does not touch this one', async () => {
    sandbox.faults.add({ path: '/v3/index/svc20-latest', kind: '500', count: 10 });
    const { result, requests } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError).toBeFalsy();
    expect(requests).toBe(1);
  });
});

describe('timeouts (SVC_TIMEOUT_MS=500)', () => {
  let mcp: Session;
  beforeAll(async () => {
    mcp = await startMcp(
      sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_TIMEOUT_MS: '500', SVC_CACHE: 'off' }),
    );
  });
  afterAll(() => mcp?.close());
  afterEach(() => sandbox.faults.clear());

  it('a delay longer than the timeout, every time: a timeout message after bounded attempts', async () => {
    sandbox.faults.add({ path: FNG, kind: 'delay', ms: 1_500, count: 10 });
    const { result, text, requests, ms } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError).toBe(true);
    expect(text).toMatch(/did not answer within/);
    expect(text).toMatch(/SVC_TIMEOUT_MS/);
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(requests).toBeLessThanOrEqual(5);
    expect(ms).toBeLessThan(requests * 500 + 6_000);
    expect(mcp.alive()).toBe(true);
  });

  it('a delay once: the retry answers', async () => {
    sandbox.faults.add({ path: FNG, kind: 'delay', ms: 1_500, count: 1 });
    const { result, text, requests } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError, text).toBeFalsy();
    expect(requests).toBe(2);
  });

  it('a delay shorter than the timeout is just slow', async () => {
    sandbox.faults.add({ path: FNG, kind: 'delay', ms: 200, count: 1 });
    const { result, requests, ms } = await measured(mcp, 'get_fear_and_greed_latest');
    expect(result.isError).toBeFalsy();
    expect(requests).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(190);
  });
});
