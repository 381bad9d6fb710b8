/**
 * What the script runner's thread (worker.ts) and the server (runner.ts) say to each other: plain
 * data, and only JSON text where a guest value crosses. The guest never sees a host object.
 */

/** The bounds one script runs within. */
export interface GuestLimits {
  /** QuickJS's heap for the script, in bytes. */
  memoryBytes: number;
  /** QuickJS's stack for the script, in bytes. */
  stackBytes: number;
  /** When the interrupt handler stops the script (ms since the epoch). */
  deadline: number;
  /** The most characters of console output kept; lines past it are counted, not kept. */
  logChars: number;
}

export type ToRunner =
  | { kind: 'run'; code: string; limits: GuestLimits }
  | { kind: 'answer'; id: number; ok: true; json: string }
  | { kind: 'answer'; id: number; ok: false; message: string };

/** What the script asked the host for: a tool's whole data, or a query over kept tables. */
export type HostRequest = { what: 'tool'; name: string; args: string } | { what: 'query'; sql: string };

/** How a script ended: its return value as JSON text, or why it failed. */
export type ScriptEnd =
  | { ok: true; json: string }
  | {
      ok: false;
      failure: 'syntax' | 'error' | 'timeout' | 'memory' | 'stack' | 'unsettled';
      message: string;
    };

export type FromRunner =
  | { kind: 'ready' }
  | { kind: 'request'; id: number; request: HostRequest }
  /** The script's end; `threadEnds` when its thread exits after it (its runtime is not reusable). */
  | ({ kind: 'done'; logs: string[]; logsDropped: number; threadEnds?: true } & ScriptEnd);
