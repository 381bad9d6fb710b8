/** The services' readiness without Redis: the SQLite ledger can be written, or why not. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createServices } from '../../src/services/index.js';
import { sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

describe('readiness', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'svc-mcp-ready-'));
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  it('services.ready() checks that the SQLite ledger can be written', async () => {
    const sandbox = await startTestSandbox();
    const services = await createServices(loadConfig({ ...sandboxEnv(sandbox), SVC_STATE_DIR: stateDir }));
    const blocked = join(stateDir, 'a-file');
    writeFileSync(blocked, '');
    const unwritable = await createServices(
      loadConfig({ ...sandboxEnv(sandbox), SVC_STATE_DIR: join(blocked, 'state') }),
    );
    try {
      expect(await services.ready()).toEqual({ ok: true, checks: { upstream: 'ok', ledger: 'ok' } });
      const notReady = await unwritable.ready();
      expect(notReady.ok).toBe(false);
      expect(notReady.checks.ledger).toMatch(/ENOTDIR/);
    } finally {
      await Promise.all([services.close(), unwritable.close()]);
      await sandbox.close();
    }
  });
});
