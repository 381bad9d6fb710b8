/**
 * A 2026-07-28 confirmation is bound to the question it answers: the state the question goes out
 * with is sealed by the server (an HMAC over the tool, its arguments and the price asked about),
 * so an answer made up by a host, or prepared for one call, confirms no other: the person is asked.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalParams } from '../../src/kit/canonical.js';
import type { Services } from '../../src/services/index.js';
import { openRaw, type RawExchange, servicesFor } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const LISTINGS = '/v3/cryptocurrency/listings/latest';
const TOOL = 'get_cryptocurrency_listings_latest';
const COSTLY = { limit: 100, convert: 'USD,EUR,GBP' };
const OTHER = { limit: 100, convert: 'USD,EUR,JPY' };
const YES = { confirm: { action: 'accept', content: { confirm: true } } };

type Answer = {
  result?: { resultType?: string; requestState?: string; isError?: boolean; content?: { text: string }[] };
};

let sandbox: Sandbox;
let services: Services;
let raw: RawExchange;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  services = await servicesFor(
    sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_NOW: NOW,
      SVC_CACHE: 'off',
      SVC_CONFIRM_CREDITS: '3',
    }),
  );
  raw = await openRaw(services, 'modern', { elicitation: { form: {} } });
});
afterAll(async () => {
  await raw?.close();
  await services?.close();
  await sandbox?.close();
});

const sent = () => sandbox.stats.byPath.get(LISTINGS) ?? 0;
const call = (args: object, more: object = {}) =>
  raw.send({ method: 'tools/call', params: { name: TOOL, arguments: args, ...more } }) as Promise<Answer>;

describe('the state a question goes out with', () => {
  it('confirms the call it was made for, once answered', async () => {
    const asked = await call(COSTLY);
    expect(asked.result?.resultType).toBe('input_required');
    const state = asked.result?.requestState;
    expect(state).toBeTypeOf('string');
    const before = sent();
    const confirmed = await call(COSTLY, { inputResponses: YES, requestState: state });
    expect(confirmed.result?.isError).toBeFalsy();
    expect(sent() - before).toBe(1);
  });

  it('does not confirm another call: that one is asked its own question', async () => {
    const asked = await call(COSTLY);
    const before = sent();
    const other = await call(OTHER, { inputResponses: YES, requestState: asked.result?.requestState });
    expect(other.result?.resultType).toBe('input_required');
    expect(other.result?.requestState).not.toBe(asked.result?.requestState);
    expect(sent()).toBe(before);
  });

  it('cannot be made up by a host: a state computed from the tool and arguments is not taken', async () => {
    const forged = `confirm.${createHash('sha256')
      .update(`${TOOL}|${canonicalParams(COSTLY)}`)
      .digest('base64url')}`;
    const before = sent();
    const result = await call(COSTLY, { inputResponses: YES, requestState: forged });
    expect(result.result?.resultType).toBe('input_required');
    expect(sent()).toBe(before);
  });
});
