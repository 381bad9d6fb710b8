/** The sandbox's table of the service, by group (docs/service.md, "Endpoints"). */
export { cryptocurrency, history, legacy, lists, marketPairs, reference } from './cryptocurrency.js';
export {
  account,
  community,
  content,
  dex,
  globalMetrics,
  indices,
  kline,
  sentiment,
  utilities,
} from './market.js';
