/** The compact text helpers on their own: numbers, money, percentages, times, tables, series. */
import { describe, expect, it } from 'vitest';
import { currencyLabel } from '../../src/currency-ids.js';
import {
  formatMoney,
  formatNumber,
  formatPercent,
  formatPrice,
  formatShare,
  formatWhole,
  plainDecimal,
} from '../../src/format/numbers.js';
import { candleSpan, describeSeries, seriesText } from '../../src/format/series.js';
import { counted, formatDuration, formatTime, lines, table } from '../../src/format/text.js';

describe('numbers', () => {
  it.each([
    [1_930_000_000_000, 'USD', '$1.93T'],
    [2_100_000_000, 'EUR', '€2.1B'],
    [123_456_789_000, 'USD', '$123.5B'],
    [45_600, 'GBP', '£45.6K'],
    [733.5, 'USD', '$733.50'],
    [0.070881, 'USD', '$0.07088'],
    [1.857e-9, 'USD', '$0.000000001857'],
    [-8.8012e-7, 'USD', '-$0.0000008801'],
    [-2_500_000, 'USD', '-$2.5M'],
    [0.0312, 'BTC', '0.0312 BTC'],
    [12, '2790', '€12.00'],
    [Number.NaN, 'USD', 'n/a'],
  ])('formatMoney(%d, %s) is %s', (value, currency, text) => {
    expect(formatMoney(value, currency)).toBe(text);
  });

  it('prices keep their digits unless they are very large', () => {
    expect(formatPrice(97_123.456)).toBe('$97,123.46');
    expect(formatPrice(2_500_000_000)).toBe('$2.5B');
    expect(formatPrice(undefined)).toBe('n/a');
  });

  it('numbers, percentages and shares', () => {
    expect(formatNumber(1234.5678)).toBe('1,234.57');
    expect(formatNumber(0.000123456)).toBe('0.0001235');
    expect(formatNumber(1.857e-9)).toBe('0.000000001857');
    expect(formatPrice(8.8012e-7)).toBe('$0.0000008801');
    expect(formatNumber(null)).toBe('n/a');
    expect(formatPercent(2.44)).toBe('+2.4%');
    expect(formatPercent(-0.345)).toBe('-0.34%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatShare(56.24)).toBe('56.2%');
    expect(currencyLabel('2781')).toBe('USD');
    expect(currencyLabel('XYZ')).toBe('XYZ');
  });

  it('whole numbers are grouped as en-US writes them', () => {
    const wholes = [0, 7, 999, 1000, -1000, 1234567, -987654321, 2 ** 40, Number.MAX_SAFE_INTEGER];
    for (let digits = 1; digits <= 16; digits++) wholes.push(Math.floor(Math.random() * 10 ** digits));
    for (const n of wholes) {
      expect(formatWhole(n), String(n)).toBe(n.toLocaleString('en-US'));
      expect(formatNumber(n), String(n)).toBe(n.toLocaleString('en-US'));
      expect(counted(n, 'credit'), String(n)).toBe(
        `${n.toLocaleString('en-US')} credit${n === 1 ? '' : 's'}`,
      );
    }
    expect(counted(2.5, 'credit')).toBe('2.5 credits');
  });

  it('counts nouns as English writes their plurals', () => {
    expect(counted(3, 'category')).toBe('3 categories');
    expect(counted(2, 'newly listed cryptocurrency')).toBe('2 newly listed cryptocurrencies');
    expect(counted(1, 'cryptocurrency')).toBe('1 cryptocurrency');
    expect(counted(2, 'day')).toBe('2 days');
    expect(counted(2, 'index')).toBe('2 indexes');
    expect(counted(2, 'match')).toBe('2 matches');
    expect(counted(1, 'daily value')).toBe('1 daily value');
  });

  it('plain decimals never use an exponent', () => {
    expect(plainDecimal(1e-8)).toBe('0.00000001');
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(-12.5)).toBe('-12.5');
  });
});

describe('text', () => {
  it.each([
    [15, '15 s'],
    [60, '1 min'],
    [300, '5 min'],
    [3_600, '1 h'],
    [86_400, '1 day'],
    [172_800, '2 days'],
    [90, '90 s'],
  ])('formatDuration(%i) is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('times from ISO 8601, Unix seconds and milliseconds', () => {
    expect(formatTime('2026-11-22T14:05:09.000Z')).toBe('2026-11-22 14:05 UTC');
    expect(formatTime(1_795_345_200)).toBe('2026-11-22 11:00 UTC');
    expect(formatTime('1795345200000')).toBe('2026-11-22 11:00 UTC');
    expect(formatTime('2026-11-22T00:00:00Z', true)).toBe('2026-11-22');
    expect(formatTime(undefined)).toBe('unknown time');
    expect(formatTime('not a time')).toBe('not a time');
  });

  it('tables leave out columns with nothing in them', () => {
    expect(
      table(
        ['A', 'B', 'C'],
        [
          ['1', '-', 'x'],
          ['2', 'n/a', 'y'],
        ],
      ),
    ).toBe('A | C\n1 | x\n2 | y');
    expect(table(['A', 'B'], [])).toBe('');
  });

  it('lines drop the empty parts', () => {
    expect(lines('a', undefined, false, '', 'b')).toBe('a\nb');
  });
});

describe('series', () => {
  const points = [
    { time: '2026-11-20T00:00:00Z', value: 100 },
    { time: '2026-11-21T00:00:00Z', value: 80 },
    { time: '2026-11-22T00:00:00Z', value: 120 },
  ];

  it('dates a candle’s close by the candle: its day, its days, or its span; so far when open', () => {
    const hour = 3_600_000;
    expect(candleSpan('2026-11-25T00:00:00.000Z', 24 * hour, true)).toBe('2026-11-25');
    expect(candleSpan('2026-11-23T00:00:00.000Z', 7 * 24 * hour, true)).toBe('2026-11-23 to 2026-11-29');
    expect(candleSpan('2026-11-25T20:00:00.000Z', 4 * hour, true)).toBe('2026-11-25 20:00–00:00 UTC');
    expect(candleSpan('2026-11-25T10:00:00.000Z', hour, false)).toBe('2026-11-25 10:00 UTC, so far');
    expect(candleSpan('2026-11-25T00:00:00.000Z', 24 * hour, false)).toBe('2026-11-25, so far');
    expect(candleSpan('soon', hour, true)).toBe('soon');
    const closes = [{ time: '2026-11-25T10:00:00.000Z', value: 1, label: '2026-11-25 10:00–11:00 UTC' }];
    expect(describeSeries(closes, String)).toMatch(/^first 1 \(2026-11-25 10:00–11:00 UTC\),/);
  });

  it('describes first, last, min, max and the change', () => {
    expect(describeSeries(points, String, { dateOnly: true })).toBe(
      'first 100 (2026-11-20), last 120 (2026-11-22), min 80 (2026-11-21), max 120 (2026-11-22), change +20.0%',
    );
    expect(describeSeries(points, String, { dateOnly: true, changeIn: 'points' })).toContain(
      'change +20 points',
    );
    const step = [
      { time: '2026-11-20T00:00:00.000Z', value: 50 },
      { time: '2026-11-21T00:00:00.000Z', value: 49 },
    ];
    expect(describeSeries(step, String, { changeIn: 'points' })).toMatch(/, change -1 point$/);
    expect(describeSeries([], String)).toBe('no data points in the range asked');
    expect(
      describeSeries(
        [
          { time: 0, value: 0 },
          { time: 60, value: 5 },
        ],
        String,
      ),
    ).not.toContain('change');
  });

  const view = {
    headline: () => 'Three days',
    header: ['Day', 'Value'],
    row: (p: { time: string; value: number }) => [formatTime(p.time, true), String(p.value)],
    one: (p: { time: string; value: number }) => `On ${formatTime(p.time, true)}: ${p.value}`,
  };

  it('shows every point under its headline, and one point as a sentence', () => {
    const many = Array.from({ length: 101 }, (_, i) => ({
      time: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
      value: i,
    }));
    expect(seriesText(many, view).split('\n')).toHaveLength(1 + 1 + 101);
    expect(seriesText(points, view)).toBe(
      'Three days\nDay | Value\n2026-11-20 | 100\n2026-11-21 | 80\n2026-11-22 | 120',
    );
    expect(seriesText(points.slice(0, 1), view)).toBe('On 2026-11-20: 100');
  });
});
