/**
 * Structured logs: JSON lines on stderr (stdout carries only protocol on stdio), written with pino,
 * which loads only when a level other than `silent` is in force. One `info` line per tool call and
 * one `debug` line per upstream request, with tool names, outcomes, credits, times and the
 * account's hash: never the key, never an argument value.
 */
import type { CallObserver } from '../call/events.js';
import type { LogLevel } from '../config.js';

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

export async function openLog(level: LogLevel): Promise<Log> {
  if (level === 'silent') return SILENT_LOG;
  const { pino } = await import('pino');
  // Synchronous writes: a line is out before the process exits, and each is one small write.
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ fd: 2, sync: true }),
  );
  return {
    debug: (fields, message) => logger.debug(fields, message),
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
  };
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
