/**
 * Confirmation at its edges, with real clients and the sandbox counting what reached it: identical
 * costly calls at once with the cache on (each call answered, none left with another caller's
 * question), calls the guard refuses anyway (not put to the person), and a client that declares
 * only URL-mode elicitation (never asked a form question: its calls go on as before).
 */
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, childEnv, textOf } from '../helpers/cli.js';
import { openSession } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import type { Answerer, Session, SessionKind } from '../helpers/session.js';

const LISTINGS = '/v3/cryptocurrency/listings/latest';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());

const sent = () => sandbox.stats.byPath.get(LISTINGS) ?? 0;
const env = (more: Record<string, string> = {}) =>
  sandboxEnv(sandbox, 'sandbox-enterprise', {
    SVC_NOW: NOW,
    SVC_CONFIRM_CREDITS: '3',
    SVC_MAX_ANSWER_CHARS: '400000',
    ...more,
  });
const V2_KINDS: SessionKind[] = [
  { client: 'v2', transport: 'stdio' },
  { client: 'v2', transport: 'http' },
];

describe.each(V2_KINDS)('identical costly calls at once, the cache on: $client over $transport', (kind) => {
  let reply: 'accept' | 'decline' = 'accept';
  const person: Answerer = () =>
    reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  let asking: Session;
  let unaware: Session;
  beforeAll(async () => {
    [asking, unaware] = await Promise.all([openSession(kind, env(), person), openSession(kind, env())]);
  });
  afterAll(() => Promise.all([asking?.close(), unaware?.close()]));

  it('each call gets its own answer: one request, never an empty result', async () => {
    reply = 'accept';
    // Each round a limit of its own (a new cache key), each at least 3 credits.
    for (const limit of [600, 601, 602]) {
      const before = sent();
      const [text, json] = await Promise.all([
        asking.call('get_cryptocurrency_listings_latest', { limit }),
        asking.call('get_cryptocurrency_listings_latest', { limit, format: 'json' }),
      ]);
      expect(text.isError, textOf(text)).toBeFalsy();
      expect(textOf(text)).toMatch(/^Cryptocurrencies 1–\d+ by market_cap/);
      expect(json.isError, textOf(json)).toBeFalsy();
      expect(JSON.parse(textOf(json)).items.length).toBeGreaterThan(0);
      expect(sent() - before).toBe(1);
    }
  });

  it('a client that cannot be asked, beside a person who declines, is answered as before', async () => {
    reply = 'decline';
    for (const limit of [700, 701, 702]) {
      const [declined, plain] = await Promise.all([
        asking.call('get_cryptocurrency_listings_latest', { limit }),
        unaware.call('get_cryptocurrency_listings_latest', { limit }),
      ]);
      expect(textOf(declined)).toMatch(/^Not sent: the call was not confirmed|cryptocurrenc/i);
      expect(plain.isError, textOf(plain)).toBeFalsy();
      expect(textOf(plain)).toMatch(/^Cryptocurrencies 1–\d+ by market_cap/);
    }
  });
});

describe('calls the guard refuses anyway are not put to the person', () => {
  const CURRENCIES =
    'USD,AUD,BRL,CAD,CHF,CLP,CNY,CZK,DKK,EUR,GBP,HKD,HUF,IDR,ILS,INR,JPY,KRW,MXN,MYR,NOK,NZD,PHP,PKR,PLN,RUB,SEK,SGD,THB,TRY';
  const cases: { over: string; more: Record<string, string>; convert: string; refusal: RegExp }[] = [
    { over: 'the per-call limit (30 > 25)', more: {}, convert: CURRENCIES, refusal: /over the limit of 25/ },
    {
      over: 'the budget (12 > 5)',
      more: { SVC_CREDIT_BUDGET: '5', SVC_CACHE: 'off' },
      convert: CURRENCIES.split(',').slice(0, 12).join(','),
      refusal:
        /^Refused before sending: this call is estimated at 12 credits, but \d+ credits of the day's budget of 5 are left/,
    },
  ];
  for (const kind of V2_KINDS.slice(0, 1).concat([{ client: 'sdk1', transport: 'stdio' }])) {
    it.each(cases)(`over $over: refused with the guard's advice, not asked (${kind.client})`, async (c) => {
      const asked: string[] = [];
      const session = await openSession(kind, env(c.more), (message) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      });
      try {
        const result = await session.call('get_global_metrics_latest', { convert: c.convert });
        expect(result.isError).toBe(true);
        expect(textOf(result), textOf(result)).toMatch(c.refusal);
        expect(asked).toEqual([]);
      } finally {
        await session.close();
      }
    });
  }
});

describe('a client that declares only URL-mode elicitation', () => {
  const server = () => ({
    command: process.execPath,
    args: [CLI_PATH, 'stdio'],
    env: childEnv(env({ SVC_CACHE: 'off' })),
    stderr: 'ignore' as const,
  });
  const info = { name: 'url-only', version: '0' };
  const call = { name: 'get_cryptocurrency_listings_latest', arguments: { limit: 600 } };

  it('is never asked a form question: its costly calls go on as before, on both revisions', async () => {
    const v2 = new V2Client(info, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { url: {} } },
    });
    const sdk1 = new Sdk1Client(info, { capabilities: { elicitation: { url: {} } } });
    for (const [client, transport] of [
      [v2, new V2Stdio(server())],
      [sdk1, new Sdk1Stdio(server())],
    ] as const) {
      await (client as Sdk1Client).connect(transport as Sdk1Stdio);
      try {
        const before = sent();
        const result = (await (client as Sdk1Client).callTool(call)) as CallToolResult;
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(sent() - before).toBe(1);
      } finally {
        await (client as Sdk1Client).close();
      }
    }
  });
});
