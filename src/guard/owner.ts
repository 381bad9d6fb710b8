/**
 * Which process holds a reservation in a ledger on this machine's disk (the SQLite and the JSON
 * file ledgers): its pid and an id of its own, since a pid alone may be reused after a restart.
 */
import { randomUUID } from 'node:crypto';

/** This process, as its reservations name their owner. */
export const OWNER = randomUUID();

/** Whether the process that took a reservation has ended (its reservation then ends too). */
export function processEnded(pid: number, owner: string): boolean {
  if (owner === OWNER) return false;
  if (pid === process.pid) return true; // the same pid from an earlier process
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
