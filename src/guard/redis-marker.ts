/**
 * How the ledger on Redis notices that its data is gone. A Redis restarted without persistence,
 * emptied by FLUSHALL or evicting keys reads as an empty ledger: every total 0, as if nothing had
 * been spent. So the ledger keeps a marker key, `<prefix>:ledger:marker`, which the first replica
 * of a deployment creates, and each replica remembers the marker it saw: in memory, and in its state
 * directory (one small file per Redis and prefix), so that a replica restarted together with an
 * emptied Redis still knows what it saw before. When a replica finds the marker gone, or replaced
 * by another replica's, the data it vouched for is lost: the replica writes `<prefix>:ledger:lost`
 * (which stops every replica, new ones included) and the ledger refuses budgeted calls until a
 * person sets the marker by hand, to any value not starting with "created ", which says "start
 * afresh, knowing the spend so far is lost".
 *
 * A replica that has never seen a marker, in memory or in its state directory, cannot tell a new
 * deployment from a Redis emptied while no replica that knew it was running: it creates the
 * marker. That is the one loss that goes unnoticed (every replica started afresh, each with a new
 * state directory, on an emptied Redis), and why docs/team.md asks for persistence and `noeviction`.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { RedisConnection } from '../redis.js';
import { script } from '../redis.js';
import { makeStateDir } from '../state-dir.js';
import { LedgerLostError } from './ledger.js';

/** What a marker made by a replica begins with; any other value was set by hand. */
const MADE_BY_REPLICA = 'created ';

/**
 * The marker's check, as a Lua function other scripts call first (the reservation's, so that it
 * stays one round trip): the marker and lost keys, the SHA-1 of the marker this replica saw ('' for
 * none), the marker to create, the time now. Returns {'ok', the marker's SHA-1, the marker} or
 * {'lost', what happened}. A marker is remembered by its SHA-1 as Redis computes it: bounded,
 * whatever was set by hand.
 */
export const CHECK_MARKER = `
local function check_marker(marker_key, lost_key, seen, create, now)
  local marker = redis.call('GET', marker_key)
  if marker and string.sub(marker, 1, ${MADE_BY_REPLICA.length}) ~= '${MADE_BY_REPLICA}' then
    redis.call('DEL', lost_key)
    return {'ok', redis.sha1hex(marker), marker}
  end
  local lost = redis.call('GET', lost_key)
  if lost then return {'lost', lost} end
  if marker and (seen == '' or redis.sha1hex(marker) == seen) then
    return {'ok', redis.sha1hex(marker), marker}
  end
  if not marker and seen == '' then
    redis.call('SET', marker_key, create)
    return {'ok', redis.sha1hex(create), create}
  end
  lost = (marker and 'was replaced by a new one' or 'was gone') .. ' at ' .. now
  redis.call('SET', lost_key, lost)
  return {'lost', lost}
end
`;

/** KEYS: marker, lost. ARGV: seen, create, now (CHECK_MARKER's). */
const MARKER = script(`${CHECK_MARKER}
return check_marker(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
`);

/** What a script that checks the marker first needs of it: its keys and its arguments, in that order. */
export interface MarkerCheck {
  keys: [marker: string, lost: string];
  args: [seen: string, create: string, now: string];
}

/** The marker part of a script's reply: {'ok', SHA-1, marker} or {'lost', what happened}. */
export type MarkerReply = [state: string, value: string, marker?: string];

/** The most a remembered marker's file may hold (it holds a hash and the Redis address). */
const REMEMBERED_MAX_BYTES = 4096;

/**
 * The marker a replica saw, kept in a file of its state directory, named by the ledger's location
 * (another Redis, or another prefix, is another ledger). Written whenever the marker seen changes.
 */
export class RememberedMarker {
  readonly path: string;

  constructor(
    private readonly dir: string,
    private readonly location: string,
  ) {
    const name = createHash('sha256').update(location).digest('hex').slice(0, 16);
    this.path = join(dir, `redis-marker-${name}.json`);
  }

  /** The SHA-1 of the marker seen, '' when none was (no file yet); throws when the file is unreadable or damaged. */
  read(): string {
    let text: string;
    try {
      if (statSync(this.path).size > REMEMBERED_MAX_BYTES) throw new Error('it is larger than a marker file');
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw error;
    }
    const { sha1 } = JSON.parse(text) as { sha1?: unknown };
    if (typeof sha1 !== 'string' || !/^[0-9a-f]{40}$/.test(sha1))
      throw new Error('it is not a marker file svc-mcp wrote');
    return sha1;
  }

  /**
   * Replaced whole: written aside under a name of its own, flushed to the disk, then renamed over
   * the old file, so that a process killed, or a host losing power, leaves the old file or the new.
   */
  write(sha1: string): void {
    makeStateDir(this.dir);
    const aside = `${this.path}.${randomUUID()}.tmp`;
    const at = new Date().toISOString();
    try {
      const fd = openSync(aside, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify({ redis: this.location, sha1, at })}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(aside, this.path);
    } catch (error) {
      rmSync(aside, { force: true });
      throw error;
    }
    syncDirectory(this.dir);
  }
}

/** The rename itself on the disk too; where a directory cannot be opened to flush it (Windows), the rename stands as it is. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort: the file's own content is already on the disk
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export class LedgerMarker {
  /** The SHA-1 of the marker this process saw, '' before the first check (and none remembered). */
  private seen = '';
  /** A failure to read or write the state directory's copy was logged (once: it is tried again at each change). */
  private rememberWarned = false;
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
    /** Where the marker seen is kept across restarts; undefined: in memory only. */
    private readonly remembered?: RememberedMarker,
  ) {
    this.markerKey = redis.key('ledger', 'marker');
    this.lostKey = redis.key('ledger', 'lost');
    try {
      this.seen = remembered?.read() ?? '';
    } catch (error) {
      this.cannotRemember('read', error);
    }
  }

  /** Resolves while the ledger's data is there; rejects with LedgerLostError once it is gone. */
  async check(): Promise<void> {
    const { keys, args } = this.request();
    this.settle((await this.redis.run(MARKER, keys, args)) as MarkerReply);
  }

  /** The keys and arguments of a check made inside another script (CHECK_MARKER). */
  request(): MarkerCheck {
    const now = new Date().toISOString();
    return {
      keys: [this.markerKey, this.lostKey],
      args: [this.seen, `${MADE_BY_REPLICA}${now} by replica ${this.owner}`, now],
    };
  }

  /** What a check's reply means: the marker seen is remembered, or LedgerLostError is thrown. */
  settle([state, value, marker]: MarkerReply): void {
    const log = this.redis.log;
    if (state === 'ok') {
      if (value !== this.seen) this.remember(value);
      this.seen = value;
      if (this.warned)
        log.info(
          { marker: this.markerKey, value: marker },
          'Credit ledger marker set again: budgeted calls go on',
        );
      this.warned = false;
      return;
    }
    if (!this.warned) {
      // The file is named too: a Redis at the same address may be another deployment's, new.
      log.warn(
        { redis: this.location, marker: this.markerKey, lost: value, remembered: this.remembered?.path },
        'The credit ledger on Redis lost its data: budgeted calls are refused until the marker is set by hand',
      );
      this.warned = true;
    }
    throw new LedgerLostError(
      `The credit ledger at ${this.location} has lost its data: its marker ${this.markerKey} ${value} (Redis restarted without persistence, was emptied, or evicted keys). Budgeted calls are refused rather than counted again from zero. Restore Redis from a backup, or, to start afresh knowing the spend recorded so far is lost, set the marker by hand: redis-cli SET ${this.markerKey} "fresh start". Then keep Redis's data: appendonly yes and maxmemory-policy noeviction.`,
    );
  }

  private remember(sha1: string): void {
    if (!this.remembered) return;
    try {
      this.remembered.write(sha1);
    } catch (error) {
      this.cannotRemember('written', error);
    }
  }

  /**
   * Said once (the file is tried again at each change): the running replicas still notice a loss;
   * this one, restarted, may not. A file that cannot be read is written afresh at the next check.
   */
  private cannotRemember(what: 'read' | 'written', error: unknown): void {
    if (this.rememberWarned) return;
    this.rememberWarned = true;
    this.redis.log.warn(
      { path: this.remembered?.path, error: (error as Error).message },
      `The credit ledger's marker file could not be ${what}: a loss of Redis's data while this replica is down may go unnoticed after it restarts`,
    );
  }
}
