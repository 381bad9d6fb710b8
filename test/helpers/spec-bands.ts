/** The spec's label bands (docs/service.md, "Answers"), as tests check labels against them. */

/** `Extreme Fear` below 20, `Fear` 20–39, `Neutral` 40–59, `Greed` 60–79, `Extreme Greed` 80–100: each edge and its neighbour. */
export const FEAR_AND_GREED_BANDS: readonly [number, string][] = [
  [0, 'Extreme Fear'],
  [19, 'Extreme Fear'],
  [20, 'Fear'],
  [39, 'Fear'],
  [40, 'Neutral'],
  [59, 'Neutral'],
  [60, 'Greed'],
  [79, 'Greed'],
  [80, 'Extreme Greed'],
  [100, 'Extreme Greed'],
];

/** Above 75 altcoin season, below 25 bitcoin season, between them neither. */
export const ALTCOIN_SEASON_BANDS: readonly [number, string][] = [
  [0, 'bitcoin season'],
  [24, 'bitcoin season'],
  [25, 'neither season'],
  [75, 'neither season'],
  [76, 'altcoin season'],
  [100, 'altcoin season'],
];
