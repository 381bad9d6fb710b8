/**
 * Every upstream failure's message, kind by kind and code by code: no sentence said twice, and
 * every setting it names exists and is one that would help in that case.
 */
import { describe, expect, it } from 'vitest';
import { settingsDoc } from '../../src/config/index.js';
import { TIMEOUT_MS } from '../../src/time-bounds.js';
import { describeUpstreamError, type ErrorContext, UpstreamError } from '../../src/upstream/errors.js';

const KNOWN_SETTINGS = new Set<string>(settingsDoc().map((setting) => setting.env));

interface Case {
  name: string;
  error: () => UpstreamError;
  /** The settings the advice may name: each would help here. */
  helps: string[];
  /** The same when the caller brought the key (HTTP). */
  helpsCallerKey?: string[];
}

const http = (status: number, code: number | undefined, detail: string, retryAfter?: number) => () =>
  new UpstreamError('http', status, code, detail, retryAfter);
const failure = (kind: UpstreamError['kind'], detail: string) => () =>
  new UpstreamError(kind, undefined, undefined, detail);

const CASES: Case[] = [
  {
    name: 'timeout',
    error: failure('timeout', 'The service did not answer within 10 s'),
    helps: ['SVC_TIMEOUT_MS'],
  },
  // undici's own timeouts, which say no duration.
  {
    name: 'timeout (undici)',
    error: failure('timeout', 'The service did not answer in time'),
    helps: ['SVC_TIMEOUT_MS'],
  },
  {
    name: 'network',
    error: failure('network', 'The connection to the service at api.example.com failed (ECONNREFUSED)'),
    helps: ['SVC_BASE_URL'],
  },
  {
    name: 'malformed',
    error: failure('malformed', 'The service sent a body that is not valid JSON'),
    helps: [],
  },
  {
    name: 'too_large',
    error: failure('too_large', "The service's answer is larger than 32 MiB; reading stopped there"),
    helps: [],
  },
  { name: 'cancelled', error: failure('cancelled', 'The call was cancelled'), helps: [] },
  {
    name: '1001',
    error: http(401, 1001, 'This API key is invalid.'),
    helps: ['SVC_API_KEY'],
    helpsCallerKey: [],
  },
  {
    name: '1002',
    error: http(401, 1002, 'API key missing.'),
    helps: ['SVC_API_KEY', 'SVC_API_KEY_HEADER'],
    helpsCallerKey: ['SVC_API_KEY_HEADER'],
  },
  { name: '1003', error: http(402, 1003, 'Your API Key must be activated.'), helps: [] },
  { name: '1004', error: http(402, 1004, "Your API Key's subscription plan has expired."), helps: [] },
  {
    name: '1005',
    error: http(401, 1005, 'An API Key is required for this call.'),
    helps: ['SVC_API_KEY'],
    helpsCallerKey: [],
  },
  {
    name: '1006 naming the plans',
    error: http(
      403,
      1006,
      'Your plan (Basic) does not include this path; plans that include it: Startup, Standard.',
    ),
    helps: ['SVC_PLAN'],
  },
  { name: '1006 bare', error: http(403, 1006, 'Plan not authorized.'), helps: ['SVC_PLAN'] },
  { name: '1007', error: http(403, 1007, 'This API Key has been disabled.'), helps: [] },
  {
    name: '1008',
    error: http(429, 1008, "You've exceeded your API Key's HTTP request rate limit.", 12),
    helps: [],
  },
  { name: '1009', error: http(429, 1009, "You've exceeded your API Key's daily credit limit."), helps: [] },
  { name: '1010', error: http(429, 1010, "You've exceeded your API Key's monthly credit limit."), helps: [] },
  { name: '1011', error: http(429, 1011, "You've hit an IP rate limit."), helps: [] },
  { name: '400', error: http(400, 400, '"id" is not allowed to be empty'), helps: [] },
  { name: '404', error: http(404, undefined, 'HTTP 404'), helps: ['SVC_BASE_URL'] },
  { name: '500', error: http(500, 500, 'An internal server error occurred'), helps: [] },
  { name: '200 with an error code', error: http(200, 400, 'Invalid value for "convert"'), helps: [] },
  { name: 'an empty message', error: http(503, undefined, ''), helps: [] },
];

const CONTEXTS: { name: string; context: ErrorContext }[] = [
  {
    name: 'key from SVC_API_KEY',
    context: { plans: ['Startup', 'Standard'], timeoutMs: 10_000, keyFromCaller: false },
  },
  {
    name: 'key from the caller',
    context: { plans: ['Startup', 'Standard'], timeoutMs: 10_000, keyFromCaller: true },
  },
];

/** The message's sentences and clauses, compared without case or closing punctuation. */
function clauses(text: string): string[] {
  return text
    .split(/[.;](?:\s+|$)/)
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

describe('describeUpstreamError', () => {
  for (const { name: contextName, context } of CONTEXTS) {
    for (const testCase of CASES) {
      for (const attempts of [1, 3]) {
        it(`${testCase.name}, ${contextName}, ${attempts} attempt(s): each sentence once, only settings that help`, () => {
          const error = testCase.error();
          error.attempts = attempts;
          const text = describeUpstreamError(error, { ...context, now: new Date('2026-11-22T12:00:30Z') });
          const said = clauses(text);
          expect(new Set(said).size, text).toBe(said.length);
          const named = [...new Set(text.match(/SVC_[A-Z_]+/g) ?? [])];
          for (const setting of named) expect(KNOWN_SETTINGS.has(setting), setting).toBe(true);
          const helps = context.keyFromCaller ? (testCase.helpsCallerKey ?? testCase.helps) : testCase.helps;
          expect(named.sort(), text).toEqual([...helps].sort());
          expect(text).toMatch(/[.)]$/);
        });
      }
    }
  }

  it('a timeout at the longest SVC_TIMEOUT_MS allowed names no setting, as none would help', () => {
    const error = new UpstreamError(
      'timeout',
      undefined,
      undefined,
      'The service did not answer within 2 min',
    );
    const text = describeUpstreamError(error, { plans: [], timeoutMs: TIMEOUT_MS.max, keyFromCaller: false });
    expect(text).not.toMatch(/SVC_/);
    expect(text).toMatch(/^The service did not answer within 2 min\. /);
  });

  it('a 1006 on a plan (SVC_PLAN) that has the endpoint names no setting: the plan is set, its depth is the matter', () => {
    const error = new UpstreamError(
      'http',
      403,
      1006,
      'Your plan (Basic) includes 1 month of global metrics history; this request reaches back further',
    );
    const context = { plans: ['Basic', 'Standard'], timeoutMs: 10_000, keyFromCaller: false };
    expect(describeUpstreamError(error, { ...context, plan: 'Basic' })).not.toMatch(/SVC_/);
    expect(describeUpstreamError(error, { ...context, plan: 'Hobbyist' })).toMatch(/SVC_PLAN/);
  });

  it('a timeout below the maximum says the current value and how far it may go', () => {
    const error = new UpstreamError('timeout', undefined, undefined, 'The service did not answer within 3 s');
    error.attempts = 2;
    const text = describeUpstreamError(error, { plans: [], timeoutMs: 3_000, keyFromCaller: false });
    expect(text).toBe(
      `The service did not answer within 3 s (after 2 attempts). Try again shortly; if the service is this slow, raise SVC_TIMEOUT_MS (now 3000, at most ${TIMEOUT_MS.max}).`,
    );
  });
});
