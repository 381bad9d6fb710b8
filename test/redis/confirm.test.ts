/**
 * Replicas on one Redis seal confirmation questions with one shared key: a 2026-07-28 answer to a
 * question one replica asked confirms the call on another (a load balancer sends the retry where
 * it likes), and the key is set once, by the first replica to need it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services/index.js';
import { pairOf } from '../helpers/answers.js';
import { newStateDir } from '../helpers/cli.js';
import { openRaw, servicesFor } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { redisMissing, type SharedRedis, sharedRedis } from '../helpers/redis.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const missing = redisMissing();
const YES = { confirm: { action: 'accept', content: { confirm: true } } };
type Answer = { result?: { resultType?: string; requestState?: string; isError?: boolean } };

describe.skipIf(missing)('confirmation across replicas', () => {
  let redis: SharedRedis;
  let sandbox: Sandbox;
  const replicas: Services[] = [];
  beforeAll(async () => {
    redis = sharedRedis();
    sandbox = await startTestSandbox({ rateLimit: false });
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await servicesFor(
          sandboxEnv(sandbox, 'sandbox-enterprise', {
            SVC_NOW: NOW,
            SVC_CACHE: 'off',
            SVC_CONFIRM_CREDITS: '3',
            SVC_REDIS_URL: redis.url,
            SVC_REDIS_PREFIX: redis.prefix,
            SVC_STATE_DIR: newStateDir(),
          }),
        ),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await sandbox?.close();
  });

  it('a question asked on one replica is answered on the other', async () => {
    const [first, second] = pairOf(
      await Promise.all(
        replicas.map((services) => openRaw(services, 'modern', { elicitation: { form: {} } })),
      ),
      'sessions',
    );
    try {
      const call = { name: 'get_global_metrics_latest', arguments: { convert: 'USD,EUR,GBP' } };
      const asked = (await first.send({ method: 'tools/call', params: call })) as Answer;
      expect(asked.result?.resultType).toBe('input_required');
      const answered = (await second.send({
        method: 'tools/call',
        params: { ...call, inputResponses: YES, requestState: asked.result?.requestState },
      })) as Answer;
      expect(answered.result?.resultType).not.toBe('input_required');
      expect(answered.result?.isError).toBeFalsy();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
