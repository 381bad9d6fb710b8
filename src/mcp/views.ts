/**
 * The MCP Apps views (io.modelcontextprotocol/ui): which view draws which tool's answer, and the
 * views as `ui://` resources. A host that renders views shows the chart beside the answer, from
 * the result's structured data (no second call); a host that does not sees the tool as before.
 * The pages are built by scripts/build-views.mjs into dist/views/.
 */
import { readFile } from 'node:fs/promises';
import { packageFile } from '../package-files.js';

export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** Each view, what it shows, and the tools whose answers it draws. */
const VIEWS = {
  price: {
    title: 'Price chart',
    description: 'Candles and volume, or a price line, with the values under the crosshair.',
    tools: [
      'get_ohlcv_historical',
      'get_kline_candles',
      'get_cryptocurrency_quotes_historical',
      'get_kline_points',
    ],
  },
  sentiment: {
    title: 'Sentiment',
    description: 'A gauge for the latest fear and greed or altcoin season; their histories with the bands.',
    tools: [
      'get_fear_and_greed_latest',
      'get_fear_and_greed_historical',
      'get_altcoin_season_index_latest',
      'get_altcoin_season_index_historical',
    ],
  },
  overview: {
    title: 'Market overview',
    description:
      'Market cap, volume and BTC/ETH dominance over time; the top of the listings with 24 h change.',
    tools: ['get_global_metrics_historical', 'get_cryptocurrency_listings_latest'],
  },
} as const;

type ViewName = keyof typeof VIEWS;

const uriOf = (name: string) => `ui://svc-mcp/${name}.html`;

const VIEW_OF_TOOL: ReadonlyMap<string, string> = new Map(
  Object.entries(VIEWS).flatMap(([name, view]) =>
    view.tools.map((tool): [string, string] => [tool, uriOf(name)]),
  ),
);

/** The `_meta` a tool's definition carries when a view draws its answers. */
export function viewMeta(tool: string): { ui: { resourceUri: string } } | undefined {
  const resourceUri = VIEW_OF_TOOL.get(tool);
  return resourceUri === undefined ? undefined : { ui: { resourceUri } };
}

/** The views a server with these tools lists as resources. */
export function viewResources(tools: ReadonlySet<string>) {
  return Object.entries(VIEWS)
    .filter(([, view]) => view.tools.some((tool) => tools.has(tool)))
    .map(([name, view]) => ({
      uri: uriOf(name),
      name: `${name}-view`,
      title: view.title,
      description: view.description,
      mimeType: VIEW_MIME_TYPE,
    }));
}

const pages = new Map<string, Promise<string>>();

/** A view's page by its `ui://` address, or undefined for an address that is not a view. */
export function readView(uri: string): Promise<string> | undefined {
  const name = /^ui:\/\/svc-mcp\/([a-z]+)\.html$/.exec(uri)?.[1];
  if (name === undefined || !(name in VIEWS)) return undefined;
  let page = pages.get(name);
  if (!page) {
    page = readFile(packageFile(`dist/views/${name as ViewName}.html`), 'utf8');
    pages.set(name, page);
  }
  return page;
}
