/**
 * Builds an MCP server over the shared services: the tools the settings list (tools/list,
 * tools/call, every call through the one pipeline), the svc://credits and svc://endpoints resources
 * and the views, and the prompts, all answered by the process's runtime (runtime.ts). Both
 * transports call it: stdio once per connection, HTTP once per request (the services are built
 * once per process and shared; the server object itself holds nothing between requests).
 */
import {
  type CallToolResult,
  INVALID_PARAMS,
  McpServer,
  ProtocolError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { Question } from '../call/context.js';
import type { Config } from '../config/index.js';
import { ICON } from '../icon.js';
import type { Services } from '../services/index.js';
import { VERSION } from '../version.js';
import { askToConfirm } from './confirm.js';
import { listingFor } from './listing.js';
import { PromptError } from './prompts.js';
import type { RawCallProblem } from './raw-call.js';
import { type Asker, type Runtime, runtimeOf } from './runtime.js';

const SERVER_NAME = 'svc-mcp';

/** How often a call that is still running tells a client that asked for progress how long it has waited. */
export const PROGRESS_INTERVAL_MS = 1_000;

/** What the transport knows of the caller. */
export interface Caller extends Asker {
  /** The protocol family the server will speak: 2025 revisions (`legacy`) or 2026-07-28 (`modern`). */
  era?: 'legacy' | 'modern';
}

/**
 * What a server is built over: the settings, and the shared services, which may still be loading
 * (stdio answers `initialize` and the tool list before they have).
 */
export interface ServerBase {
  config: Config;
  services(): Promise<Services>;
}

/** A base over services already built. */
export function baseOf(services: Services): ServerBase {
  const ready = Promise.resolve(services);
  return { config: services.config, services: () => ready };
}

/** Starts loading what a server needs (the tools, the call path), so that the first request finds it loaded. */
export function prepareServer(services: Services): void {
  void runtimeOf(services);
}

/** What a tools/call refused before the SDK reads it is answered with (raw-call.ts). */
export async function rawCallRefusal(base: ServerBase, problem: RawCallProblem): Promise<CallToolResult> {
  return (await runtimeOf(await base.services())).refuse(problem);
}

/**
 * A server for one connection (stdio) or one request (HTTP). Its instructions and tool list are the
 * generated listing's, so `initialize` and `tools/list` need nothing loaded; every other request
 * waits for the runtime (the call path). On 2026-07-28 the lists carry cache hints.
 */
export async function createServer(base: ServerBase, caller: Caller = {}): Promise<McpServer> {
  const listing = listingFor(base.config);
  const runtime = async () => runtimeOf(await base.services());
  // The lists change only with the settings; a credit figure changes with every call.
  const listHint = caller.era === 'modern' ? listing.listHint : undefined;
  const mcp = new McpServer(
    {
      name: SERVER_NAME,
      version: VERSION,
      title: 'Market Data Service',
      icons: [{ ...ICON, sizes: [...ICON.sizes] }],
    },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
      },
      instructions: listing.instructions,
      cacheHints: {
        'server/discover': listHint,
        'tools/list': listHint,
        'resources/list': listHint,
        'prompts/list': listHint,
        'resources/read': { ttlMs: 0, cacheScope: 'private' },
      },
    },
  );
  mcp.server.setRequestHandler('tools/list', async () => ({ tools: listing.definitions }));
  mcp.server.setRequestHandler('tools/call', async (request, ctx) =>
    answerCall(await base.services(), await runtime(), mcp, caller, request.params, ctx),
  );
  mcp.server.setRequestHandler('resources/list', async () => ({ resources: (await runtime()).resources() }));
  mcp.server.setRequestHandler('resources/read', async (request) =>
    (await runtime()).read(request.params.uri, caller),
  );
  mcp.server.setRequestHandler('prompts/list', async () => ({ prompts: (await runtime()).prompts() }));
  mcp.server.setRequestHandler('prompts/get', async (request) => {
    const loaded = await runtime();
    try {
      return loaded.prompt(request.params.name, request.params.arguments ?? {});
    } catch (error) {
      if (error instanceof PromptError) throw new ProtocolError(INVALID_PARAMS, error.message);
      throw error;
    }
  });
  return mcp;
}

/**
 * A tools/call: the pipeline, with the caller's key and person, asking the person to confirm a
 * costly call where the client can, reporting progress where asked, in the MCP semantic
 * conventions' server span when traces are on (continuing the trace the client's _meta names).
 */
async function answerCall(
  services: Services,
  runtime: Runtime,
  mcp: McpServer,
  caller: Caller,
  { name, arguments: args }: { name: string; arguments?: Record<string, unknown> },
  ctx: ServerContext,
) {
  const confirm = askToConfirm(mcp, ctx, { name, args }, services);
  const { apiKey, person, personLimit, admin } = caller;
  const run = () =>
    whileReportingProgress(ctx, () =>
      runtime.call(name, args, {
        signal: ctx.mcpReq.signal,
        apiKey,
        person,
        personLimit,
        admin,
        confirm,
      }),
    );
  const attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'jsonrpc.request.id': String(ctx.mcpReq.id),
  };
  const result: CallToolResult | Question = services.telemetry
    ? await services.telemetry.request(`tools/call ${name}`, attributes, ctx.mcpReq._meta, run, (answer) =>
        answer instanceof Question || !answer.isError ? undefined : 'tool_error',
      )
    : await run();
  // 2026-07-28: the question goes back as an input-required result; the client retries with the answer.
  if (result instanceof Question) return result.result;
  return mcp.server.projectCallToolResult(result, listingFor(services.config).definition(name)?.outputSchema);
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
