/** The tools the server answers itself, in the order they are listed. */
import type { LocalTool } from '../kit/define.js';
import { analyzeAssets } from './analysis.js';
import { creditUsage } from './credit-usage.js';
import { estimateCost } from './estimate-cost.js';
import { queryData } from './query-data.js';
import { runScriptTool } from './run-script.js';
import { searchCryptocurrencies } from './search.js';

export const localTools: readonly LocalTool[] = [
  searchCryptocurrencies,
  analyzeAssets,
  queryData,
  runScriptTool,
  creditUsage,
  estimateCost,
];
