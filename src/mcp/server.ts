/** Builds the MCP server from the catalog: tools/list and tools/call over any transport. */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import type { DataSource } from '../upstream/source.js';
import { VERSION } from '../version.js';

const SERVER_NAME = 'svc-mcp';

const INSTRUCTIONS =
  'Cryptocurrency market data from the Market Data Service: global totals, fear and greed, altcoin season, the svc100/svc20 indices, community trends, DEX platforms, listings and quotes. Answers are compact text; pass format=json for the structured data. Each tool description gives its credit cost.';

/**
 * The server answers `initialize` at once: the catalog and the tool path load meanwhile (the client
 * lists tools only after initializing), and tool calls wait for the data source, which may still be
 * starting (the embedded sandbox) when the client connects.
 */
export function createServer(config: Config, source: DataSource | Promise<DataSource>): Server {
  const loading = import('./tools.js').then((module) => ({ ...module, tools: module.exposedTools(config) }));
  const server = new Server(
    { name: SERVER_NAME, version: VERSION, title: 'Market Data Service' },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await loading).tools.definitions,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { tools, errorResult, runTool } = await loading;
    const endpoint = tools.endpoints.get(request.params.name);
    if (!endpoint) {
      return errorResult(
        `Unknown tool "${request.params.name}". Available: ${[...tools.endpoints.keys()].join(', ')}.`,
      );
    }
    return runTool(endpoint, request.params.arguments, await source, extra.signal);
  });
  return server;
}
