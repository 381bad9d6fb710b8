/**
 * Structured logs: JSON lines on stderr (stdout carries only protocol on stdio), written with pino.
 * One `info` line per tool call and one `debug` line per upstream request, with tool names,
 * outcomes, credits, times and the account's hash: never the key, never an argument value.
 */
import { createRequire } from 'node:module';
import type { LogLevel } from '../config/index.js';
import type { CallObserver } from './events.js';

/** Fields first, then the message (pino's order). */
type LogMethod = (fields: Record<string, unknown>, message: string) => void;

export interface Log {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const nothing: LogMethod = () => {};
export const SILENT_LOG: Log = { debug: nothing, info: nothing, warn: nothing, error: nothing };

const SEVERITY = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/**
 * A log at `level`. pino loads with the first line written at that level or above, so a process
 * that never logs (stdio at `warn` with nothing wrong) never loads it.
 */
export function openLog(level: LogLevel, destination?: LogDestination): Log {
  if (level === 'silent') return SILENT_LOG;
  let logger: ReturnType<typeof createLogger> | undefined;
  const method = (name: keyof typeof SEVERITY): LogMethod =>
    SEVERITY[name] < SEVERITY[level]
      ? nothing
      : (fields, message) => {
          logger ??= createLogger(level, destination);
          logger[name](fields, message);
        };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}

/** Where log lines go instead of stderr (a server built inside another program keeps its own). */
export interface LogDestination {
  write(line: string): void;
}

function createLogger(level: Exclude<LogLevel, 'silent'>, destination?: LogDestination) {
  const { pino } = createRequire(import.meta.url)('pino') as typeof import('pino');
  // Synchronous writes: a line is out before the process exits, and each is one small write.
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/**
 * Runs `work` with console.info and console.warn written to `log` instead (a library that prints its
 * notices there, oidc-provider, would otherwise write to stdout), then puts them back. A line that
 * `said` matches is left out: the caller says it in its own words.
 */
export async function consoleToLog<T>(log: Log, work: () => Promise<T>, said?: RegExp): Promise<T> {
  const { info, warn } = console;
  const line = (parts: unknown[]) => {
    const text = parts.join(' ');
    return said?.test(text) ? undefined : text;
  };
  console.info = (...parts: unknown[]) => {
    const text = line(parts);
    if (text !== undefined) log.info({}, text);
  };
  console.warn = (...parts: unknown[]) => {
    const text = line(parts);
    if (text !== undefined) log.warn({}, text);
  };
  try {
    return await work();
  } finally {
    Object.assign(console, { info, warn });
  }
}

/** A line per tool call (info) and per upstream request (debug). */
export function logCalls(log: Log): CallObserver {
  return {
    call(event) {
      log.info(
        {
          tool: event.tool,
          outcome: event.outcome,
          reason: event.reason,
          credits: event.credits,
          cache: event.via,
          duration_ms: round(event.durationMs),
          account: event.account,
          person: event.person,
        },
        'tool call',
      );
    },
    upstream(event) {
      log.debug(
        {
          tool: event.tool,
          path: event.path,
          ok: event.ok,
          status: event.status,
          duration_ms: round(event.durationMs),
        },
        'upstream request',
      );
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
