/** analyze_assets' answer: each asset's figures, the correlations, what they come from, and what they are. */
import { z } from 'zod';
import { ohlcvHistorical } from '../endpoints/ohlcv.js';
import { keptSummary } from '../kit/queries.js';

const nullableNumber = z.number().nullable();
const timedClose = z.object({ time: z.string(), close: z.number() }).nullable();
const assetOutput = z.object({
  id: z.number(),
  symbol: z.string(),
  name: z.string(),
  points: z.number(),
  first: timedClose,
  last: timedClose,
  return_pct: nullableNumber,
  volatility_pct: nullableNumber,
  max_drawdown_pct: nullableNumber,
  drawdown_peak_time: z.string().nullable(),
  drawdown_trough_time: z.string().nullable(),
  highest_close: timedClose,
  lowest_close: timedClose,
  sma: z.object({ '20': nullableNumber, '50': nullableNumber, '200': nullableNumber }),
  ema: z.object({ '12': nullableNumber, '26': nullableNumber }),
  rsi_14: nullableNumber,
  macd: z.object({ line: z.number(), signal: z.number(), histogram: z.number() }).nullable(),
  bollinger_pct_b: nullableNumber,
  beta: nullableNumber,
  correlation: nullableNumber,
});
export const analysisOutput = z.object({
  interval: z.enum(['daily', 'hourly']),
  convert: z.string(),
  benchmark: z.object({ id: z.number(), symbol: z.string() }),
  source: z.object({ tool: z.literal(ohlcvHistorical.name), arguments: z.record(z.string(), z.unknown()) }),
  assets: z.array(assetOutput),
  correlations: z.array(z.object({ a: z.string(), b: z.string(), value: nullableNumber })),
  definitions: z.record(z.string(), z.string()),
  kept: keptSummary.optional(),
});
export type Analysis = z.output<typeof analysisOutput>;
