/** Budget windows: a UTC day, a UTC month, or all time. Each has an id and the instant it rolls. */
import type { CreditWindow } from '../kit/credits.js';

export type WindowKind = CreditWindow;

export interface BudgetWindow {
  kind: WindowKind;
  /** `day:2026-11-22`, `month:2026-11` or `total`: the ledger's key for the window. */
  id: string;
  /** When the next window starts; null for `total`, which never rolls. */
  resetsAt: Date | null;
}

/** The window of `kind` that holds the instant `nowMs`. */
export function windowAt(kind: WindowKind, nowMs: number): BudgetWindow {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (kind === 'day') {
    return {
      kind,
      id: `day:${now.toISOString().slice(0, 10)}`,
      resetsAt: new Date(Date.UTC(year, month, now.getUTCDate() + 1)),
    };
  }
  if (kind === 'month') {
    return {
      kind,
      id: `month:${now.toISOString().slice(0, 7)}`,
      resetsAt: new Date(Date.UTC(year, month + 1, 1)),
    };
  }
  return { kind, id: 'total', resetsAt: null };
}

/** "in 3 h 12 min (2026-11-23 00:00 UTC)", for refusals. */
export function describeReset(window: BudgetWindow, nowMs: number): string {
  if (window.resetsAt === null) return 'never (the window is total)';
  const minutes = Math.max(1, Math.ceil((window.resetsAt.getTime() - nowMs) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [days && `${days} d`, hours && `${hours} h`, rest && `${rest} min`].filter(Boolean);
  const at = window.resetsAt.toISOString();
  return `in ${parts.join(' ')} (${at.slice(0, 10)} ${at.slice(11, 16)} UTC)`;
}
