/**
 * Confirmation for costly calls (SVC_CONFIRM_CREDITS): real clients of both generations, over
 * stdio and HTTP, whose person accepts or declines; the sandbox counts what reached it and the
 * ledger what was charged. A declined call sends and charges nothing; a client without
 * elicitation is never asked, nor is a 2025 client over HTTP: each of its requests meets a server
 * of its own, with no session to carry a question back (a 2026-07-28 client gets it in the answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { openSession } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { type Answerer, kindLabel, SESSION_KINDS, type Session } from '../helpers/session.js';

const LISTINGS = '/v3/cryptocurrency/listings/latest';
/** 600 rows at 1 credit per 200: 3 credits, at the threshold (the largest answers carry 600 rows). */
const COSTLY = { limit: 600 };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
});
afterAll(() => sandbox?.close());

const sent = () => sandbox.stats.byPath.get(LISTINGS) ?? 0;

async function spentOf(session: Session): Promise<number> {
  const usage = await session.call('get_credit_usage');
  return (usage.structuredContent as { spent: number }).spent;
}

const ASKABLE = SESSION_KINDS.filter((kind) => !(kind.client === 'sdk1' && kind.transport === 'http'));

describe.each(ASKABLE)('$client over $transport', (kind) => {
  const asked: string[] = [];
  let reply: 'accept' | 'decline' = 'accept';
  const person: Answerer = (message) => {
    asked.push(message);
    return reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  };
  let session: Session;
  let unaware: Session;
  beforeAll(async () => {
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_NOW: NOW,
      SVC_CACHE: 'off',
      SVC_CONFIRM_CREDITS: '3',
      SVC_MAX_ANSWER_CHARS: '400000',
      SVC_CREDIT_BUDGET: '1000',
    });
    [session, unaware] = await Promise.all([openSession(kind, env, person), openSession(kind, env)]);
  });
  afterAll(async () => {
    await Promise.all([session?.close(), unaware?.close()]);
  });

  it('asks before a costly call, with the estimate and what is left, and sends it once accepted', async () => {
    reply = 'accept';
    asked.length = 0;
    const before = sent();
    const spent = await spentOf(session);
    const result = await session.call('get_cryptocurrency_listings_latest', COSTLY);
    expect(result.isError, `${kindLabel(kind)}: ${textOf(result)}`).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/estimated at 3 credits\. [\d,]+ credits left for the day\./);
    expect(asked[0]).toMatch(/For less: send limit=400 or less\. Send it\?$/);
    expect(sent() - before).toBe(1);
    // Charged what the sandbox answered: its 231 assets, 2 credits (the estimate was the most, 3).
    expect(await spentOf(session)).toBe(spent + 2);
  });

  it('declined: refused, nothing sent, nothing charged', async () => {
    reply = 'decline';
    asked.length = 0;
    const before = sent();
    const spent = await spentOf(session);
    const result = await session.call('get_cryptocurrency_listings_latest', COSTLY);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Not sent: the call was not confirmed \(estimated at 3 credits/);
    // What would be sent without the question: no budget is short, so nothing is to "fit".
    expect(textOf(result)).toMatch(
      / Nothing was charged\. For less, sent without asking: send limit=400 or less\.$/,
    );
    expect(asked).toHaveLength(1);
    expect(sent()).toBe(before);
    expect(await spentOf(session)).toBe(spent);
  });

  it('a cheaper call, and a client that cannot be asked, go on as before', async () => {
    asked.length = 0;
    const cheap = await session.call('get_cryptocurrency_listings_latest', { limit: 200 });
    expect(cheap.isError, textOf(cheap)).toBeFalsy();
    const before = sent();
    const plain = await unaware.call('get_cryptocurrency_listings_latest', COSTLY);
    expect(plain.isError, textOf(plain)).toBeFalsy();
    expect(sent() - before).toBe(1);
    expect(asked).toHaveLength(0);
  });
});

describe.each(ASKABLE.filter((kind) => kind.client === 'v2'))(
  'a 2026-07-28 answer counts only for the call it answered: $client over $transport',
  (kind) => {
    const asked: string[] = [];
    let session: Session;
    beforeAll(async () => {
      const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_CACHE: 'off',
        SVC_CONFIRM_CREDITS: '3',
        SVC_MAX_ANSWER_CHARS: '400000',
      });
      session = await openSession(kind, env, (message) => {
        asked.push(message);
        return { action: 'decline' };
      });
    });
    afterAll(() => session?.close());

    it('a yes sent unasked, or with the state of another question, is not taken: the person is asked', async () => {
      const yes = { confirm: { action: 'accept', content: { confirm: true } } };
      for (const params of [
        { inputResponses: yes },
        { inputResponses: yes, requestState: 'confirm.another-call' },
      ]) {
        asked.length = 0;
        const before = sent();
        const result = await session.call('get_cryptocurrency_listings_latest', COSTLY, { params });
        expect(result.isError, `${JSON.stringify(params)}: ${textOf(result)}`).toBe(true);
        expect(textOf(result)).toMatch(/^Not sent: the call was not confirmed/);
        expect(asked).toHaveLength(1);
        expect(sent()).toBe(before);
      }
    });
  },
);

describe('a 2025 client over HTTP', () => {
  it('is not asked: the call goes on as before', async () => {
    const asked: string[] = [];
    const env = sandboxEnv(sandbox, 'sandbox-enterprise', {
      SVC_CACHE: 'off',
      SVC_CONFIRM_CREDITS: '3',
      SVC_MAX_ANSWER_CHARS: '400000',
    });
    const session = await openSession({ client: 'sdk1', transport: 'http' }, env, (message) => {
      asked.push(message);
      return { action: 'decline' };
    });
    try {
      const before = sent();
      const result = await session.call('get_cryptocurrency_listings_latest', COSTLY);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(sent() - before).toBe(1);
      expect(asked).toHaveLength(0);
    } finally {
      await session.close();
    }
  });
});
