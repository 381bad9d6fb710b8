/**
 * The sandbox's per-key usage kept in a file (the embedded sandbox's, in the server's state
 * directory), so that what key info reports goes on across restarts, as the server's own credit
 * ledger does. Read and written at most every `USAGE_SYNC_MS` (accounts.ts), replaced whole
 * (written aside, then renamed), so every process on the directory sees the others' charges.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeStateDir } from '../state-dir.js';

export function readUsage<U>(file: string): Map<string, U> {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, U>));
  } catch {
    return new Map(); // none yet, or unreadable: the sandbox starts afresh, as it does without a file
  }
}

export function writeUsage<U>(file: string, usage: ReadonlyMap<string, U>): void {
  try {
    makeStateDir(dirname(file));
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(Object.fromEntries(usage)), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // A state directory that cannot be written: the usage is this process's alone, as before.
  }
}
