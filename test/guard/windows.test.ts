/** Budget windows: ids and reset instants at the edges of days, months and years (UTC). */
import { describe, expect, it } from 'vitest';
import { describeReset, windowAt } from '../../src/guard/windows.js';

const at = (iso: string) => Date.parse(iso);

describe('windowAt', () => {
  it('a day rolls at the next 00:00 UTC', () => {
    expect(windowAt('day', at('2026-11-22T23:59:59.999Z'))).toEqual({
      kind: 'day',
      id: 'day:2026-11-22',
      resetsAt: new Date('2026-11-23T00:00:00Z'),
    });
    expect(windowAt('day', at('2026-11-23T00:00:00Z')).id).toBe('day:2026-11-23');
  });

  it('a month rolls on the first at 00:00 UTC, December into January', () => {
    expect(windowAt('month', at('2026-12-31T23:00:00Z'))).toEqual({
      kind: 'month',
      id: 'month:2026-12',
      resetsAt: new Date('2027-01-01T00:00:00Z'),
    });
    expect(windowAt('month', at('2027-01-01T00:00:00Z')).id).toBe('month:2027-01');
  });

  it('total never rolls', () => {
    expect(windowAt('total', at('2026-11-22T12:00:00Z'))).toEqual({
      kind: 'total',
      id: 'total',
      resetsAt: null,
    });
  });

  it('local time zones do not move the UTC day', () => {
    // 2026-11-22T23:30 in UTC-5 is already the 23rd in UTC.
    expect(windowAt('day', at('2026-11-22T23:30:00-05:00')).id).toBe('day:2026-11-23');
  });
});

describe('describeReset', () => {
  it('says how long until the window rolls, and when', () => {
    const window = windowAt('day', at('2026-11-22T20:47:30Z'));
    expect(describeReset(window, at('2026-11-22T20:47:30Z'))).toBe('in 3 h 13 min (2026-11-23 00:00 UTC)');
    expect(describeReset(windowAt('total', 0), 0)).toMatch(/never/);
  });
});
