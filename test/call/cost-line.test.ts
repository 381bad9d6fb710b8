/**
 * What a text answer's last line says: what the call cost and where its data came from, in words a
 * model can repeat to a person (hosts do not show `_meta` to the model). Refusals and errors carry
 * `_meta` too. Counts are written in the singular for one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const lastLine = (text: string) => text.split('\n').at(-1);

describe('the embedded sandbox', () => {
  let session: InProcessSession;
  beforeAll(async () => {
    session = await openInProcess({ SVC_TOOLSETS: 'all', SVC_CREDIT_BUDGET: '100' });
  });
  afterAll(() => session?.close());

  it('a fresh answer ends with its cost and the sandbox, on one line', async () => {
    const result = await session.call('get_fear_and_greed_latest');
    const text = textOf(result);
    expect(lastLine(text)).toBe('1 credit · sandbox data');
    expect(text).not.toContain('[sandbox data]');
    expect(result._meta).toMatchObject({ credits: 1, cached: false, sandbox: true });
  });

  it('a cached answer says so, free, with its age, in place of a line of its own', async () => {
    const text = textOf(await session.call('get_fear_and_greed_latest'));
    expect(lastLine(text)).toMatch(/^from the cache, 0 credits · \d+ s old · sandbox data$/);
    expect(text).not.toContain('cached answer');
  });

  it('a call of several credits counts them in the plural', async () => {
    const result = await session.call('get_cryptocurrency_quotes_latest', {
      symbol: 'BTC',
      convert: 'USD,EUR',
    });
    expect(lastLine(textOf(result))).toBe('2 credits · sandbox data');
  });

  it('a local tool costs nothing and says so', async () => {
    const text = textOf(await session.call('get_credit_usage'));
    expect(lastLine(text)).toBe('0 credits · sandbox data');
    expect(text).toContain('1 cache hit saved 1 credit;');
    // Two calls of fear and greed, the second from the cache: both are calls.
    expect(text).toMatch(/^get_fear_and_greed_latest \| 2 \| 1 \| 1$/m);
  });

  it('an invalid call and a refused one carry _meta with credits 0', async () => {
    const invalid = await session.call('get_fear_and_greed_historical', { limit: 0 });
    expect(invalid.isError).toBe(true);
    expect(invalid._meta).toMatchObject({ credits: 0 });
    const convert = Array.from({ length: 30 }, (_, i) => `C${i}`).join(',');
    const refused = await session.call('get_cryptocurrency_quotes_latest', { symbol: 'BTC', convert });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/per call/);
    expect(refused._meta).toMatchObject({ credits: 0 });
    const unknown = await session.call('get_nothing');
    expect(unknown._meta).toMatchObject({ credits: 0 });
  });

  it('estimate_cost counts one credit in the singular', async () => {
    const text = textOf(
      await session.call('estimate_cost', { calls: [{ tool: 'get_fear_and_greed_historical' }] }),
    );
    expect(text.split('\n')[0]).toBe('1 planned call: 1 credit in all.');
  });

  it('the gainers table names its first column as the market-cap rank, not a position', async () => {
    const text = textOf(await session.call('get_gainers_losers', { limit: 5 }));
    const header = text.split('\n').find((line) => line.includes(' | Asset | '));
    expect(header?.split(' | ')[0]).toBe('Market-cap rank');
  });
});

describe('the service, not the sandbox', () => {
  let sandbox: Sandbox;
  let session: InProcessSession;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    session = await openInProcess(sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_NOW: NOW }));
  });
  afterAll(async () => {
    await session?.close();
    await sandbox?.close();
  });

  it('an answer from the service says its cost alone', async () => {
    const text = textOf(await session.call('get_fear_and_greed_latest'));
    expect(lastLine(text)).toBe('1 credit');
  });
});
