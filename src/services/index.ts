/**
 * The services every tool call uses, built once per process and shared by every transport and
 * every HTTP request: the data source (and its client), the shared answers (cache and in-flight
 * joins), the credit guard, the clock, and what watches them (logs, metrics). The cache and the
 * ledger live in this process and an SQLite database (a JSON file where no SQLite loads), or on Redis when SVC_REDIS_URL is set, so
 * that several replicas share one budget and one cache. Heavy parts (the Redis client, the logger, metrics)
 * load only when the settings ask for them.
 */
import { randomBytes } from 'node:crypto';
import { FileResultStore } from '../cache/file-results.js';
import { RedisResultStore } from '../cache/redis-results.js';
import { RedisCacheStore } from '../cache/redis-store.js';
import { type ResultStore, SCAN_EVERY_MS } from '../cache/results.js';
import { SharedCache } from '../cache/shared.js';
import { MemoryCacheStore } from '../cache/store.js';
import type { Config, LogLevel } from '../config/index.js';
import { FileLedger } from '../guard/file-ledger.js';
import { CreditGuard } from '../guard/guard.js';
import type { LedgerStore } from '../guard/ledger.js';
import { RedisLedger } from '../guard/redis-ledger.js';
import { chooseSqlite } from '../guard/sqlite.js';
import { SqliteLedger } from '../guard/sqlite-ledger.js';
import { FileCatalog } from '../kept/catalog.js';
import { engineLimits, QueryEngine, TURN_WAITS } from '../kept/engine.js';
import { KeptTables } from '../kept/kept.js';
import { RedisCatalog } from '../kept/redis-catalog.js';
import { revive } from '../kept/revive.js';
import type { CallObserver } from '../ops/events.js';
import { type Log, type LogDestination, logCalls, openLog, SILENT_LOG } from '../ops/logs.js';
import type { Metrics } from '../ops/metrics.js';
import { openTelemetry, type Telemetry, telemetryWanted } from '../ops/telemetry.js';
import { RedisConnection, script } from '../redis.js';
import { type RunnerLimits, ScriptRunner } from '../script/runner.js';
import { stateDirNotice } from '../state-dir.js';
import { timeBounds } from '../time-bounds.js';
import { type DataSource, openDataSource } from './data-source.js';
import { CallLimiter } from './limiter.js';

/** A readiness check that takes longer than this has failed. */
const CHECK_TIMEOUT_MS = 3_000;

export interface ServiceOptions {
  /** Count calls for Prometheus: `services.metrics` (the HTTP transport serves it at /metrics). */
  metrics?: boolean;
  /**
   * The log level when SVC_LOG_LEVEL is unset: `info` (a line per call) suits HTTP; the default,
   * `warn`, suits stdio, whose host shows stderr to people.
   */
  logLevel?: LogLevel;
  /**
   * Name where the ledger is kept (its file, or Redis's address) in get_credit_usage, svc://credits
   * and refusals; when false, only its kind: the HTTP transport's callers do not own the machine.
   */
  showLocations?: boolean;
  /** Where the log lines go; stderr unless set. */
  logTo?: LogDestination;
}

/** Whether calls can be answered as configured, check by check (`ok` or what is wrong). */
export interface Readiness {
  ok: boolean;
  checks: Record<string, string>;
}

export interface Services {
  config: Config;
  /** The data source, opened on first use (the embedded sandbox takes a moment to start). */
  source(): Promise<DataSource>;
  cache: SharedCache;
  /** Calls' whole data, from which `next` serves the following pages (cache/results.ts). */
  results: ResultStore;
  /** Answers' rows kept as tables, and queries over them (kept/kept.ts). */
  kept: KeptTables;
  /** Scripts over the tools (run_script), each on a runner thread of its own (script/runner.ts). */
  scripts: ScriptRunner;
  /** The process's Redis connection, with SVC_REDIS_URL: own-key sign-in keeps its records there. */
  redis?: RedisConnection;
  guard: CreditGuard;
  /** Bounds the calls that make requests at once. */
  limiter: CallLimiter;
  /** Told of every call and upstream request (metrics, logs). */
  observers: CallObserver[];
  /** JSON lines on stderr at the configured level. */
  log: Log;
  /** Prometheus metrics, when created with `metrics: true`. */
  metrics?: Metrics;
  /** OpenTelemetry traces and metrics, when the OTEL_* exporter settings ask for them (ops/telemetry.ts). */
  telemetry?: Telemetry;
  /** Milliseconds since the epoch: real time, or SVC_NOW's frozen instant. */
  now(): number;
  /**
   * The secret that seals confirmation questions' states (mcp/confirm.ts): one for every replica on
   * one Redis (a retry may reach another), else this process's own.
   */
  confirmKey(): Promise<Uint8Array>;
  /** Whether calls can be answered now: the upstream reachable, the ledger writable and, with
   * SVC_REDIS_URL, Redis reachable (for /readyz). */
  ready(): Promise<Readiness>;
  /**
   * Logs, once, what the operator of a running server should know of how it runs (the ledger kept
   * in a JSON file where no SQLite loads; a state directory open to others). Servers call it after their banner, so that a start that
   * fails prints only its one-line error; one-shot commands never call it.
   */
  announce(): void;
  close(): Promise<void>;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const frozen = config.now?.getTime();
  const now = frozen === undefined ? Date.now : () => frozen;
  const { turnWaitMs, claimMs } = timeBounds(config.timeoutMs);
  const log = openLog(config.logLevel ?? options.logLevel ?? 'warn', options.logTo);
  const redis =
    config.redisUrl === undefined ? undefined : new RedisConnection(config.redisUrl, config.redisPrefix, log);
  const cacheStore = redis ? new RedisCacheStore(redis) : new MemoryCacheStore();
  const resultsBytes = config.resultsMaxMb * 1024 * 1024;
  const results = redis
    ? new RedisResultStore(redis, revive, resultsBytes)
    : new FileResultStore(config.stateDir, revive, { mostBytes: resultsBytes, scanEveryMs: SCAN_EVERY_MS });
  const { kept, engine } = keptTables(config, results, redis, log);
  const scripts = new ScriptRunner(scriptLimits(config));
  const { guard, notice } = creditGuard(config, { redis, log, now, showLocations: options.showLocations });
  const { observers, metrics } = await watchers(log, guard, options.metrics === true);
  const telemetry = telemetryWanted() ? await openTelemetry() : undefined;
  const ownKey = randomBytes(32);
  let sharedKey: Promise<Uint8Array> | undefined;
  let opening: Promise<DataSource> | undefined;
  let announced = false;
  const source = () => {
    opening ??= openDataSource(config);
    return opening;
  };
  return {
    config,
    source,
    cache: new SharedCache(cacheStore, config.cache, claimMs, config.staleMaxSeconds * 1000),
    results,
    kept,
    scripts,
    redis,
    guard,
    limiter: new CallLimiter(turnWaitMs),
    observers,
    log,
    metrics,
    telemetry,
    now,
    confirmKey() {
      if (!redis) return Promise.resolve(ownKey);
      // Asked of Redis again after a failure, so that the replicas agree once it is back.
      sharedKey ??= sharedSecret(redis).catch(() => {
        sharedKey = undefined;
        return ownKey;
      });
      return sharedKey;
    },
    async ready() {
      const checks: Record<string, string> = {
        upstream: await outcome(source().then((s) => s.client.reachable())),
        ledger: await outcome(guard.check()),
      };
      if (redis) checks.redis = await outcome(redis.ping());
      return { ok: Object.values(checks).every((c) => c === 'ok'), checks };
    },
    announce() {
      if (announced) return;
      announced = true;
      if (notice !== undefined) log.warn({ ledger: 'ledger.json' }, notice);
      const open = stateDirNotice(config.stateDir);
      if (open !== undefined) log.warn({ stateDir: 'open' }, open);
    },
    async close() {
      await kept.flush();
      await engine.close();
      await scripts.close();
      await guard.close().catch(() => {});
      await cacheStore.close();
      await redis?.close();
      if (opening) await (await opening.catch(() => undefined))?.close().catch(() => {});
      await telemetry?.shutdown().catch(() => {});
    },
  };
}

/** The credit guard over the ledger these settings choose, and the notice a server gives of its store. */
function creditGuard(
  config: Config,
  {
    redis,
    log,
    now,
    showLocations,
  }: { redis?: RedisConnection; log: Log; now: () => number; showLocations?: boolean },
) {
  const { store, notice } = redis
    ? { store: new RedisLedger(redis, { stateDir: config.stateDir }), notice: undefined }
    : localLedger(config.stateDir, now);
  const guard = new CreditGuard({
    store,
    budget: config.creditBudget,
    personBudget: config.userCreditBudget,
    window: config.creditWindow,
    maxPerCall: config.maxCreditsPerCall,
    now,
    ledgerKind: showLocations === false ? (redis ? 'redis' : 'file') : undefined,
    warn: (message) => log.warn({ ledger: redis ? 'redis' : 'file' }, message),
  });
  return { guard, notice };
}

/** Answers' rows kept as tables over the result store, and the query engine that reads them. */
/**
 * The bounds of a script: the settings' time and memory; a 1 MB stack; 20,000 characters of logs;
 * 100 calls, 8 at once, each answer at most 8 MB of JSON; 4 scripts at once in a process.
 */
function scriptLimits(config: Config): RunnerLimits {
  return {
    timeoutMs: config.scriptTimeoutMs,
    memoryBytes: config.scriptMemoryMb * 1024 * 1024,
    stackBytes: 1024 * 1024,
    logChars: 20_000,
    maxCalls: 100,
    maxInFlight: 8,
    maxAnswerChars: 8_000_000,
    maxScripts: 4,
    ownerScripts: 2,
  };
}

function keptTables(config: Config, results: ResultStore, redis: RedisConnection | undefined, log: Log) {
  const engine = new QueryEngine(engineLimits(config.queryMemoryMb), TURN_WAITS * config.queryTimeoutMs);
  const catalog = redis ? new RedisCatalog(redis) : new FileCatalog(config.stateDir);
  return {
    engine,
    kept: new KeptTables(results, catalog, engine, {
      queryTimeoutMs: config.queryTimeoutMs,
      warn: log.warn,
    }),
  };
}

/** What is told of every call: the log, and Prometheus's metrics when asked for. */
async function watchers(log: Log, guard: CreditGuard, withMetrics: boolean) {
  const observers: CallObserver[] = [];
  if (log !== SILENT_LOG) observers.push(logCalls(log));
  let metrics: Metrics | undefined;
  if (withMetrics) {
    const { createMetrics } = await import('../ops/metrics.js');
    metrics = createMetrics({
      account: (account) => guard.usage(account),
      person: (person) => guard.personUsage(person),
    });
    observers.push(metrics.observer);
  }
  return { observers, metrics };
}

/**
 * The ledger of a single machine: SQLite (Node's own from 22.13, else better-sqlite3), whose cost
 * does not grow with what it holds; else the JSON file, whose every change rewrites it, with the
 * notice a server gives of it (why, and what to do).
 */
function localLedger(dir: string, now: () => number): { store: LedgerStore; notice?: string } {
  const { sqlite, why } = chooseSqlite();
  if (sqlite) return { store: new SqliteLedger(dir, sqlite, now) };
  return {
    store: new FileLedger(dir, now),
    notice: `${why}: the credit ledger is kept in ledger.json, whose every change rewrites the file (slower as it grows). For SQLite, run on Node 22.13 or later, or install better-sqlite3 beside svc-mcp.`,
  };
}

/** KEYS: the secret's key. ARGV: a secret of this process's, set when none is there yet. */
const SHARED_SECRET = script(`
local secret = redis.call('GET', KEYS[1])
if not secret then
  redis.call('SET', KEYS[1], ARGV[1])
  secret = ARGV[1]
end
return secret
`);

/** The secret every replica on this Redis shares: the first to ask sets it. */
async function sharedSecret(redis: RedisConnection): Promise<Uint8Array> {
  const offered = randomBytes(32).toString('hex');
  const hex = await redis.run(SHARED_SECRET, [redis.key('confirm', 'key')], [offered]);
  return Buffer.from(String(hex), 'hex');
}

/** `ok`, or why not, within the check's time bound. */
async function outcome(check: Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check, late]);
    return 'ok';
  } catch (error) {
    return (error as Error)?.message ?? String(error);
  } finally {
    clearTimeout(timer);
  }
}
