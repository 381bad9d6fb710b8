/**
 * The built CLI as a child process, a one-shot command (an MCP session with one: session.ts's
 * spawnMcp). The child gets only the environment a test passes plus PATH (the SDK's stdio
 * transport adds its own short safe list: HOME, LOGNAME, SHELL, TERM, USER; never an SVC_* variable).
 * Everything the child prints goes through the recorder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject } from 'vitest';
import type { CreditUsageFigures } from '../../src/kit/usage-figures.js';
import { record } from './recorder.js';
import { keptText } from './until.js';

export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Env = Record<string, string>;

const fileStateDirs = new Map<string, string>();

/**
 * The running test file's own state directory (the credit ledger), unless a test names one: files
 * that share a worker (and this module) never share a ledger.
 */
export function fileStateDir(): string {
  const file = expect.getState().testPath ?? '';
  let dir = fileStateDirs.get(file);
  if (dir === undefined) {
    dir = mkdtempSync(join(inject('stateRoot'), 'file-'));
    fileStateDirs.set(file, dir);
  }
  return dir;
}

/** A fresh state directory of a test's own, removed with the run's (no test leaves one behind). */
export function newStateDir(): string {
  return mkdtempSync(join(fileStateDir(), 'own-'));
}

/** The environment a child gets: only what a test passes, PATH, and this file's state directory. */
export function childEnv(env: Env): Env {
  return { PATH: process.env.PATH ?? '', SVC_STATE_DIR: fileStateDir(), ...env };
}

/** The figures get_credit_usage gives in this session. */
export async function creditUsage(mcp: {
  call(name: string): Promise<CallToolResult>;
}): Promise<CreditUsageFigures> {
  return (await mcp.call('get_credit_usage')).structuredContent as unknown as CreditUsageFigures;
}

/**
 * Record every JSON-RPC message the server sends (stdout carries nothing else), tool results
 * included: the stdio transport of either client.
 */
export function recordMessages(transport: Pick<StdioClientTransport, 'onerror'>): void {
  let handler: ((message: JSONRPCMessage, extra?: unknown) => void) | undefined;
  const recording = (message: JSONRPCMessage, extra?: unknown) => {
    record('mcp stdout', JSON.stringify(message));
    handler?.(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler ? recording : undefined),
    set: (value) => {
      handler = value;
    },
  });
  const previousError = transport.onerror;
  transport.onerror = (error) => {
    record('mcp transport error', String(error?.message ?? error));
    previousError?.(error);
  };
}

export function isAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Control characters but tab and the line feed that ends a line, and the Unicode line breaks: what no text shown to a person or a terminal may hold of a third party's. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
export const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/** The text of a tool result's blocks, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** The first text block. */
export function firstText(result: CallToolResult): string {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error(`first block is not text: ${JSON.stringify(block)}`);
  return block.text;
}

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with stderr once it matches. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the child has exited and its output is closed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawn `node dist/cli.js ...args` with raw pipes; both output streams go through the recorder. */
export function spawnCli(args: string[], env: Env = {}, stdin: 'pipe' | 'ignore' = 'ignore'): CliProcess {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: childEnv(env),
    cwd: REPO_ROOT,
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  const label = `cli ${args[0] ?? ''}`;
  const stderr = keptText(`${label} stderr`, 'stderr');
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    record(`${label} stdout`, chunk.toString('utf8'));
  });
  child.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => stdout, stderr: stderr.text, waitForStderr: stderr.waitFor, exited };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Run a one-shot CLI command to completion (killed after `timeoutMs`). */
export async function runCli(args: string[], env: Env = {}, timeoutMs = 20_000): Promise<CliRun> {
  const started = performance.now();
  const proc = spawnCli(args, env);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs);
  try {
    const { code } = await proc.exited;
    return { code, stdout: proc.stdout(), stderr: proc.stderr(), ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
