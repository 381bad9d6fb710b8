/**
 * Labels by the spec's bands (docs/service.md, "Answers"), written here as the spec
 * gives them: fear and greed answers that arrive without their label, and the altcoin season
 * reading, at and around every band edge, end to end through the tools.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/cli.js';
import { useFakeUpstreamSession } from '../helpers/fake-session.js';
import { NOW } from '../helpers/now.js';
import { ALTCOIN_SEASON_BANDS, FEAR_AND_GREED_BANDS } from '../helpers/spec-bands.js';
import { okStatus } from '../helpers/upstream-shapes.js';

const session = useFakeUpstreamSession();

describe('fear and greed answered without labels', () => {
  it.each(FEAR_AND_GREED_BANDS)('latest %i is %s', async (value, label) => {
    session.upstream.reply('/v3/fear-and-greed/latest', {
      body: { status: okStatus, data: { value, update_time: NOW } },
    });
    const result = await session.mcp.call('get_fear_and_greed_latest');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ value, value_classification: label });
    expect(textOf(result)).toContain(`Fear & Greed ${value} – ${label}`);
  });

  it('a history labels each day by its band', async () => {
    const day = Date.parse('2026-11-01T00:00:00Z') / 1000;
    session.upstream.reply('/v3/fear-and-greed/historical', {
      body: {
        status: okStatus,
        data: FEAR_AND_GREED_BANDS.map(([value], i) => ({ timestamp: String(day - i * 86_400), value })),
      },
    });
    const result = await session.mcp.call('get_fear_and_greed_historical', {
      limit: FEAR_AND_GREED_BANDS.length,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const points = (result.structuredContent as { items: { value: number; value_classification: string }[] })
      .items;
    expect(points.map((p) => [p.value, p.value_classification])).toEqual(
      expect.arrayContaining([...FEAR_AND_GREED_BANDS]),
    );
    expect(points).toHaveLength(FEAR_AND_GREED_BANDS.length);
  });
});

describe('altcoin season', () => {
  it.each(ALTCOIN_SEASON_BANDS)('index %i is %s', async (index, season) => {
    session.upstream.reply('/v1/altcoin-season-index/latest', {
      body: { status: okStatus, data: { altcoin_index: index, timestamp: NOW } },
    });
    const result = await session.mcp.call('get_altcoin_season_index_latest');
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ altcoin_index: index, season });
  });
});
