/**
 * What every MCP server of a process answers with once the call path has loaded (the tools, the
 * pipeline, the views), shared by every server built over the same services: how a call runs
 * (`call`), the resources (`resources`, `read`), the prompts (`prompts`, `prompt`), and what a call
 * refused before the SDK reads it is told (`refuse`). The tool list is listing.ts's.
 */
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/server';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { CallContext, Question } from '../call/context.js';
import type { PersonLimit } from '../guard/guard.js';
import { clip } from '../messages.js';
import type { Services } from '../services/index.js';
import type { RawCallProblem } from './raw-call.js';

/** Who calls, as the transport knows them (the caller's own key over HTTP, the signed-in person). */
export interface Asker {
  apiKey?: string;
  person?: string;
  /** The person's own budget and window (own-key sign-in), when not the server's. */
  personLimit?: PersonLimit;
  admin?: boolean;
}

export interface Runtime {
  /**
   * A call of a listed tool through the pipeline, or the refusal of an unknown one; or the person's
   * question to answer with first. Never throws.
   */
  call(
    name: string,
    args: Record<string, unknown> | undefined,
    context: CallContext,
  ): Promise<CallToolResult | Question>;
  resources(): Resource[];
  read(uri: string, asker: Asker): Promise<ReadResourceResult>;
  prompts(): Prompt[];
  prompt(name: string, args: Record<string, string>): GetPromptResult;
  refuse(problem: RawCallProblem): Promise<CallToolResult>;
}

const runtimes = new WeakMap<Services, Promise<Runtime>>();

/** The runtime of these services, loaded on first use. */
export function runtimeOf(services: Services): Promise<Runtime> {
  let loading = runtimes.get(services);
  if (!loading) {
    loading = loadRuntime(services);
    runtimes.set(services, loading);
  }
  return loading;
}

async function loadRuntime(services: Services): Promise<Runtime> {
  const [{ exposedTools }, { callTool }, { errorResult }, { unknownToolMessage }, prompts] =
    await Promise.all([
      import('../inventory/tools.js'),
      import('../call/pipeline.js'),
      import('../call/results.js'),
      import('../inventory/unknown-tool.js'),
      import('./prompts.js'),
    ]);
  const { config } = services;
  const exposed = exposedTools(config);
  const names = new Set(exposed.keys());
  const unknown = (name: string) =>
    unknownToolMessage(name, config, `tools/list gives all ${names.size} tools.`);
  const read = await reader(services, names);
  return {
    async call(name, args, context) {
      const tool = exposed.get(name);
      return tool ? callTool(services, tool, args, context) : errorResult(unknown(name));
    },
    ...read,
    prompts: () => prompts.listPrompts(),
    prompt: (name, args) => prompts.renderPrompt(name, args, names),
    async refuse(problem) {
      const { unknownMember, unknownParameter } = await import('../kit/arguments.js');
      const tool = problem.kind === 'proto' ? exposed.get(problem.name) : undefined;
      const message =
        problem.kind === 'params'
          ? problem.message
          : !tool
            ? unknown(problem.name)
            : problem.path.length === 0
              ? unknownParameter(tool.toolInput, '__proto__')
              : unknownMember(problem.path, '__proto__', tool.toolInput);
      // Written to the transport as it is, not through the SDK: it says itself what 2026-07-28
      // clients require of a result (`resultType`), which clients of the 2025 revisions ignore.
      return { ...errorResult(message), resultType: 'complete' };
    },
  };
}

/**
 * The resources: the guard's figures (svc://credits), the endpoints (svc://endpoints), the analysis'
 * definitions, the script declarations, the views.
 */
async function reader(services: Services, names: ReadonlySet<string>) {
  const [resources, views, definitions, scripts] = await Promise.all([
    import('./resources.js'),
    import('./views.js'),
    import('../local/analysis-definitions.js'),
    import('../call/script-calls.js'),
  ]);
  const { CREDITS_URI, ENDPOINTS_URI, SCRIPT_DECLARATIONS_URI } = resources;
  const analysis = names.has('analyze_assets');
  const scripting = names.has(scripts.SCRIPT_TOOL);
  return {
    resources: () => [
      resources.creditsResource,
      resources.endpointsResource,
      ...(analysis ? [resources.definitionsResource] : []),
      ...(scripting ? [resources.declarationsResource] : []),
      ...views.viewResources(names),
    ],
    async read(uri: string, asker: Asker): Promise<ReadResourceResult> {
      const json = (text: string) => ({ contents: [{ uri, mimeType: 'application/json', text }] });
      if (uri === ENDPOINTS_URI) return json(resources.endpointsJson(names));
      if (analysis && uri === definitions.DEFINITIONS_URI) {
        return { contents: [{ uri, mimeType: 'text/markdown', text: definitions.definitionsText() }] };
      }
      if (scripting && uri === SCRIPT_DECLARATIONS_URI) {
        const { text } = scripts.scriptDeclarations(services.config);
        return { contents: [{ uri, mimeType: 'text/plain', text }] };
      }
      const view = views.readView(uri);
      if (view) return { contents: [{ uri, mimeType: views.VIEW_MIME_TYPE, text: await view }] };
      if (uri !== CREDITS_URI) {
        throw new ResourceNotFoundError(
          uri,
          `Unknown resource "${clip(uri, 100)}"; resources/list gives this server's (${CREDITS_URI}, ${ENDPOINTS_URI} and more).`,
        );
      }
      const { accountOf } = await import('../guard/accounts.js');
      const source = await services.source();
      const account = accountOf(asker.apiKey ?? source.apiKey ?? '');
      const usage = await services.guard.usage(account, asker.person, asker.admin, asker.personLimit);
      return json(JSON.stringify(usage));
    },
  };
}
