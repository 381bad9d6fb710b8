/**
 * Builds an MCP server over the shared services: the configuration's tools (tools/list, tools/call,
 * every call through the one pipeline) and the svc://credits resource. Any transport connects it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../call/services.js';
import { VERSION } from '../version.js';

const SERVER_NAME = 'svc-mcp';

const INSTRUCTIONS =
  'Cryptocurrency market data from the Market Data Service: global totals, fear and greed, altcoin season, the svc100/svc20 indices, community trends, DEX platforms, listings and quotes. Answers are compact text; pass format=json for the structured data. Each tool description gives its credit cost; get_credit_usage shows the budget.';

const CREDITS_URI = 'svc://credits';

/** What a tools/call with `__proto__` among its arguments is answered with (see proto-key.ts). */
export async function protoKeyRefusal(services: Services, name: string): Promise<CallToolResult> {
  const [{ exposedTools }, { errorResult }, { unknownParameter }] = await Promise.all([
    import('./tools.js'),
    import('../call/results.js'),
    import('../catalog/params.js'),
  ]);
  const tool = exposedTools(services.config).tools.get(name);
  return errorResult(
    tool ? unknownParameter(tool.toolInput, '__proto__') : `Unknown tool "${name.slice(0, 100)}".`,
  );
}

/**
 * The server answers `initialize` at once: the tool path loads meanwhile (the client lists tools
 * only after initializing), and tool calls wait for the data source, which may still be starting
 * (the embedded sandbox) when the client connects.
 */
export function createServer(services: Services): Server {
  const loading = Promise.all([
    import('./tools.js'),
    import('../call/pipeline.js'),
    import('../call/results.js'),
  ]).then(([tools, pipeline, results]) => ({
    exposed: tools.exposedTools(services.config),
    ...pipeline,
    ...results,
  }));
  const server = new Server(
    { name: SERVER_NAME, version: VERSION, title: 'Market Data Service' },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions: INSTRUCTIONS,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await loading).exposed.definitions,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { exposed, callTool, errorResult } = await loading;
    const tool = exposed.tools.get(request.params.name);
    if (!tool) {
      return errorResult(
        `Unknown tool "${request.params.name.slice(0, 100)}". Available: ${[...exposed.tools.keys()].join(', ')}.`,
      );
    }
    return callTool(services, tool, request.params.arguments, { signal: extra.signal });
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: CREDITS_URI,
        name: 'credits',
        title: 'Credit usage',
        description: "The credit guard's figures for the key: budget, spent, left, by tool, cache savings.",
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== CREDITS_URI) {
      throw new Error(
        `Unknown resource "${request.params.uri.slice(0, 100)}"; this server has ${CREDITS_URI}.`,
      );
    }
    const { accountOf } = await import('../guard/guard.js');
    const source = await services.source();
    const usage = await services.guard.usage(accountOf(source.apiKey ?? ''));
    return { contents: [{ uri: CREDITS_URI, mimeType: 'application/json', text: JSON.stringify(usage) }] };
  });
  return server;
}
