/**
 * The services every tool call uses, built once per process and shared by every transport and
 * every HTTP request: the data source (and its client), the shared answers (cache and in-flight
 * joins), the credit guard, and the clock.
 */
import { SharedAnswers } from '../cache/answers.js';
import { MemoryCacheStore } from '../cache/store.js';
import type { Config } from '../config.js';
import { FileLedger } from '../guard/file-ledger.js';
import { CreditGuard } from '../guard/guard.js';
import { type DataSource, openDataSource } from '../upstream/source.js';
import type { CallObserver } from './events.js';

export interface Services {
  config: Config;
  /** The data source, opened on first use (the embedded sandbox takes a moment to start). */
  source(): Promise<DataSource>;
  answers: SharedAnswers;
  guard: CreditGuard;
  /** Told of every call and upstream request (metrics, logs). */
  observers: CallObserver[];
  /** Milliseconds since the epoch: real time, or SVC_NOW's frozen instant. */
  now(): number;
  /** Whether calls can be answered now: each check says `ok` or what is wrong. */
  ready(): Promise<Readiness>;
  close(): Promise<void>;
}

export interface Readiness {
  ready: boolean;
  checks: { upstream: string; ledger: string };
}

/** `ok`, or why the check failed. */
async function check(probe: () => Promise<unknown>): Promise<string> {
  try {
    await probe();
    return 'ok';
  } catch (error) {
    return (error as Error)?.message ?? String(error);
  }
}

export function createServices(config: Config): Services {
  const frozen = config.now?.getTime();
  const now = frozen === undefined ? Date.now : () => frozen;
  let opening: Promise<DataSource> | undefined;
  const cacheStore = new MemoryCacheStore();
  const guard = new CreditGuard({
    store: new FileLedger(config.stateDir, now),
    budget: config.creditBudget,
    window: config.creditWindow,
    maxPerCall: config.maxCreditsPerCall,
    now,
  });
  const source = () => {
    opening ??= openDataSource(config);
    return opening;
  };
  return {
    config,
    source,
    answers: new SharedAnswers(cacheStore, config.cache),
    guard,
    observers: [],
    now,
    async ready() {
      const [upstream, ledger] = await Promise.all([
        check(async () => (await source()).client.reachable()),
        check(() => guard.writable()),
      ]);
      return { ready: upstream === 'ok' && ledger === 'ok', checks: { upstream, ledger } };
    },
    async close() {
      await guard.close().catch(() => {});
      await cacheStore.close();
      if (opening) await (await opening.catch(() => undefined))?.close().catch(() => {});
    },
  };
}
