/**
 * A request that identical calls of several people share is charged to the person whose call made
 * it; when that person cancels before it is sent (the others still waiting), it is charged to the
 * account alone. The calls go through the pipeline with the people the HTTP transport's sign-in
 * gives, at a counting loopback upstream whose answers are held back so that the second call joins
 * the first while it waits for its turn.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callTool } from '../../src/call/pipeline.js';
import { endpointsByName } from '../../src/endpoints/index.js';
import { accountOf } from '../../src/guard/accounts.js';
import type { Services } from '../../src/services/index.js';
import { FNG, FNG_ANSWER } from '../helpers/charging.js';
import { type FakeUpstream, startFakeUpstream } from '../helpers/fake-upstream.js';
import { servicesFor } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { until } from '../helpers/until.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const HISTORY = '/v3/fear-and-greed/historical';
const KEY = 'team-key-0123456789';
/** Calls of other requests that take every turn first (the limiter's 8). */
const BUSY = 8;

let upstream: FakeUpstream;
let services: Services;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  services = await servicesFor({
    SVC_API_KEY: KEY,
    SVC_BASE_URL: upstream.url,
    SVC_CREDIT_BUDGET: '1000',
  });
});
afterAll(async () => {
  await services?.close();
  await upstream?.close();
});

/** The text of a result of the pipeline's own. */
const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((block) => block.text ?? '').join('\n');

const tool = (name: string) => {
  const found = endpointsByName.get(name);
  if (!found) throw new Error(name);
  return found;
};

it('the first caller cancels before the shared request is sent: the account pays, no person does', async () => {
  const history = { data: [{ timestamp: NOW, value: 40, value_classification: 'Fear' }], status: okStatus };
  upstream.reply(HISTORY, { body: history, delayMs: 1_500 });
  upstream.reply(FNG, FNG_ANSWER);
  const busy = Array.from({ length: BUSY }, (_, i) =>
    callTool(services, tool('get_fear_and_greed_historical'), { start: i + 1 }),
  );
  await until(() => upstream.requests.length === BUSY);
  const alice = new AbortController();
  const first = callTool(
    services,
    tool('get_fear_and_greed_latest'),
    {},
    {
      person: 'person:alice',
      signal: alice.signal,
    },
  );
  // Alice's request is reserved and waits for a turn: Bob's identical call joins it.
  await until(async () => (await services.guard.usage(accountOf(KEY))).reserved === BUSY + 1);
  const second = callTool(services, tool('get_fear_and_greed_latest'), {}, { person: 'person:bob' });
  for (let tick = 0; tick < 20; tick++) await new Promise((resolve) => setImmediate(resolve));
  alice.abort();
  expect(textOf(await first)).toMatch(/cancelled/);
  const answered = await second;
  expect(answered.isError, textOf(answered)).toBeFalsy();
  expect(answered._meta).toMatchObject({ joined: true, credits: 0 });
  await Promise.all(busy);
  expect(upstream.requests.filter((r) => r.path === FNG)).toHaveLength(1);
  const account = await services.guard.usage(accountOf(KEY));
  expect(account.spent).toBe(BUSY + 1);
  expect((await services.guard.personUsage('person:alice'))?.spent ?? 0).toBe(0);
  expect((await services.guard.personUsage('person:bob'))?.spent ?? 0).toBe(0);
});

it('a caller who stays is charged as a person', async () => {
  const result = await callTool(
    services,
    tool('get_fear_and_greed_historical'),
    { start: 99 },
    {
      person: 'person:carol',
    },
  );
  expect(result.isError, textOf(result)).toBeFalsy();
  expect((await services.guard.personUsage('person:carol'))?.spent).toBe(1);
});
