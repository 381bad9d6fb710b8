/** Small helpers for compact text answers: durations, dates, tables. */
import { isoOf } from '../calendar.js';
import { formatWhole } from './numbers.js';

const UNITS: [number, string][] = [
  [86_400, 'day'],
  [3_600, 'h'],
  [60, 'min'],
  [1, 's'],
];

/** 300 → "5 min", 60 → "1 min", 86400 → "1 day", 15 → "15 s". */
export function formatDuration(seconds: number): string {
  for (const [size, unit] of UNITS) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return unit === 'day' && n > 1 ? `${n} days` : `${n} ${unit}`;
    }
  }
  return `${seconds} s`;
}

/** ISO 8601 or Unix seconds → "2026-11-22 14:05 UTC"; dates at midnight print without the time. */
export function formatTime(value: string | number | undefined, dateOnly = false): string {
  if (value === undefined || value === '') return 'unknown time';
  const ms = Date.parse(isoOf(value));
  if (Number.isNaN(ms)) return String(value);
  const iso = new Date(ms).toISOString();
  if (dateOnly) return iso.slice(0, 10);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Cells that say nothing: a column of only these is left out. */
const EMPTY_CELLS: ReadonlySet<string> = new Set(['', '-', 'n/a']);

/** A compact table: a header row, then rows, columns separated by " | "; no column that is all empty. */
export function table(header: string[], rows: string[][]): string {
  // A header over no rows says nothing the summary line does not.
  if (rows.length === 0) return '';
  const kept = header.map((_, c) => rows.some((row) => !EMPTY_CELLS.has(row[c] ?? '')));
  return [header, ...rows].map((cells) => cells.filter((_, c) => kept[c]).join(' | ')).join('\n');
}

/**
 * Names joined with commas within about `chars` characters: past them, the names that fit and
 * "and N more", then `more` (where the rest are).
 */
export function namesWithin(names: readonly string[], chars: number, more = ''): string {
  const all = names.join(', ');
  if (all.length <= chars) return all;
  const cut = all.lastIndexOf(', ', chars);
  const shown = cut > 0 ? all.slice(0, cut) : (names[0] ?? '');
  return `${shown} and ${formatWhole(names.length - shown.split(', ').length)} more${more}`;
}

/** "1 credit", "1,200 credits": a count and its noun, singular for one. */
export function counted(n: number, noun: string): string {
  const shown = Number.isInteger(n) ? formatWhole(n) : n.toLocaleString('en-US');
  return `${shown} ${n === 1 ? noun : plural(noun)}`;
}

/** A noun's plural as English writes it: categories, matches, indexes, days. */
function plural(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return /(s|x|z|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** Join answer lines, dropping the empty ones. */
export function lines(...parts: (string | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join('\n');
}

/**
 * Line breaks of every kind, and the other control characters but tab (C0, DEL, C1): a terminal
 * that shows the text (the CLI's) would take ESC and its kin as commands.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const BREAK_OR_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const BREAKS_OR_CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Whether an object holds a string with a line break or a control character, found once an object. */
const broken = new WeakMap<object, boolean>();

function hasBreakOrControl(value: unknown): boolean {
  if (typeof value === 'string') return BREAK_OR_CONTROL.test(value);
  if (typeof value !== 'object' || value === null) return false;
  let found = broken.get(value);
  if (found === undefined) {
    found = Object.values(value).some(hasBreakOrControl);
    broken.set(value, found);
  }
  return found;
}

/** What JSON.stringify leaves as it is that a terminal or a line reader would act on: DEL, C1, U+2028, U+2029. */
const UNESCAPED = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * `value` as JSON text with those escaped too (as \uXXXX), so that what a third party wrote stays on
 * its line and commands no terminal wherever the text is shown; it parses the same.
 */
export function jsonShown(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent) ?? 'null';
  return json.replace(UNESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Data as a text answer shows it: each string's line breaks and control characters made one space,
 * so that what a third party wrote (a token's name, a topic, an error message) stays on its line
 * and cannot pass for a line of the server's own (a next page, the cost), nor command a terminal.
 * The data itself is not changed: what holds such a string is copied, the rest is the same objects
 * (and is walked once).
 */
export function oneLine<T>(value: T): T {
  if (!hasBreakOrControl(value)) return value;
  if (typeof value === 'string') return value.replace(BREAKS_OR_CONTROLS, ' ') as T;
  if (Array.isArray(value)) return value.map(oneLine) as T;
  return Object.fromEntries(Object.entries(value as object).map(([key, item]) => [key, oneLine(item)])) as T;
}
