/**
 * The route table. Each catalog module has a sandbox route module of the same name whose handlers
 * carry its endpoints' names (HandlersFor makes a missing one a type error); each route takes its
 * path, parameter schema, plans and credit rule from the catalog: the same definitions the MCP
 * tools check arguments and estimate credits with.
 */
import * as accountEndpoints from '../../catalog/account.js';
import * as communityEndpoints from '../../catalog/community.js';
import * as contentEndpoints from '../../catalog/content.js';
import * as cryptocurrencyEndpoints from '../../catalog/cryptocurrency.js';
import * as historyEndpoints from '../../catalog/cryptocurrency-history.js';
import * as listsEndpoints from '../../catalog/cryptocurrency-lists.js';
import * as referenceEndpoints from '../../catalog/cryptocurrency-reference.js';
import * as dexEndpoints from '../../catalog/dex.js';
import * as globalMetricsEndpoints from '../../catalog/global-metrics.js';
import { type Endpoint, endpoints } from '../../catalog/index.js';
import * as indicesEndpoints from '../../catalog/indices.js';
import * as klineEndpoints from '../../catalog/kline.js';
import * as legacyEndpoints from '../../catalog/legacy.js';
import * as marketPairsEndpoints from '../../catalog/market-pairs.js';
import * as ohlcvEndpoints from '../../catalog/ohlcv.js';
import * as sentimentEndpoints from '../../catalog/sentiment.js';
import * as utilitiesEndpoints from '../../catalog/utilities.js';
import * as account from './account.js';
import * as community from './community.js';
import * as content from './content.js';
import * as cryptocurrency from './cryptocurrency.js';
import * as history from './cryptocurrency-history.js';
import * as lists from './cryptocurrency-lists.js';
import * as reference from './cryptocurrency-reference.js';
import * as dex from './dex.js';
import * as globalMetrics from './global-metrics.js';
import * as indices from './indices.js';
import * as kline from './kline.js';
import * as legacy from './legacy.js';
import * as marketPairs from './market-pairs.js';
import * as sentiment from './sentiment.js';
import type { Handler, HandlersFor, Route } from './types.js';
import * as utilities from './utilities.js';

/** The catalog module's endpoints, each with the handler of the same name. */
function pair<M extends object>(catalogModule: M, handlers: HandlersFor<M>): [Endpoint, Handler][] {
  const byName = handlers as Record<string, Handler>;
  return Object.entries(catalogModule).flatMap(([name, value]) =>
    (value as { kind?: string }).kind === 'endpoint' ? [[value as Endpoint, byName[name]]] : [],
  );
}

const PAIRS = [
  pair(accountEndpoints, account),
  pair(communityEndpoints, community),
  pair(contentEndpoints, content),
  pair(cryptocurrencyEndpoints, cryptocurrency),
  pair(historyEndpoints, history),
  pair(ohlcvEndpoints, history),
  pair(listsEndpoints, lists),
  pair(referenceEndpoints, reference),
  pair(dexEndpoints, dex),
  pair(globalMetricsEndpoints, globalMetrics),
  pair(indicesEndpoints, indices),
  pair(klineEndpoints, kline),
  pair(legacyEndpoints, legacy),
  pair(marketPairsEndpoints, marketPairs),
  pair(sentimentEndpoints, sentiment),
  pair(utilitiesEndpoints, utilities),
].flat();

function buildRoutes(): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const [endpoint, handler] of PAIRS) {
    const { path, serviceInput, plans, credits } = endpoint;
    routes.set(path, { path, input: serviceInput, plans, credits: credits as Route['credits'], ...handler });
  }
  // A catalog module missing above would leave its endpoints without a route: refuse to start.
  const missing = endpoints.filter((e) => !routes.has(e.path)).map((e) => e.name);
  if (missing.length > 0) throw new Error(`The sandbox has no route for ${missing.join(', ')}.`);
  return routes;
}

export const ROUTES: ReadonlyMap<string, Route> = buildRoutes();
