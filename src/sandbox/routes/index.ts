/**
 * The route table: each group of the sandbox's own endpoint table (`../service/`) with the route
 * module whose handlers carry its endpoints' names (HandlersFor makes a missing one a type error).
 */
import type { ServiceEndpoint } from '../service/define.js';
import * as table from '../service/index.js';
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

/** The group's endpoints, each with the handler of the same name. */
function pair<G extends Record<string, ServiceEndpoint>>(group: G, handlers: HandlersFor<G>): Route[] {
  const byName = handlers as unknown as Record<string, Handler>;
  return Object.entries(group).map(([name, endpoint]) => {
    const handler = byName[name];
    if (!handler) throw new Error(`The sandbox has no handler for ${name}.`);
    return { ...endpoint, envelope: handler.envelope, handle: handler.handle };
  });
}

const ALL = [
  pair(table.account, account),
  pair(table.community, community),
  pair(table.content, content),
  pair(table.cryptocurrency, cryptocurrency),
  pair(table.history, history),
  pair(table.lists, lists),
  pair(table.reference, reference),
  pair(table.dex, dex),
  pair(table.globalMetrics, globalMetrics),
  pair(table.indices, indices),
  pair(table.kline, kline),
  pair(table.legacy, legacy),
  pair(table.marketPairs, marketPairs),
  pair(table.sentiment, sentiment),
  pair(table.utilities, utilities),
].flat();

export const ROUTES: ReadonlyMap<string, Route> = new Map(ALL.map((route) => [route.path, route]));
