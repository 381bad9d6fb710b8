/**
 * The file ledger under a stream of cache hits: hits wait a moment to share one write, and every
 * one of them reaches the file, however the waits and the writes interleave.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileLedger } from '../../src/guard/file-ledger.js';
import { until } from '../helpers/until.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the file holds: a second ledger over the same directory reads it, with nothing of its own queued. */
function onDisk(account: string) {
  return new FileLedger(dir).figures(account, 'day-2026-11-22');
}

describe('cache hits', () => {
  it('a hit after a long run of hits is written too, without any other change to carry it', async () => {
    const ledger = new FileLedger(dir);
    const hit = () => void ledger.recordHit('acct', 'day-2026-11-22', 'get_fear_and_greed_latest', 1);
    // Hits arriving faster than the file is written keep one write loop busy past the hits' wait.
    const stopAt = Date.now() + 1_200;
    let sent = 0;
    while (Date.now() < stopAt) {
      hit();
      sent++;
      // Pacing: a hit every millisecond or so, for the write loop to fall behind.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await until(async () => (await onDisk('acct')).cache_hits === sent);
    // Then a lone hit, once everything is quiet.
    hit();
    await until(async () => (await onDisk('acct')).cache_hits === sent + 1);
  });
});

describe('a directory whose ledger a newer Node moved to SQLite', () => {
  it('is refused by name, never started again from zero', async () => {
    const moved = mkdtempSync(join(dir, 'moved-'));
    writeFileSync(join(moved, 'ledger.sqlite'), 'a database of a newer Node');
    const ledger = new FileLedger(moved);
    await expect(ledger.figures('acct', 'day-2026-11-22')).rejects.toThrow(
      `The credit ledger at ${join(moved, 'ledger.sqlite')} is damaged (it is kept in SQLite, which this Node cannot open: run the server on Node 22.13 or later, or install better-sqlite3 beside it)`,
    );
    await expect(ledger.reserve({ account: 'acct', window: 'total', tool: 't', amount: 1 })).rejects.toThrow(
      /kept in SQLite/,
    );
  });
});
