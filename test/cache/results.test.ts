/**
 * The file result store's bound: what the directory holds stays within it, the least recently used
 * result out first, free results (a query's rows) before paid ones and within a quarter of it, and
 * results other processes wrote are counted within the scan interval; the last result read is held
 * a moment for its owner.
 */
import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileResultStore } from '../../src/cache/file-results.js';
import type { StoredResult } from '../../src/cache/result-format.js';
import { revive } from '../../src/kept/revive.js';
import { MAX_ANSWER_BYTES } from '../../src/upstream/request.js';
import { newStateDir } from '../helpers/cli.js';
import { until } from '../helpers/until.js';

/** A result whose file is about `kb` KB. */
function result(kb: number): StoredResult {
  return {
    tool: 'get_cryptocurrency_listings_latest',
    owner: 'account-a',
    params: { limit: 5000 },
    data: { padding: 'x'.repeat(kb * 1024) },
    fetchedAt: 0,
  };
}

/** What the directory holds: every result's id, their bytes, and the ids of the free ones. */
function held(stateDir: string): { ids: string[]; bytes: number; free: string[] } {
  const dir = join(stateDir, 'results');
  const files = readdirSync(dir).filter((name) => name.endsWith('.result'));
  const idOf = (name: string) => name.replace(/(\.free)?\.result$/, '');
  return {
    ids: files.map(idOf).sort(),
    bytes: files.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0),
    free: files
      .filter((name) => name.endsWith('.free.result'))
      .map(idOf)
      .sort(),
  };
}

/** Sets a kept result's last use `secondsAgo` before now, as a use long past would have left it. */
function usedAgo(stateDir: string, id: string, secondsAgo: number): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(join(stateDir, 'results', `${id}.result`), when, when);
}

const BOUND = { mostBytes: 10 * 1024, scanEveryMs: 10_000 };

let ids = 0;
/** Keeps a result of about `kb` KB under a new id (a free one, made by `owner`): the id. */
async function put(store: FileResultStore, kb: number, free?: { owner: string }): Promise<string> {
  const id = `result-${String(++ids).padStart(9, '0')}`;
  const made = free ? { ...result(kb), owner: free.owner, free: true } : result(kb);
  expect(await store.put(id, made, Date.now() + 60_000)).toBe(true);
  return id;
}

describe('the file result store', () => {
  it('stays within its bound, the least recently used result out first', async () => {
    const stateDir = newStateDir();
    const store = new FileResultStore(stateDir, revive, BOUND);
    const a = await put(store, 4);
    const b = await put(store, 4);
    usedAgo(stateDir, a, 20);
    usedAgo(stateDir, b, 10);
    // A read is a use: `a` is now the most recent, so `b` goes first.
    expect(await store.get(a, 'account-a')).toMatchObject({ params: { limit: 5000 } });
    const c = await put(store, 4);
    expect(held(stateDir).ids).toEqual([a, c].sort());
    expect(held(stateDir).bytes).toBeLessThanOrEqual(BOUND.mostBytes);
    // Another process (this one still has `b` parsed in memory, which serves it until it expires).
    const another = new FileResultStore(stateDir, revive, BOUND);
    expect(await another.get(b, 'account-a')).toBeUndefined();
    expect(await another.get(c, 'account-a')).toBeDefined();
  });

  it("counts another process's results at the latest one scan interval later", async () => {
    const stateDir = newStateDir();
    let now = 1_000_000;
    const ours = new FileResultStore(stateDir, revive, BOUND, () => now);
    const theirs = new FileResultStore(stateDir, revive, BOUND, () => now);
    const first = await put(ours, 1);
    usedAgo(stateDir, first, 60);
    for (let i = 0; i < 2; i++) await put(theirs, 4);
    // Within the interval a put reads nothing: it knows only what it wrote itself.
    now += BOUND.scanEveryMs - 1;
    await put(ours, 1);
    expect(held(stateDir).bytes).toBeGreaterThan(BOUND.mostBytes);
    // At the interval it reads the directory again, beside the put, and once read removes the
    // least recently used.
    now += 1;
    await put(ours, 1);
    await until(() => held(stateDir).bytes <= BOUND.mostBytes);
    expect(held(stateDir).ids).not.toContain(first);
  });

  it('keeps an answer as large as the client reads, its first line aside; one byte more is not kept', async () => {
    const store = new FileResultStore(newStateDir(), revive);
    const answer = (bytes: number) => ({ bytes: Buffer.alloc(bytes, 0x20), nowMs: 0 });
    const expires = Date.now() + 60_000;
    const largest = { ...result(0), answer: answer(MAX_ANSWER_BYTES) };
    expect(await store.put('result-largest-0', largest, expires)).toBe(true);
    const over = { ...result(0), answer: answer(MAX_ANSWER_BYTES + 1) };
    expect(await store.put('result-over-0000', over, expires)).toBe(false);
  });

  it('holds the last result it read a moment, for its owner only, until the result expires', async () => {
    const stateDir = newStateDir();
    let now = Date.now();
    const ours = new FileResultStore(stateDir, revive, BOUND, () => now);
    const theirs = new FileResultStore(stateDir, revive, BOUND, () => now);
    const id = await put(ours, 1);
    expect(await theirs.get(id, 'account-a')).toMatchObject({ params: { limit: 5000 } });
    // Read once: the next pages come from memory, the store's bound having dropped it meanwhile.
    rmSync(join(stateDir, 'results', `${id}.result`));
    expect(await theirs.get(id, 'account-a')).toMatchObject({ params: { limit: 5000 } });
    expect(await theirs.get(id, 'account-b')).toBeUndefined();
    // At the expiry put gave it (60 s after the put, on the real clock), or later.
    now = Date.now() + 60_000;
    expect(await theirs.get(id, 'account-a')).toBeUndefined();
  });

  it('holds free results within a quarter of its bound, out first, never pushing out a paid one', async () => {
    const stateDir = newStateDir();
    const store = new FileResultStore(stateDir, revive, { mostBytes: 40 * 1024, scanEveryMs: 10_000 });
    const paid = [await put(store, 9), await put(store, 9), await put(store, 9)];
    for (const [i, id] of paid.entries()) usedAgo(stateDir, id, 100 - i);
    // A stranger's twenty free results of 4 KB: a share of 10 KB holds the last two.
    const free: string[] = [];
    for (let i = 0; i < 20; i++) free.push(await put(store, 4, { owner: 'made-up' }));
    expect(held(stateDir).free).toEqual(free.slice(-2));
    expect(held(stateDir).ids).toEqual(expect.arrayContaining(paid));
    expect(await store.get(paid[0] as string, 'account-a')).toMatchObject({ params: { limit: 5000 } });
    expect(await new FileResultStore(stateDir, revive).get(free[19] as string, 'made-up')).toMatchObject({
      free: true,
    });
    // A paid result past the bound pushes the free ones out before any paid one.
    paid.push(await put(store, 9));
    expect(held(stateDir).free).toEqual([]);
    expect(held(stateDir).ids).toEqual([...paid].sort());
    // Now a free result would push out a paid one: it is not kept instead.
    const over = 'result-free-over';
    expect(await store.put(over, { ...result(4), free: true }, Date.now() + 60_000)).toBe(false);
    expect(held(stateDir).ids).toEqual([...paid].sort());
    expect(await store.get(over, 'account-a')).toBeUndefined();
  });
});
