/**
 * The ledger on Redis, shared by every replica: the same rules as the other ledgers (ledger.ts),
 * each applied as one Lua script on the Redis side, so that a reservation on one replica sees
 * every other replica's spend and reservations at that instant. Times come from Redis's own clock,
 * so replicas whose clocks differ agree on a reservation's age.
 *
 * Per account and window: a hash of totals (spent, cache hits, credits saved, and calls, credits
 * and hits per tool) and a hash of reservations in flight; per window, the set of accounts that
 * reserved in it (for the figures of everyone). Each replica holds a lease in a sorted
 * set of owners while it has reservations; a reservation whose owner's lease ran out (the process
 * died or lost Redis for longer than the lease) or that outlived any call is counted as spent at
 * its full amount when its request was sent, and dropped when it was not. Old windows expire: days
 * after a week, months after half a year; `total` never. A marker key tells a ledger whose data was
 * lost from a new one (redis-marker.ts).
 */
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import {
  type LedgerStore,
  RESERVATION_TTL_MS,
  type ReserveRequest,
  type ReserveResult,
  type ToolFigures,
  type WindowFigures,
} from './ledger.js';
import { CHECK_MARKER, LedgerMarker, RememberedMarker } from './redis-marker.js';

/** How long a replica's lease on its reservations lasts; it renews it three times a lease while it holds some. */
const OWNER_LEASE_MS = 15_000;
const DAY_MS = 86_400_000;

const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function keep(key, ms)
  if ms > 0 then redis.call('PEXPIRE', key, ms) end
end
local function spend(totals, tool, credits)
  redis.call('HINCRBYFLOAT', totals, 'spent', credits)
  redis.call('HINCRBY', totals, 'calls:' .. tool, 1)
  redis.call('HINCRBYFLOAT', totals, 'credits:' .. tool, credits)
end
-- Reservations whose owner is gone or that outlived any call end: spent if their request was sent
-- (one from before the sent field counts as sent), dropped if not; returns what the rest hold.
local function reap(totals, held, owners, now, ttl)
  redis.call('ZREMRANGEBYSCORE', owners, '-inf', now)
  local reserved = 0
  local entries = redis.call('HGETALL', held)
  for i = 1, #entries, 2 do
    local r = cjson.decode(entries[i + 1])
    if now - r.at > ttl or not redis.call('ZSCORE', owners, r.owner) then
      if r.sent ~= false then spend(totals, r.tool, r.amount) end
      redis.call('HDEL', held, entries[i])
    else
      reserved = reserved + r.amount
    end
  end
  return reserved
end
`;

/**
 * KEYS: totals, held, owners, the window's accounts, then the marker's two (CHECK_MARKER). ARGV: id,
 * tool, amount, budget ('' for none), owner, ttl, keep, lease, account, sent ('1' or ''), then the
 * marker's three. Returns the marker's reply when its data is lost; else {1} or {0, spent,
 * reserved}, each followed by the marker's SHA-1 and value.
 */
const RESERVE = script(`${PRELUDE}${CHECK_MARKER}
local m = check_marker(KEYS[5], KEYS[6], ARGV[11], ARGV[12], ARGV[13])
if m[1] ~= 'ok' then return m end
local now = now_ms()
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[8]), ARGV[5])
local reserved = reap(KEYS[1], KEYS[2], KEYS[3], now, tonumber(ARGV[6]))
local spent = tonumber(redis.call('HGET', KEYS[1], 'spent') or '0')
local amount = tonumber(ARGV[3])
if ARGV[4] ~= '' and spent + reserved + amount > tonumber(ARGV[4]) then
  return {0, tostring(spent), tostring(reserved), m[2], m[3]}
end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode({tool = ARGV[2], amount = amount, owner = ARGV[5], at = now, sent = ARGV[10] == '1'}))
redis.call('SADD', KEYS[4], ARGV[9])
keep(KEYS[1], tonumber(ARGV[7]))
keep(KEYS[2], tonumber(ARGV[7]))
keep(KEYS[4], tonumber(ARGV[7]))
return {1, '', '', m[2], m[3]}
`);

/** KEYS: totals, held. ARGV: id, charged, keep. A reservation already reaped was counted in full. */
const SETTLE = script(`${PRELUDE}
local held = redis.call('HGET', KEYS[2], ARGV[1])
if not held then return 0 end
spend(KEYS[1], cjson.decode(held).tool, tonumber(ARGV[2]))
redis.call('HDEL', KEYS[2], ARGV[1])
keep(KEYS[1], tonumber(ARGV[3]))
return 1
`);

/** KEYS: held. ARGV: id, sent ('1' or ''). */
const MARK_SENT = script(`
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then return 0 end
local r = cjson.decode(held)
r.sent = ARGV[2] == '1'
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(r))
return 1
`);

/** KEYS: totals. ARGV: tool, saved, keep. */
const HIT = script(`${PRELUDE}
redis.call('HINCRBY', KEYS[1], 'cache_hits', 1)
redis.call('HINCRBYFLOAT', KEYS[1], 'credits_saved', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'hits:' .. ARGV[1], 1)
keep(KEYS[1], tonumber(ARGV[3]))
return 1
`);

/** KEYS: totals. ARGV: tool, keep. */
const FREE = script(`${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'calls:' .. ARGV[1], 1)
keep(KEYS[1], tonumber(ARGV[2]))
return 1
`);

/** KEYS: totals, held, owners. ARGV: ttl, keep. */
const FIGURES = script(`${PRELUDE}
local reserved = reap(KEYS[1], KEYS[2], KEYS[3], now_ms(), tonumber(ARGV[1]))
keep(KEYS[1], tonumber(ARGV[2]))
return {tostring(reserved), redis.call('HGETALL', KEYS[1])}
`);

/** KEYS: owners. ARGV: owner, lease. */
const RENEW_LEASE = script(`${PRELUDE}
redis.call('ZADD', KEYS[1], now_ms() + tonumber(ARGV[2]), ARGV[1])
return 1
`);

/** How long a window's figures are kept after their last change. */
function keepMs(window: string): number {
  if (window.startsWith('day:')) return 8 * DAY_MS;
  if (window.startsWith('month:')) return 190 * DAY_MS;
  return 0;
}

interface Held {
  account: string;
  window: string;
}

export class RedisLedger implements LedgerStore {
  readonly location: string;
  /** This process, as reservations name their owner. */
  private readonly owner = randomUUID();
  /** Reservations this process holds, by id: where each lives. */
  private readonly held = new Map<string, Held>();
  private leaseTimer: NodeJS.Timeout | undefined;
  /** Writes under way, which close() lets finish (a cache hit is recorded after its call answered). */
  private readonly writing = new Set<Promise<unknown>>();
  /** Tells lost data from a new ledger, before anything is read or reserved. */
  private readonly marker: LedgerMarker;

  private readonly leaseMs: number;

  constructor(
    private readonly redis: RedisConnection,
    options: {
      /** The state directory, where the marker seen is kept across restarts (redis-marker.ts). */
      stateDir?: string;
      /** How long this process's reservations outlive it unrenewed (tests shorten it). */
      leaseMs?: number;
    } = {},
  ) {
    this.leaseMs = options.leaseMs ?? OWNER_LEASE_MS;
    this.location = `${redis.location} (keys ${redis.key('ledger')}:*)`;
    const remembered =
      options.stateDir === undefined ? undefined : new RememberedMarker(options.stateDir, this.location);
    this.marker = new LedgerMarker(redis, this.owner, this.location, remembered);
  }

  private keys(account: string, window: string): [totals: string, held: string, owners: string] {
    const totals = this.redis.key('ledger', account, window);
    return [totals, `${totals}:held`, this.redis.key('ledger', 'owners')];
  }

  async reserve(request: ReserveRequest): Promise<ReserveResult> {
    const id = randomUUID();
    const { account, window } = request;
    const marker = this.marker.request();
    const [, heldKey] = this.keys(account, window);
    const reply = (await this.redis
      .run(
        RESERVE,
        [...this.keys(account, window), this.accountsKey(window), ...marker.keys],
        [
          id,
          request.tool,
          request.amount,
          request.budget ?? '',
          this.owner,
          RESERVATION_TTL_MS,
          keepMs(window),
          this.leaseMs,
          account,
          request.sent ? '1' : '',
          ...marker.args,
        ],
      )
      .catch((error: unknown) => {
        // The script may still run with its reply lost (a command timeout while Redis is slow):
        // the hold it would write is taken back, behind it on the one connection, so that it does
        // not keep budget from other calls until it expires.
        void this.track(this.redis.use((redis) => redis.hdel(heldKey, id))).catch(() => {});
        throw error;
      })) as [number | string, string, string, string?, string?];
    if (reply[0] === 'lost') this.marker.settle([reply[0], reply[1]]);
    this.marker.settle(['ok', reply[3] ?? '', reply[4]]);
    if (reply[0] !== 1) return { ok: false, spent: Number(reply[1]), reserved: Number(reply[2]) };
    this.held.set(id, { account, window });
    this.leaseTimer ??= setInterval(() => void this.renewLease(), this.leaseMs / 3).unref();
    return { ok: true, id };
  }

  async settle(id: string, charged: number): Promise<void> {
    const held = this.take(id);
    if (!held) return;
    const [totals, heldKey] = this.keys(held.account, held.window);
    await this.track(this.redis.run(SETTLE, [totals, heldKey], [id, charged, keepMs(held.window)]));
  }

  async markSent(id: string): Promise<boolean> {
    const held = this.held.get(id);
    if (!held) return false;
    const marked = await this.track(
      this.redis.run(MARK_SENT, [this.keys(held.account, held.window)[1]], [id, '1']),
    );
    // Reaped: no longer this process's to hold (nor to renew a lease for).
    if (marked !== 1) this.take(id);
    return marked === 1;
  }

  async markUnsent(id: string): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    await this.track(this.redis.run(MARK_SENT, [this.keys(held.account, held.window)[1]], [id, '']));
  }

  async release(id: string): Promise<void> {
    const held = this.take(id);
    if (!held) return;
    await this.track(this.redis.use((redis) => redis.hdel(this.keys(held.account, held.window)[1], id)));
  }

  async recordHit(account: string, window: string, tool: string, saved: number): Promise<void> {
    await this.track(this.redis.run(HIT, [this.keys(account, window)[0]], [tool, saved, keepMs(window)]));
  }

  async recordFree(account: string, window: string, tool: string): Promise<void> {
    await this.track(this.redis.run(FREE, [this.keys(account, window)[0]], [tool, keepMs(window)]));
  }

  async figures(account: string, window: string): Promise<WindowFigures> {
    await this.marker.check();
    const [reserved, fields] = (await this.redis.run(FIGURES, this.keys(account, window), [
      RESERVATION_TTL_MS,
      keepMs(window),
    ])) as [string, string[]];
    return { ...parseTotals(fields), reserved: Number(reserved) };
  }

  async accounts(window: string): Promise<string[]> {
    await this.marker.check();
    return this.redis.use((redis) => redis.smembers(this.accountsKey(window)));
  }

  /** The set of accounts that reserved in a window (which every call that spends does first). */
  private accountsKey(window: string): string {
    return this.redis.key('ledger', 'accounts', window);
  }

  /** Its data is there, and it is writable: a key of this process's is set (and expires by itself). */
  async check(): Promise<void> {
    await this.marker.check();
    await this.redis.use((redis) => redis.set(this.redis.key('ready', this.owner), '1', 'PX', 60_000));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.writing]);
    clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
  }

  private track<T>(write: Promise<T>): Promise<T> {
    this.writing.add(write);
    const done = () => this.writing.delete(write);
    write.then(done, done);
    return write;
  }

  private take(id: string): Held | undefined {
    const held = this.held.get(id);
    this.held.delete(id);
    if (this.held.size === 0) {
      clearInterval(this.leaseTimer);
      this.leaseTimer = undefined;
    }
    return held;
  }

  private async renewLease(): Promise<void> {
    await this.redis
      .run(RENEW_LEASE, [this.redis.key('ledger', 'owners')], [this.owner, this.leaseMs])
      .catch(() => {});
  }
}

/** The totals hash's flat field list as figures. */
function parseTotals(fields: string[]): Omit<WindowFigures, 'reserved'> {
  const figures = { spent: 0, by_tool: {} as Record<string, ToolFigures>, cache_hits: 0, credits_saved: 0 };
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [name = '', value] = [fields[i], Number(fields[i + 1])];
    const colon = name.indexOf(':');
    if (colon < 0) {
      if (name === 'spent' || name === 'cache_hits' || name === 'credits_saved') figures[name] = value;
      continue;
    }
    const tool = name.slice(colon + 1);
    const byTool = figures.by_tool[tool] ?? { calls: 0, credits: 0, cache_hits: 0 };
    figures.by_tool[tool] = byTool;
    const kind = name.slice(0, colon);
    if (kind === 'calls') byTool.calls = value;
    else if (kind === 'credits') byTool.credits = value;
    else if (kind === 'hits') byTool.cache_hits = value;
  }
  return figures;
}
