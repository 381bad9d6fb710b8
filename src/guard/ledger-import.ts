/**
 * The JSON ledger (SVC_STATE_DIR/ledger.json: earlier versions', and Node 20's), read once so that
 * its totals carry over into the SQLite ledger. It is read as the file ledger reads it, checksum
 * and all, so a damaged or hand-edited file is reported, never imported.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { parseLedgerFile } from './file-ledger.js';
import { LedgerDamagedError, type LedgerState } from './ledger.js';

export interface LegacyLedger {
  state: LedgerState;
  /** The file's own checksum: which file was imported, so that it is imported once. */
  checksum: string;
}

/** The file's contents, or undefined when there is none; a file that does not check out throws. */
export function readLegacyLedger(path: string): LegacyLedger | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LedgerDamagedError(path, `it cannot be read: ${(error as Error).message}`);
  }
  return parseLedgerFile(path, text);
}

/** Moves the imported file aside (PATH.imported), keeping any file imported before. */
export function setAside(path: string, checksum: string): void {
  let aside = `${path}.imported`;
  if (existsSync(aside)) aside = `${aside}-${checksum.slice('sha256:'.length, 'sha256:'.length + 12)}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    // Another process sharing the directory moved it first.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
