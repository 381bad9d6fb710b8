/**
 * The server collects its garbage once heavy work stops (src/idle-collection.ts): `svc-mcp http` as a
 * child, since V8's settings are the CLI's own (src/heap.ts), seen through the collections its
 * /metrics counts. Idle, a Node process collects nothing (without src/heap.ts's collections this
 * test sees none in its 10 s); after two 14 MB answers this one runs two without another call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/http.js';
import { sample } from '../helpers/metrics.js';
import { heavyCallsEnv, type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp, type HttpProcess, spawnHttpServer } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const HEAVY = { count: 10_000, interval: '5m', convert: 'USD,EUR,BTC,ETH' };

describe('collections when heavy work stops', () => {
  let sandbox: Sandbox;
  let server: HttpProcess;
  const stateDir = mkdtempSync(join(tmpdir(), 'svc-mcp-idle-'));

  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
    server = await spawnHttpServer(heavyCallsEnv(sandbox, { SVC_STATE_DIR: stateDir, SVC_CACHE: 'off' }));
  });
  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const majorCollections = async () => {
    const text = (await rawRequest(`${server.origin}/metrics`, { method: 'GET' })).text;
    return sample(text, 'nodejs_gc_duration_seconds_count', { kind: 'major' }) ?? 0;
  };

  it('two full collections a quiet spell after two large answers, with no call meanwhile', async () => {
    const session = await connectHttp(server, 'v2');
    try {
      for (let i = 0; i < 2; i++) {
        const answer = await session.call('get_global_metrics_historical', { ...HEAVY, format: 'json' });
        expect(answer.isError).toBeFalsy();
      }
      // Whatever V8 was collecting as the answers were handled has ended a second later.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const quiet = await majorCollections();
      await until(async () => (await majorCollections()) >= quiet + 2, 10_000);
    } finally {
      await session.close();
    }
  }, 40_000);
});
