/**
 * The per-minute rate limit, end to end: a Basic key (30 requests a minute) on a sandbox with its
 * clock frozen, called until the sandbox answers 429 / 1008; the tool result says when to retry.
 * In its own file because the client may legitimately wait (up to its 20 s budget) before giving up.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { startMcp } from '../helpers/in-process.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Session } from '../helpers/session.js';

let sandbox: Sandbox;
let mcp: Session;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: true });
  mcp = await startMcp(sandboxEnv(sandbox, 'sandbox-basic', { SVC_CACHE: 'off' }));
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
});

it('a Basic key: 30 calls answer, the next is 429 / 1008 saying when to retry', async () => {
  let answered = 0;
  let refusal: { text: string; ms: number; requests: number } | undefined;
  for (let i = 0; i < 40 && refusal === undefined; i++) {
    const before = sandbox.stats.requests;
    const started = performance.now();
    const result = await mcp.call('get_fear_and_greed_latest');
    if (result.isError) {
      refusal = {
        text: textOf(result),
        ms: performance.now() - started,
        requests: sandbox.stats.requests - before,
      };
    } else {
      answered++;
    }
  }
  expect(refusal, 'no 429 within 40 calls').toBeDefined();
  const { text, ms, requests } = refusal ?? { text: '', ms: 0, requests: 0 };
  console.log(
    `rate limit: ${answered} calls answered; the refusal took ${Math.round(ms)} ms and ${requests} request(s): ${text}`,
  );
  expect(answered).toBe(30);
  expect(text).toMatch(/429/);
  expect(text).toMatch(/1008/);
  expect(text).toMatch(/retry in \d+ s/);
  // Under a frozen clock the sandbox's rate-limit minute starts when it does, so its Retry-After is
  // most of a minute: more than the client's 20 s budget, so the 429 is surfaced, not slept through.
  const seconds = Number(/retry in (\d+) s/.exec(text)?.[1]);
  expect(seconds).toBeGreaterThan(20);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(requests).toBe(1);
  expect(ms).toBeLessThan(10_000);
  expect(mcp.alive()).toBe(true);
});
