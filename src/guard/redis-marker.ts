/**
 * How the ledger on Redis notices that its data is gone. A Redis restarted without persistence,
 * emptied by FLUSHALL or evicting keys reads as an empty ledger: every total 0, as if nothing had
 * been spent. So the ledger keeps a marker key, `<prefix>:ledger:marker`, which the first replica
 * of a deployment creates, and each replica remembers the marker it saw. When a replica finds it
 * gone, or replaced by another replica's, the data it vouched for is lost: the replica writes
 * `<prefix>:ledger:lost` (which stops every replica, new ones included) and the ledger refuses
 * budgeted calls until a person sets the marker by hand, to any value not starting with
 * "created ", which says "start afresh, knowing the spend so far is lost".
 *
 * A replica that has never seen a marker cannot tell a new deployment from a Redis emptied while
 * no replica that knew it was running: it creates the marker. That is the one loss that goes
 * unnoticed, and why the README asks for persistence and `noeviction`.
 */
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { LedgerLostError } from './ledger.js';

/** What a marker made by a replica begins with; any other value was set by hand. */
const MADE_BY_REPLICA = 'created ';

/**
 * KEYS: marker, lost. ARGV: the marker this replica saw ('' for none), the marker to create, the
 * time now. Returns {'ok', marker} or {'lost', what happened}.
 */
const MARKER = script(`
local marker = redis.call('GET', KEYS[1])
if marker and string.sub(marker, 1, ${MADE_BY_REPLICA.length}) ~= '${MADE_BY_REPLICA}' then
  redis.call('DEL', KEYS[2])
  return {'ok', marker}
end
local lost = redis.call('GET', KEYS[2])
if lost then return {'lost', lost} end
if marker and (ARGV[1] == '' or marker == ARGV[1]) then return {'ok', marker} end
if not marker and ARGV[1] == '' then
  redis.call('SET', KEYS[1], ARGV[2])
  return {'ok', ARGV[2]}
end
lost = (marker and 'was replaced by a new one' or 'was gone') .. ' at ' .. ARGV[3]
redis.call('SET', KEYS[2], lost)
return {'lost', lost}
`);

export class LedgerMarker {
  /** The marker this process saw, '' before the first check. */
  private seen = '';
  /** The loss was logged (once, until the ledger is usable again). */
  private warned = false;
  private readonly markerKey: string;
  private readonly lostKey: string;

  constructor(
    private readonly redis: RedisConnection,
    /** This process, as the marker it creates names it. */
    private readonly owner: string,
    /** Where the ledger lives, for the message. */
    private readonly location: string,
  ) {
    this.markerKey = redis.key('ledger', 'marker');
    this.lostKey = redis.key('ledger', 'lost');
  }

  /** Resolves while the ledger's data is there; rejects with LedgerLostError once it is gone. */
  async check(): Promise<void> {
    const now = new Date().toISOString();
    const [state, value] = (await this.redis.run(
      MARKER,
      [this.markerKey, this.lostKey],
      [this.seen, `${MADE_BY_REPLICA}${now} by replica ${this.owner}`, now],
    )) as [string, string];
    const log = this.redis.log;
    if (state === 'ok') {
      this.seen = value;
      if (this.warned)
        log.info({ marker: this.markerKey, value }, 'Credit ledger marker set again: budgeted calls go on');
      this.warned = false;
      return;
    }
    if (!this.warned) {
      log.warn(
        { redis: this.location, marker: this.markerKey, lost: value },
        'The credit ledger on Redis lost its data: budgeted calls are refused until the marker is set by hand',
      );
      this.warned = true;
    }
    throw new LedgerLostError(
      `The credit ledger at ${this.location} has lost its data: its marker ${this.markerKey} ${value} (Redis restarted without persistence, was emptied, or evicted keys). Budgeted calls are refused rather than counted again from zero. Restore Redis from a backup, or, to start afresh knowing the spend recorded so far is lost, set the marker by hand: redis-cli SET ${this.markerKey} "fresh start". Then keep Redis's data: appendonly yes and maxmemory-policy noeviction.`,
    );
  }
}
