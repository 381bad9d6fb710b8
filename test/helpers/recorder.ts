/**
 * The one recorder: every spawned CLI process's stdout and stderr and every MCP message (so every
 * tool result) is appended to a file in the directory the global setup provides. The global
 * teardown scans all of it for the secret key after the last test file has run.
 */
import { openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

function recordDir(): string {
  const dir = inject('recordDir');
  if (!dir)
    throw new Error('recordDir not provided: run the tests through vitest.config.ts (its globalSetup)');
  return dir;
}

/** This worker's record file. */
export function recordFile(): string {
  return join(recordDir(), `worker-${process.pid}.log`);
}

let descriptor: number | undefined;

/** Append what a process or a tool call produced, tagged with where it came from. */
export function record(source: string, text: string): void {
  if (text === '') return;
  // One descriptor a worker, kept open: a write is whole on disk when it returns.
  descriptor ??= openSync(recordFile(), 'a');
  writeSync(descriptor, `[${source}] ${text}${text.endsWith('\n') ? '' : '\n'}`);
}

/** What this worker has recorded so far (for the recorder's self-test). */
export function recordedByThisWorker(): string {
  try {
    return readFileSync(recordFile(), 'utf8');
  } catch {
    return '';
  }
}
