/**
 * Builds an MCP server over the shared services: the configuration's tools (tools/list, tools/call,
 * every call through the one pipeline), the svc://credits and svc://endpoints resources, and the
 * prompts of prompts.ts. Both transports call it:
 * stdio once per connection, HTTP once per request (the services are built once per process and
 * shared; the server object itself holds nothing between requests).
 */
import {
  type CallToolResult,
  INVALID_PARAMS,
  McpServer,
  ProtocolError,
  ResourceNotFoundError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Services } from '../call/services.js';
import { clip } from '../messages.js';
import { VERSION } from '../version.js';
import { askToConfirm } from './confirm.js';
import { listPrompts, PromptError, renderPrompt } from './prompts.js';
import type { RawCallProblem } from './raw-call.js';

const SERVER_NAME = 'svc-mcp';

/** How often a call that is still running tells a client that asked for progress how long it has waited. */
export const PROGRESS_INTERVAL_MS = 1_000;

/** What the transport knows of the caller. */
export interface Caller {
  /** The protocol family the server will speak: 2025 revisions (`legacy`) or 2026-07-28 (`modern`). */
  era?: 'legacy' | 'modern';
  /** The key the client sent for the service (HTTP), used instead of the server's own. */
  apiKey?: string;
  /** The signed-in person (HTTP with sign-in), as the ledger names them. */
  person?: string;
  /** The person's token carries the admin scope: they see everyone's figures. */
  admin?: boolean;
}

type ToolPath = Awaited<ReturnType<typeof loadToolPath>>;

/** The tool path for a process's configuration: loaded once, shared by every server built over it. */
const toolPaths = new WeakMap<Services, Promise<ToolPath>>();

async function loadToolPath(services: Services) {
  const [tools, pipeline, results, resources, catalog, views, { instructionsFor }] = await Promise.all([
    import('./tools.js'),
    import('../call/pipeline.js'),
    import('../call/results.js'),
    import('./resources.js'),
    import('../catalog/index.js'),
    import('./views.js'),
    import('./instructions.js'),
  ]);
  const exposed = tools.exposedTools(services.config);
  const listed = [...exposed.tools.values()];
  return {
    exposed,
    instructions: instructionsFor(listed, catalog.tools, services.config.maxAnswerChars),
    ...pipeline,
    ...results,
    resources,
    listHint: tools.listCacheHint(listed),
    unknownToolMessage: catalog.unknownToolMessage,
    views,
  };
}

/** Starts loading what a server needs (the catalog, the call path), so that the first request finds it loaded. */
export function prepareServer(services: Services): void {
  void toolPath(services);
}

function toolPath(services: Services): Promise<ToolPath> {
  let loading = toolPaths.get(services);
  if (!loading) {
    loading = loadToolPath(services);
    toolPaths.set(services, loading);
  }
  return loading;
}

/**
 * What a tools/call refused before the SDK reads it is answered with (see raw-call.ts). It is
 * written to the transport as it is, not through the SDK, so it says itself what 2026-07-28 clients
 * require of a result (`resultType`), which clients of the 2025 revisions ignore.
 */
export async function rawCallRefusal(services: Services, problem: RawCallProblem): Promise<CallToolResult> {
  const [path, { unknownMember, unknownParameter }] = await Promise.all([
    toolPath(services),
    import('../catalog/params.js'),
  ]);
  const tool = problem.kind === 'proto' ? path.exposed.tools.get(problem.name) : undefined;
  const refusal = path.errorResult(
    problem.kind === 'params'
      ? problem.message
      : !tool
        ? unknownTool(services, path, problem.name)
        : problem.path.length === 0
          ? unknownParameter(tool.toolInput, '__proto__')
          : unknownMember(problem.path, '__proto__'),
  );
  return { ...refusal, resultType: 'complete' };
}

/** The refusal of a tool this configuration does not expose, with the closest names. */
function unknownTool(services: Services, path: ToolPath, name: string): string {
  const names = [...path.exposed.tools.keys()];
  return path.unknownToolMessage(name, services.config, names, `tools/list gives all ${names.length} tools.`);
}

/**
 * A server for one connection (stdio) or one request (HTTP), once the tool path is loaded: its
 * catalog gives the instructions (built from the tools listed) and, on 2026-07-28, the lists'
 * cache hints. Tool calls wait for the data source, which may still be starting (the embedded
 * sandbox).
 */
export async function createServer(services: Services, caller: Caller = {}): Promise<McpServer> {
  const loading = toolPath(services);
  const { instructions, listHint: hint } = await loading;
  // The lists change only with the settings; a credit figure changes with every call.
  const listHint = caller.era === 'modern' ? hint : undefined;
  const mcp = new McpServer(
    { name: SERVER_NAME, version: VERSION, title: 'Market Data Service' },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
      },
      instructions,
      cacheHints: {
        'server/discover': listHint,
        'tools/list': listHint,
        'resources/list': listHint,
        'prompts/list': listHint,
        'resources/read': { ttlMs: 0, cacheScope: 'private' },
      },
    },
  );
  mcp.server.setRequestHandler('tools/list', async () => ({ tools: (await loading).exposed.definitions }));
  mcp.server.setRequestHandler('tools/call', async (request, ctx) => {
    const path = await loading;
    const { exposed, callTool, errorResult } = path;
    const { name, arguments: args } = request.params;
    const tool = exposed.tools.get(name);
    if (!tool) return errorResult(unknownTool(services, path, name));
    const confirmation = askToConfirm(mcp, ctx, { name, args }, services);
    const run = () =>
      whileReportingProgress(ctx, () =>
        callTool(services, tool, args, {
          signal: ctx.mcpReq.signal,
          apiKey: caller.apiKey,
          person: caller.person,
          admin: caller.admin,
          confirm: confirmation?.confirm,
        }),
      );
    // The MCP semantic conventions' server span, continuing the trace the client's _meta names.
    const attributes = {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'jsonrpc.request.id': String(ctx.mcpReq.id),
    };
    const result = services.telemetry
      ? await services.telemetry.request(`tools/call ${name}`, attributes, ctx.mcpReq._meta, run, (answer) =>
          answer.isError ? 'tool_error' : undefined,
        )
      : await run();
    // 2026-07-28: the question goes back as an input-required result; the client retries with the answer.
    if (confirmation?.pending) return confirmation.pending;
    return mcp.server.projectCallToolResult(result, exposed.definition(name)?.outputSchema);
  });
  mcp.server.setRequestHandler('resources/list', async () => {
    const { resources, exposed, views } = await loading;
    const { creditsResource, endpointsResource } = resources;
    return {
      resources: [creditsResource, endpointsResource, ...views.viewResources(new Set(exposed.tools.keys()))],
    };
  });
  mcp.server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    const { exposed, resources, views } = await loading;
    const { CREDITS_URI, ENDPOINTS_URI } = resources;
    const json = (text: string) => ({ contents: [{ uri, mimeType: 'application/json', text }] });
    if (uri === ENDPOINTS_URI) return json(resources.endpointsJson(new Set(exposed.tools.keys())));
    const view = views.readView(uri);
    if (view) return { contents: [{ uri, mimeType: views.VIEW_MIME_TYPE, text: await view }] };
    if (uri !== CREDITS_URI) {
      throw new ResourceNotFoundError(
        uri,
        `Unknown resource "${clip(uri, 100)}"; this server has ${CREDITS_URI}, ${ENDPOINTS_URI} and the ui:// views resources/list gives.`,
      );
    }
    const { accountOf } = await import('../guard/accounts.js');
    const source = await services.source();
    const account = accountOf(caller.apiKey ?? source.apiKey ?? '');
    return json(JSON.stringify(await services.guard.usage(account, caller.person, caller.admin)));
  });
  mcp.server.setRequestHandler('prompts/list', async () => ({ prompts: listPrompts() }));
  mcp.server.setRequestHandler('prompts/get', async (request) => {
    const { exposed } = await loading;
    try {
      return renderPrompt(request.params.name, request.params.arguments ?? {}, new Set(exposed.tools.keys()));
    } catch (error) {
      if (error instanceof PromptError) throw new ProtocolError(INVALID_PARAMS, error.message);
      throw error;
    }
  });
  return mcp;
}

/**
 * Run a call; when the client asked for progress and the call outlasts PROGRESS_INTERVAL_MS (a long
 * historical range, a slow service), send a progress notification each interval saying how long it
 * has waited, which also keeps a client's own request timeout from firing while the answer comes.
 */
async function whileReportingProgress<T>(ctx: ServerContext, call: () => Promise<T>): Promise<T> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return call();
  let seconds = 0;
  const timer = setInterval(() => {
    seconds += PROGRESS_INTERVAL_MS / 1000;
    ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken, progress: seconds, message: `Waiting for the service: ${seconds} s` },
      })
      .catch(() => {}); // the client left: the call's signal stops it
  }, PROGRESS_INTERVAL_MS);
  try {
    return await call();
  } finally {
    clearInterval(timer);
  }
}
