/** The market model on its own: determinism, continuity, pegs, gaps and the history window. */
import { describe, expect, it } from 'vitest';
import { closestQuote, periodsFor } from '../../src/sandbox/history.js';
import { ASSETS, assetById, BITCOIN } from '../../src/sandbox/market/assets.js';
import { pricesAt } from '../../src/sandbox/market/model.js';
import { fearAndGreedClassification } from '../../src/sandbox/market/sentiment.js';
import { marketAt } from '../../src/sandbox/market/snapshot.js';
import { historyStart, isGapSlot, SLOT } from '../../src/sandbox/market/time.js';
import { NOW_S } from '../helpers/now.js';
import { FEAR_AND_GREED_BANDS } from '../helpers/spec-bands.js';
import { DAY } from './helpers.js';

describe('market model', () => {
  it('has about 200 real assets with the real ids of the best-known ones', () => {
    expect(ASSETS.length).toBeGreaterThanOrEqual(190);
    expect(ASSETS.length).toBeLessThanOrEqual(250);
    const known: [number, string][] = [
      [1, 'bitcoin'],
      [1027, 'ethereum'],
      [825, 'tether'],
      [1839, 'bnb'],
      [52, 'xrp'],
      [5426, 'solana'],
      [3408, 'usd-coin'],
      [74, 'dogecoin'],
      [2010, 'cardano'],
      [1958, 'tron'],
    ];
    for (const [id, slug] of known) expect(assetById.get(id)?.slug).toBe(slug);
    expect(ASSETS.filter((a) => a.platform !== null).length).toBeGreaterThan(50);
    expect(ASSETS.filter((a) => a.stable).length).toBeGreaterThanOrEqual(5);
    expect(ASSETS.filter((a) => a.wrapped).length).toBeGreaterThanOrEqual(3);
  });

  it('prices any instant directly: the same answer whatever was computed before', () => {
    const far = NOW_S - 5 * 365 * DAY + 12_345;
    const first = pricesAt(far);
    pricesAt(NOW_S);
    pricesAt(far - 1_000_000);
    expect(Array.from(pricesAt(far))).toEqual(Array.from(first));
    expect(first.every((p) => Number.isFinite(p) && p > 0)).toBe(true);
  });

  it('moves prices continuously: bitcoin changes little in 5 minutes but a lot over years', () => {
    let maxStep = 0;
    for (let k = 0; k < 2_000; k++) {
      const t = NOW_S - k * SLOT;
      const step = Math.abs(Math.log(pricesAt(t)[BITCOIN.index]! / pricesAt(t - SLOT)[BITCOIN.index]!));
      maxStep = Math.max(maxStep, step);
    }
    expect(maxStep).toBeLessThan(0.03);
    const ratio = pricesAt(NOW_S)[BITCOIN.index]! / pricesAt(NOW_S - 5 * 365 * DAY)[BITCOIN.index]!;
    expect(Math.abs(Math.log(ratio))).toBeGreaterThan(0.3);
  });

  it('keeps stablecoins at about one dollar and wrapped assets at their underlying price', () => {
    const weth = assetById.get(2396);
    const wbtc = assetById.get(3717);
    for (let k = 0; k < 500; k++) {
      const t = NOW_S - k * 3 * DAY - k * 977;
      const prices = pricesAt(t);
      for (const a of ASSETS.filter((x) => x.stable))
        expect(Math.abs(prices[a.index]! - 1)).toBeLessThan(0.002);
      expect(prices[weth?.index ?? -1]! / prices[1]!).toBeCloseTo(1, 2);
      expect(prices[wbtc?.index ?? -1]! / prices[BITCOIN.index]!).toBeCloseTo(1, 2);
    }
  });

  it('marks about 1% of 5-minute slots as gaps, the same for every asset', () => {
    let gaps = 0;
    const slots = 100_000;
    for (let k = 0; k < slots; k++) if (isGapSlot(NOW_S - (NOW_S % SLOT) - k * SLOT)) gaps++;
    expect(gaps / slots).toBeGreaterThan(0.007);
    expect(gaps / slots).toBeLessThan(0.013);
  });

  it('has data from six years before now and lists assets only from their date added', () => {
    expect(new Date(historyStart(NOW_S) * 1000).toISOString()).toBe('2020-11-22T12:00:00.000Z');
    const sui = assetById.get(20947);
    if (!sui) throw new Error('sui missing');
    expect(marketAt(sui.dateAdded - DAY).listed[sui.index]).toBe(0);
    expect(marketAt(sui.dateAdded + DAY).listed[sui.index]).toBe(1);
  });

  it('labels fear and greed with the service bands', () => {
    for (const [value, label] of FEAR_AND_GREED_BANDS) expect(fearAndGreedClassification(value)).toBe(label);
  });

  it('takes the closest available slot of a period, skipping gap slots', () => {
    // Find a gap slot and ask for a 5-minute period around it: nothing; a 1h period: a neighbour.
    let gap = NOW_S - (NOW_S % SLOT);
    while (!isGapSlot(gap)) gap -= SLOT;
    expect(closestQuote({ requested: gap, lo: gap, hi: gap + SLOT - 1 }, 0, NOW_S)).toBeUndefined();
    const near = closestQuote({ requested: gap, lo: gap - 1800, hi: gap + 1799 }, 0, NOW_S);
    expect(near === gap - SLOT || near === gap + SLOT).toBe(true);
    const periods = periodsFor({ end: NOW_S, count: 3, interval: 'monthly' });
    expect(periods.map((p) => new Date(p.requested * 1000).toISOString())).toEqual([
      '2026-09-01T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
    ]);
  });
});
