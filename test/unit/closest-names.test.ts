/** The "did you mean" ranking of tool names, on the real tool list. */
import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from '../../src/catalog/closest-names.js';
import { ALL_TOOLS } from '../helpers/tool-names.js';

describe('closestNames', () => {
  it('ranks by shared words, then by edits', () => {
    expect(closestNames('get_fear_greed', ALL_TOOLS)).toEqual([
      'get_fear_and_greed_latest',
      'get_fear_and_greed_historical',
    ]);
    expect(closestNames('get_fear_and_gred_latest', ALL_TOOLS)[0]).toBe('get_fear_and_greed_latest');
    expect(closestNames('dex_platforms', ALL_TOOLS)[0]).toBe('list_dex_platforms');
    expect(closestNames('get_ohlcv', ALL_TOOLS)).toEqual(['get_ohlcv_latest', 'get_ohlcv_historical']);
  });

  it('suggests nothing when no word is shared (get and latest say nothing)', () => {
    expect(closestNames('get_moon_phase', ALL_TOOLS)).toEqual([]);
    expect(closestNames('', ALL_TOOLS)).toEqual([]);
  });

  it('editDistance counts inserts, deletes and replacements', () => {
    expect(editDistance('greed', 'gred')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
