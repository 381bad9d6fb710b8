/**
 * One Redis connection per process, shared by the credit ledger and the cache, so that several
 * replicas share one budget and one cache. The client (ioredis) loads on first use. Commands never
 * queue while Redis is down: a command starts a connection attempt when none is under way, or
 * joins the one under way, and fails when it fails (at once when Redis refuses, within
 * CONNECT_WAIT_MS when it does not answer); so a budgeted call is refused rather than left waiting,
 * and an unbudgeted one goes on without the shared cache. The client also reconnects by itself in
 * the background, and the first command after Redis is back succeeds.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Log } from './ops/logs.js';

/** How long a command waits for a connection attempt under way before failing. */
const CONNECT_WAIT_MS = 1_000;
/** A connection attempt, and a command once sent, that takes longer than these has failed. */
const CONNECT_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 2_000;
/** Reconnection attempts back off to this interval and go on for as long as the process runs. */
const RECONNECT_MAX_MS = 2_000;
/**
 * A connection made while a restarted Redis still loads its data asks again this often whether it
 * is done. ioredis's own default is 1 s at least, longer than a command waits (CONNECT_WAIT_MS): a
 * background attempt that met the load would keep the first command after it from succeeding.
 */
const LOADING_RECHECK_MS = 100;

/** A Lua script run on the Redis side, atomically (sent by its hash, and in full when Redis lacks it). */
export interface Script {
  lua: string;
  sha: string;
}

export function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

export class RedisConnection {
  /** The address without credentials, for messages. */
  readonly location: string;
  private loading: Promise<Redis> | undefined;
  /** The connection attempt under way, as every waiting command sees it end. */
  private attempt: Promise<void> | undefined;
  /** Why the last connection attempt failed; undefined while connected. */
  private problem: string | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    /** Where Redis's troubles are told, by this connection and by what uses it. */
    readonly log: Log,
  ) {
    const parsed = new URL(url);
    const db = parsed.pathname.replace(/^\//, '') || '0';
    this.location = `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}/${db}`;
  }

  /** This deployment's key for `parts`: `svc-mcp:ledger:…`. */
  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  /** The connected client; rejects at once, saying why, when Redis cannot be reached. */
  private async client(): Promise<Redis> {
    if (this.closed) throw new Error(`the connection to Redis at ${this.location} is closed`);
    this.loading ??= this.open();
    const redis = await this.loading;
    if (redis.status === 'ready') return redis;
    // An attempt now rather than at the end of the back-off, so that the first command after Redis
    // is back succeeds: while it is down the attempt fails at once (refused) or within the wait.
    if (redis.status === 'wait' || redis.status === 'reconnecting') redis.connect().catch(() => {});
    await this.readyWithin(redis);
    return redis;
  }

  /** Commands on the connected client; a failure says whether Redis refused or could not be reached. */
  async use<T>(commands: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = await this.client();
    try {
      return await commands(redis);
    } catch (error) {
      if ((error as Error)?.name === 'ReplyError')
        throw new Error(`Redis refused: ${(error as Error).message}`);
      throw new Error(`Redis is unreachable: ${this.problem ?? (error as Error)?.message}`);
    }
  }

  /** Run `lua` with `keys` and `args`: one atomic step on the Redis side. */
  run(code: Script, keys: string[], args: (string | number | Buffer)[]): Promise<unknown> {
    return this.use(async (redis) => {
      try {
        return await redis.evalsha(code.sha, keys.length, ...keys, ...args);
      } catch (error) {
        // A restarted Redis has forgotten the scripts it was sent.
        if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
        return redis.eval(code.lua, keys.length, ...keys, ...args);
      }
    });
  }

  /** Reachable and answering. */
  async ping(): Promise<void> {
    await this.use((redis) => redis.ping());
  }

  async close(): Promise<void> {
    this.closed = true;
    const redis = await this.loading?.catch(() => undefined);
    redis?.disconnect();
  }

  private async open(): Promise<Redis> {
    const { Redis } = await import('ioredis');
    const redis = new Redis(this.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // A command cut off by a dropped connection fails rather than being sent again later.
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxLoadingRetryTime: LOADING_RECHECK_MS,
      retryStrategy: (attempt) => Math.min(50 * attempt, RECONNECT_MAX_MS),
      connectionName: this.prefix,
    });
    redis.on('error', (error: Error) =>
      this.down(error.message || (error as NodeJS.ErrnoException).code || 'connection failed'),
    );
    redis.on('close', () => {
      if (!this.closed && this.problem === undefined) this.down('the connection closed');
    });
    redis.on('ready', () => {
      if (this.problem !== undefined) this.log.info({ redis: this.location }, 'Redis reachable again');
      this.problem = undefined;
    });
    return redis;
  }

  private down(problem: string): void {
    if (this.problem === undefined) {
      this.log.warn(
        { redis: this.location, error: problem },
        'Redis unreachable: budgeted calls are refused, other calls go on without the shared cache',
      );
    }
    this.problem = problem;
  }

  private unreachable(): Error {
    return new Error(`Redis is unreachable: ${this.problem ?? 'not connected'}`);
  }

  /**
   * Wait for the attempt under way, at most CONNECT_WAIT_MS from now: the attempt's outcome is
   * watched once for every caller, and each caller's wait is its own (a command that joins an
   * attempt begun earlier still gets its full wait).
   */
  private async readyWithin(redis: Redis): Promise<void> {
    this.attempt ??= new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        redis.off('ready', onReady);
        redis.off('error', onError);
        redis.off('end', onError);
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => done();
      const onError = () => done(this.unreachable());
      redis.once('ready', onReady);
      redis.once('error', onError);
      redis.once('end', onError);
      if (redis.status === 'ready') done();
    }).finally(() => {
      this.attempt = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.unreachable()), CONNECT_WAIT_MS);
    });
    try {
      await Promise.race([this.attempt, waited]);
    } finally {
      clearTimeout(timer);
    }
  }
}
