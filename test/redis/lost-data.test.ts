/**
 * A Redis that loses the ledger's data (FLUSHALL here; a restart without persistence or eviction
 * look the same) is noticed through the ledger's marker: budgeted calls are refused saying what
 * happened and what to do, /readyz is 503, nothing counts again from zero, and setting the marker
 * by hand starts afresh. A new deployment (state directories that remember no marker for this
 * Redis) needs no step at all. A replica remembers the marker in its state directory, so one
 * restarted after Redis lost its data notices too.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLedger } from '../../src/guard/redis-ledger.js';
import { SILENT_LOG } from '../../src/ops/logs.js';
import { RedisConnection } from '../../src/redis.js';
import { textOf } from '../helpers/cli.js';
import { rawRequest } from '../helpers/http.js';
import { startHttpServer, startMcp } from '../helpers/in-process.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { connectHttp } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const missing = redisMissing();

describe.skipIf(missing)('the ledger on a Redis that lost its data', () => {
  let redis: TestRedis;
  let admin: RedisConnection;
  const stateRoot = mkdtempSync(join(tmpdir(), 'svc-mcp-lost-'));

  beforeAll(async () => {
    redis = await startRedis();
    admin = new RedisConnection(redis.url, 'admin', SILENT_LOG);
  });
  afterAll(async () => {
    await admin?.close();
    await redis?.close();
    rmSync(stateRoot, { recursive: true, force: true });
  });

  const flushAll = () => admin.use((r) => r.flushall());
  const setByHand = (key: string, value: string) => admin.use((r) => r.set(key, value));

  describe('replicas serving calls', () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await startTestSandbox({ rateLimit: false });
    });
    afterAll(() => sandbox?.close());

    const requests = (path: string) => sandbox.stats.byPath.get(path) ?? 0;
    const env = (prefix = 'lost', stateDir = mkdtempSync(join(stateRoot, 'replica-'))) =>
      sandboxEnv(sandbox, 'sandbox-enterprise', {
        SVC_REDIS_URL: redis.url,
        SVC_REDIS_PREFIX: prefix,
        SVC_CREDIT_BUDGET: '100',
        SVC_CREDIT_WINDOW: 'total',
        SVC_STATE_DIR: stateDir,
      });
    const readyz = async (origin: string) => {
      const response = await rawRequest(`${origin}/readyz`, { method: 'GET' });
      return {
        status: response.status,
        body: JSON.parse(response.text) as { checks: Record<string, string> },
      };
    };

    it('FLUSHALL: budgeted calls refused saying what happened and what to do, /readyz 503; the marker set by hand starts afresh', async () => {
      const server = await startHttpServer(env());
      const session = await connectHttp(server, 'v2');
      try {
        // A new deployment: no step needed.
        const first = await session.call('get_fear_and_greed_latest');
        expect(first.isError, textOf(first)).toBeFalsy();
        expect((await readyz(server.origin)).status).toBe(200);

        await flushAll();
        const path = '/v3/fear-and-greed/historical';
        const before = requests(path);
        const refused = await session.call('get_fear_and_greed_historical');
        expect(refused.isError).toBe(true);
        const text = textOf(refused);
        expect(text).toMatch(
          /^The credit ledger at redis:\/\/127\.0\.0\.1:\d+\/0 \(keys lost:ledger:\*\) has lost its data/,
        );
        expect(text).toMatch(/its marker lost:ledger:marker was gone at \d{4}-\d\d-\d\dT/);
        expect(text).toMatch(/refused rather than counted again from zero/);
        expect(text).toContain('redis-cli SET lost:ledger:marker "fresh start"');
        expect(text).toMatch(/appendonly yes and maxmemory-policy noeviction/);
        expect(requests(path)).toBe(before);
        const usage = await session.call('get_credit_usage');
        expect(usage.structuredContent?.problem).toMatch(/has lost its data/);
        await until(async () => (await readyz(server.origin)).status === 503, 5_000);
        expect((await readyz(server.origin)).body.checks.ledger).toMatch(/has lost its data/);
        expect(server.stderr().match(/The credit ledger on Redis lost its data/g)).toHaveLength(1);

        // A replica started now, which never saw the marker, is stopped too: it does not take the
        // empty Redis for a new deployment.
        const late = await startMcp(env());
        try {
          const lateRefusal = await late.call('get_fear_and_greed_historical');
          expect(textOf(lateRefusal)).toMatch(/has lost its data/);
          expect(requests(path)).toBe(before);

          await setByHand('lost:ledger:marker', 'fresh start');
          for (const replica of [session, late]) {
            const answered = await replica.call('get_fear_and_greed_historical');
            expect(answered.isError, textOf(answered)).toBeFalsy();
          }
          await until(async () => (await readyz(server.origin)).status === 200, 5_000);
        } finally {
          await late.close();
        }
      } finally {
        await session.close();
        await server.stop();
      }
    });

    it('a replica restarted with its state directory, on a Redis emptied while no replica ran, refuses budgeted calls; after the marker is set by hand it remembers the new one', async () => {
      const stateDir = mkdtempSync(join(stateRoot, 'restarted-'));
      const path = '/v3/fear-and-greed/historical';
      const replica = async () => {
        const server = await startHttpServer(env('restart', stateDir));
        return { server, session: await connectHttp(server, 'v2') };
      };
      const stop = async ({ server, session }: Awaited<ReturnType<typeof replica>>) => {
        await session.close();
        await server.stop();
      };

      const before = await replica();
      const first = await before.session.call('get_fear_and_greed_historical');
      expect(first.isError, textOf(first)).toBeFalsy();
      await stop(before);

      // Redis loses its data while no replica runs (a host restarted with Redis not persisting).
      await flushAll();
      const after = await replica();
      try {
        const sent = requests(path);
        const refused = await after.session.call('get_fear_and_greed_historical');
        expect(textOf(refused)).toMatch(/its marker restart:ledger:marker was gone at /);
        expect(textOf(refused)).toMatch(/refused rather than counted again from zero/);
        expect(requests(path)).toBe(sent);
        await until(async () => (await readyz(after.server.origin)).status === 503, 5_000);
        // The operator is told which file made it so (another Redis at this address would look the same).
        expect(after.server.stderr()).toMatch(/"remembered":"[^"]*redis-marker-[0-9a-f]{16}\.json"/);

        await setByHand('restart:ledger:marker', 'fresh start');
        const answered = await after.session.call('get_fear_and_greed_historical');
        expect(answered.isError, textOf(answered)).toBeFalsy();
      } finally {
        await stop(after);
      }
      // Restarted again, it vouches for the marker set by hand.
      const again = await replica();
      try {
        const answered = await again.session.call('get_fear_and_greed_historical');
        expect(answered.isError, textOf(answered)).toBeFalsy();
      } finally {
        await stop(again);
      }
      // The one file the replica keeps for this Redis and prefix: the marker's hash, never the marker.
      const files = readdirSync(stateDir).filter((name) => name.startsWith('redis-marker-'));
      expect(files).toHaveLength(1);
      expect(JSON.parse(readFileSync(join(stateDir, files[0]!), 'utf8'))).toEqual({
        redis: expect.stringMatching(/^redis:\/\/127\.0\.0\.1:\d+\/0 \(keys restart:ledger:\*\)$/),
        sha1: createHash('sha1').update('fresh start').digest('hex'),
        at: expect.any(String),
      });
    });
  });

  describe('the marker, replica by replica', () => {
    const connections: RedisConnection[] = [];
    afterAll(() => Promise.all(connections.map((c) => c.close())));
    const ledgerOn = (prefix: string, stateDir?: string, log = SILENT_LOG) => {
      const connection = new RedisConnection(redis.url, prefix, log);
      connections.push(connection);
      return new RedisLedger(connection, { stateDir });
    };
    const call = { account: 'key:0123456789abcdef', window: 'total', tool: 't', amount: 1, budget: 10 };

    it('a replica that starts on the emptied Redis before the others look cannot tell; the others can, and stop every replica', async () => {
      const old = ledgerOn('race');
      expect((await old.reserve(call)).ok).toBe(true);
      await flushAll();
      // The newcomer takes the empty Redis for a new deployment: the limitation docs/team.md states.
      const newcomer = ledgerOn('race');
      expect((await newcomer.reserve(call)).ok).toBe(true);
      // The replica that knew the old marker sees it replaced, and from then on every replica refuses.
      await expect(old.reserve(call)).rejects.toThrow(
        /its marker race:ledger:marker was replaced by a new one/,
      );
      await expect(newcomer.reserve(call)).rejects.toThrow(/has lost its data/);
      await expect(newcomer.figures(call.account, call.window)).rejects.toThrow(/has lost its data/);
      await expect(newcomer.check()).rejects.toThrow(/has lost its data/);

      await setByHand('race:ledger:marker', 'fresh start 2026-11-23');
      expect((await old.reserve(call)).ok).toBe(true);
      expect((await newcomer.reserve(call)).ok).toBe(true);
      await Promise.all([old.close(), newcomer.close()]);
    });

    it('a ledger kept by a version without the marker goes on, its totals intact', async () => {
      const earlier = ledgerOn('upgrade');
      expect((await earlier.reserve(call)).ok).toBe(true);
      await earlier.close();
      // As a deployment from before the marker would have it: totals, no marker.
      await admin.use((r) => r.del('upgrade:ledger:marker'));
      const upgraded = ledgerOn('upgrade');
      expect((await upgraded.reserve(call)).ok).toBe(true);
      const { spent, reserved } = await upgraded.figures(call.account, call.window);
      expect(spent + reserved).toBe(2);
      await upgraded.close();
    });

    it('a damaged marker file is said once and written afresh; the ledger goes on', async () => {
      const stateDir = mkdtempSync(join(stateRoot, 'damaged-'));
      const first = ledgerOn('damaged', stateDir);
      expect((await first.reserve(call)).ok).toBe(true);
      await first.close();
      const [name] = readdirSync(stateDir).filter((n) => n.startsWith('redis-marker-'));
      expect(name, 'the marker file').toBeDefined();
      const file = join(stateDir, name as string);
      writeFileSync(file, '{"sha1": "not a hash"');
      const warnings: { fields: Record<string, unknown>; message: string }[] = [];
      const log = {
        ...SILENT_LOG,
        warn: (fields: Record<string, unknown>, message: string) => {
          warnings.push({ fields, message });
        },
      };
      const restarted = ledgerOn('damaged', stateDir, log);
      expect((await restarted.reserve(call)).ok).toBe(true);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toMatch(/marker file could not be read/);
      expect(warnings[0]!.fields.path).toBe(file);
      expect(JSON.parse(readFileSync(file, 'utf8')).sha1).toMatch(/^[0-9a-f]{40}$/);
      // Written aside and renamed: nothing is left beside it.
      expect(readdirSync(stateDir)).toEqual([name]);
      await restarted.close();
    });

    it('two prefixes keep a file each in one state directory; a state directory that cannot be written is said once, and the ledger goes on', async () => {
      const shared = mkdtempSync(join(stateRoot, 'shared-'));
      const [one, two] = [ledgerOn('first', shared), ledgerOn('second', shared)];
      expect((await one.reserve(call)).ok).toBe(true);
      expect((await two.reserve(call)).ok).toBe(true);
      expect(readdirSync(shared).filter((n) => n.startsWith('redis-marker-'))).toHaveLength(2);
      await Promise.all([one.close(), two.close()]);
      expect((await ledgerOn('first', shared).reserve(call)).ok).toBe(true);

      // A "directory" under a regular file: neither read nor written, whoever runs the test.
      const notADirectory = join(shared, readdirSync(shared)[0]!, 'state');
      const warnings: string[] = [];
      const log = {
        ...SILENT_LOG,
        warn: (_: Record<string, unknown>, message: string) => void warnings.push(message),
      };
      const unremembered = ledgerOn('third', notADirectory, log);
      expect((await unremembered.reserve(call)).ok).toBe(true);
      expect((await unremembered.reserve(call)).ok).toBe(true);
      expect(warnings).toEqual([expect.stringMatching(/marker file could not be read/)]);
      await unremembered.close();
    });
  });
});
