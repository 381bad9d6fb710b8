/** The "did you mean" ranking of tool names, on the real inventory. */
import { describe, expect, it } from 'vitest';
import { closestNames } from '../../src/inventory/closest-names.js';
import { tools } from '../../src/inventory/tools.js';
import { editDistance } from '../../src/messages.js';

describe('closestNames', () => {
  it('ranks by shared words, then by edits', () => {
    expect(closestNames('get_fear_greed', tools)).toEqual([
      'get_fear_and_greed_latest',
      'get_fear_and_greed_historical',
    ]);
    expect(closestNames('get_fear_and_gred_latest', tools)[0]).toBe('get_fear_and_greed_latest');
    expect(closestNames('dex_platforms', tools)[0]).toBe('list_dex_platforms');
    expect(closestNames('get_ohlcv', tools)).toEqual(['get_ohlcv_latest', 'get_ohlcv_historical']);
  });

  it("reads the tools' titles too, and puts preferred names first among equals", () => {
    expect(closestNames('get_news', tools)[0]).toBe('get_latest_content');
    expect(closestNames('get_ohlcv', tools, new Set(['get_ohlcv_historical']))).toEqual([
      'get_ohlcv_historical',
      'get_ohlcv_latest',
    ]);
  });

  it('suggests nothing when no word is shared (get and latest say nothing)', () => {
    expect(closestNames('get_moon_phase', tools)).toEqual([]);
    expect(closestNames('', tools)).toEqual([]);
  });

  it('editDistance counts inserts, deletes, replacements and two letters swapped', () => {
    expect(editDistance('greed', 'gred')).toBe(1);
    expect(editDistance('valeu', 'value')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('abc', 'ca')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
