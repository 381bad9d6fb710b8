/**
 * Builds an MCP server over the shared services: the configuration's tools (tools/list, tools/call,
 * every call through the one pipeline), the svc://credits and svc://endpoints resources, and the
 * prompts of prompts.ts. Any transport connects it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../call/services.js';
import { VERSION } from '../version.js';
import { listPrompts, PromptError, renderPrompt } from './prompts.js';

const SERVER_NAME = 'svc-mcp';

const INSTRUCTIONS =
  "Cryptocurrency market data from the Market Data Service: market totals, sentiment, indices, listings, quotes and their history, OHLCV, asset info, categories, market pairs, news and posts, DEX charts, price conversion. search_cryptocurrencies finds an asset's id. Answers are compact text; format=json gives the structured data. A parameter a tool does not list, or a malformed value, is refused before anything is sent. An answer cut to fit 1 MiB says so in `truncated`. Each description gives the credit cost; get_credit_usage shows the budget.";

const CREDITS_URI = 'svc://credits';

/**
 * The server answers `initialize` at once: the tool path loads meanwhile (the client lists tools
 * only after initializing), and tool calls wait for the data source, which may still be starting
 * (the embedded sandbox) when the client connects.
 */
export function createServer(services: Services): Server {
  const loading = Promise.all([import('./tools.js'), import('../call/pipeline.js')]).then(
    ([tools, pipeline]) => ({ exposed: tools.exposedTools(services.config), ...pipeline }),
  );
  const server = new Server(
    { name: SERVER_NAME, version: VERSION, title: 'Market Data Service' },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
      },
      instructions: INSTRUCTIONS,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await loading).exposed.definitions,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { exposed, callTool } = await loading;
    const { errorResult } = await import('../call/results.js');
    const tool = exposed.tools.get(request.params.name);
    if (!tool) {
      return errorResult(
        `Unknown tool "${request.params.name.slice(0, 100)}". Available: ${[...exposed.tools.keys()].join(', ')}.`,
      );
    }
    return callTool(services, tool, request.params.arguments, { signal: extra.signal });
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const { endpointsResource } = await import('./resources.js');
    return {
      resources: [
        {
          uri: CREDITS_URI,
          name: 'credits',
          title: 'Credit usage',
          description: "The credit guard's figures for the key: budget, spent, left, by tool, cache savings.",
          mimeType: 'application/json',
        },
        endpointsResource,
      ],
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const { ENDPOINTS_URI, endpointsJson } = await import('./resources.js');
    if (uri === ENDPOINTS_URI) {
      const { exposed } = await loading;
      return {
        contents: [{ uri, mimeType: 'application/json', text: endpointsJson(new Set(exposed.tools.keys())) }],
      };
    }
    if (uri !== CREDITS_URI) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource "${uri.slice(0, 100)}"; this server has ${CREDITS_URI} and ${ENDPOINTS_URI}.`,
      );
    }
    const { accountOf } = await import('../guard/guard.js');
    const source = await services.source();
    const usage = await services.guard.usage(accountOf(source.apiKey ?? ''));
    return { contents: [{ uri: CREDITS_URI, mimeType: 'application/json', text: JSON.stringify(usage) }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { exposed } = await loading;
    try {
      return renderPrompt(request.params.name, request.params.arguments ?? {}, new Set(exposed.tools.keys()));
    } catch (error) {
      if (error instanceof PromptError) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });
  return server;
}
