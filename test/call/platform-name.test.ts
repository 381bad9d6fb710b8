/**
 * get_dex_platform's platformName is checked against what a platform name can be before anything
 * is sent: a line break, a query separator or a path costs no request and no credit.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { type InProcessSession, openInProcess } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const DETAIL = '/v1/dex/platform/detail';
let sandbox: Sandbox;
let session: InProcessSession;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false });
  session = await openInProcess(
    sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_NOW: NOW, SVC_CACHE: 'off' }),
  );
});
afterAll(async () => {
  await session?.close();
  await sandbox?.close();
});

it.each(['Solana\r\nX-Injected: 1', 'Solana&limit=5', '../key/info', 'Solana%0A', ''])(
  'platformName %j is refused naming the rule, nothing sent',
  async (platformName) => {
    const before = sandbox.stats.byPath.get(DETAIL) ?? 0;
    const result = await session.call('get_dex_platform', { platformName });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid value for "platformName"/);
    expect(result._meta).toMatchObject({ credits: 0 });
    expect(sandbox.stats.byPath.get(DETAIL) ?? 0).toBe(before);
  },
);

it('a real name with a space is sent and answered', async () => {
  const result = await session.call('get_dex_platform', { platformName: 'zkSync Era' });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(textOf(result)).toMatch(/^zkSync Era/);
});
