/**
 * The one recorder: every spawned CLI process's stdout and stderr and every MCP message (so every
 * tool result) is appended to a file in the directory the global setup provides. The global
 * teardown scans all of it for the secret key after the last test file has run.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
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

function recordDescriptor(): number {
  // One descriptor a worker, kept open: a write is whole on disk when it returns.
  descriptor ??= openSync(recordFile(), 'a+');
  return descriptor;
}

/** Append what a process or a tool call produced, tagged with where it came from. */
export function record(source: string, text: string): void {
  if (text === '') return;
  writeSync(recordDescriptor(), `[${source}] ${text}${text.endsWith('\n') ? '' : '\n'}`);
}

/** Where this worker's record ends now: what recordedSince reads from. */
export function recordMark(): number {
  return fstatSync(recordDescriptor()).size;
}

/**
 * What this worker recorded after `mark` (for the recorder's self-test): only that, since the whole
 * record of a worker grows to tens of MB over a run.
 */
export function recordedSince(mark: number): string {
  const fd = openSync(recordFile(), 'r');
  try {
    const bytes = Buffer.alloc(fstatSync(fd).size - mark);
    readSync(fd, bytes, 0, bytes.length, mark);
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
