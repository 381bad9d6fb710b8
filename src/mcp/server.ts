/** Builds the MCP server from the catalog: tools/list and tools/call over any transport. */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { endpoints } from '../catalog/index.js';
import type { Config } from '../config.js';
import type { DataSource } from '../upstream/source.js';
import { VERSION } from '../version.js';
import { errorResult, runTool, selectEndpoints, toolDefinition } from './tools.js';

const SERVER_NAME = 'svc-mcp';

const INSTRUCTIONS =
  'Cryptocurrency market data from the Market Data Service: global totals, fear and greed, altcoin season, the svc100/svc20 indices, community trends, DEX platforms, listings and quotes. Answers are compact text; pass format=json for the structured data. Each tool description gives its credit cost.';

/** The tools a configuration exposes, by name, with their definitions computed on first use. */
export function exposedTools(config: Pick<Config, 'plan' | 'toolsets'>) {
  const selected = selectEndpoints(endpoints, config);
  let definitions: Tool[] | undefined;
  return {
    endpoints: new Map(selected.map((e) => [e.name, e])),
    get definitions(): Tool[] {
      definitions ??= selected.map(toolDefinition);
      return definitions;
    },
  };
}

/**
 * The server answers `initialize` at once; tool calls wait for the data source, which may still be
 * starting (the embedded sandbox) when the client connects.
 */
export function createServer(config: Config, source: DataSource | Promise<DataSource>): Server {
  const tools = exposedTools(config);
  const server = new Server(
    { name: SERVER_NAME, version: VERSION, title: 'Market Data Service' },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.definitions }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
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
