/** Times in and out: what the tools accept, and how upstream epoch numbers read as ISO 8601. */
import { describe, expect, it } from 'vitest';
import { calendarPeriods, isoOf } from '../../src/calendar.js';
import { parseTime } from '../../src/kit/time.js';
import { NOW_S } from '../helpers/now.js';

describe('parseTime', () => {
  it('takes Unix seconds and ISO 8601 within 2010 to tomorrow', () => {
    expect(parseTime(1_700_000_000, NOW_S)).toBe(1_700_000_000);
    expect(parseTime('1700000000', NOW_S)).toBe(1_700_000_000);
    expect(parseTime('2026-11-01', NOW_S)).toBe(Date.parse('2026-11-01T00:00:00Z') / 1000);
    expect(parseTime('2026-11-01T12:00:00+02:00', NOW_S)).toBe(Date.parse('2026-11-01T10:00:00Z') / 1000);
  });

  it('refuses days that do not exist, times out of range and fractions', () => {
    for (const bad of ['2026-02-30', '2026-11-01T25:00:00Z', '2009-12-31', '2026-11-24', 1.5, 'soon'])
      expect(parseTime(bad, NOW_S), String(bad)).toBeUndefined();
  });
});

describe('isoOf', () => {
  it('reads epoch seconds and epoch milliseconds, as numbers or digit strings', () => {
    const iso = '2023-11-14T22:13:20.000Z';
    expect(isoOf(1_700_000_000)).toBe(iso);
    expect(isoOf('1700000000')).toBe(iso);
    expect(isoOf(1_700_000_000_000)).toBe(iso);
    expect(isoOf('1700000000000')).toBe(iso);
  });

  it('leaves ISO 8601 and other text as it is', () => {
    expect(isoOf('2026-11-22T00:00:00Z')).toBe('2026-11-22T00:00:00Z');
    expect(isoOf('n/a')).toBe('n/a');
  });
});

describe('calendarPeriods', () => {
  const at = (iso: string) => Date.parse(iso) / 1000;
  it('counts from the period holding the start to the one holding the end, on the calendar', () => {
    // 31 January to 1 March: January, February and March, whatever a month's mean length says.
    expect(calendarPeriods(at('2026-01-31T12:00:00Z'), at('2026-03-01T00:00:00Z'), 'monthly')).toBe(3);
    expect(calendarPeriods(at('2024-12-31T23:00:00Z'), at('2025-01-01T00:00:00Z'), 'yearly')).toBe(2);
    // A Sunday to the Monday after: two ISO weeks.
    expect(calendarPeriods(at('2026-11-22T12:00:00Z'), at('2026-11-23T00:00:00Z'), 'weekly')).toBe(2);
    expect(calendarPeriods(at('2026-11-01T23:00:00Z'), at('2026-11-02T01:00:00Z'), 'daily')).toBe(2);
    expect(calendarPeriods(at('2026-11-01T00:30:00Z'), at('2026-11-01T00:40:00Z'), 'hourly')).toBe(1);
    expect(calendarPeriods(at('2026-11-02T00:00:00Z'), at('2026-11-01T00:00:00Z'), 'daily')).toBe(0);
  });
});
