/**
 * The ledger file of earlier versions (SVC_STATE_DIR/ledger.json, format "svc-mcp ledger 1"), read
 * once so that its totals carry over into the SQLite ledger. It is read as it was written: a JSON
 * document whose checksum covers its state, so a damaged or hand-edited file is reported, never
 * imported.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { LedgerDamagedError } from './ledger.js';

const FORMAT = 'svc-mcp ledger 1';

const toolFigures = z.object({ calls: z.number(), credits: z.number(), cache_hits: z.number() });
const windowTotals = z.object({
  spent: z.number(),
  by_tool: z.record(z.string(), toolFigures),
  cache_hits: z.number(),
  credits_saved: z.number(),
});
const heldReservation = z.object({
  account: z.string(),
  window: z.string(),
  tool: z.string(),
  amount: z.number(),
  /** Absent in files that did not record it: the request may have been sent. */
  sent: z.boolean().optional(),
});
const legacyState = z.object({
  accounts: z.record(z.string(), z.record(z.string(), windowTotals)),
  reservations: z.record(z.string(), heldReservation),
});
export type LegacyState = z.infer<typeof legacyState>;

export interface LegacyLedger {
  state: LegacyState;
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
  let file: { format?: unknown; checksum?: unknown; state?: unknown };
  try {
    file = JSON.parse(text);
  } catch {
    throw new LedgerDamagedError(path, 'it is not valid JSON');
  }
  if (file?.format !== FORMAT) throw new LedgerDamagedError(path, `it is not a "${FORMAT}" file`);
  // The checksum covers the state as written, before any parsing reorders it.
  const checksum = `sha256:${createHash('sha256').update(JSON.stringify(file.state)).digest('hex')}`;
  if (file.checksum !== checksum) {
    throw new LedgerDamagedError(path, 'its checksum does not match its contents');
  }
  const parsed = legacyState.safeParse(file.state);
  if (!parsed.success) throw new LedgerDamagedError(path, 'its contents do not have the ledger shape');
  return { state: parsed.data, checksum };
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
