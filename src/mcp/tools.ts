/**
 * Catalog entries as MCP tools: their definitions (computed once) and the one path every call takes:
 * arguments → the spec's rules → upstream client → normalise → summarise → result.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Endpoint } from '../catalog/define.js';
import { planTitle, UnexpectedBodyError } from '../catalog/define.js';
import { endpoints } from '../catalog/index.js';
import { validateParams } from '../catalog/params.js';
import type { Config } from '../config.js';
import type { QueryParams } from '../upstream/client.js';
import { describeUpstreamError, UpstreamError } from '../upstream/errors.js';
import type { DataSource } from '../upstream/source.js';

const FORMATS = ['text', 'json'] as const;
const FORMAT_PROPERTY = {
  type: 'string',
  enum: FORMATS,
  default: 'text',
  description:
    'Answer as a compact text summary (text, default) or as the structured data in compact JSON (json).',
};

/** The tools a configuration exposes: the chosen toolsets, minus what the plan lacks. */
export function selectEndpoints(
  endpoints: readonly Endpoint[],
  config: Pick<Config, 'plan' | 'toolsets'>,
): Endpoint[] {
  return endpoints.filter(
    (e) =>
      config.toolsets.includes(e.toolset) && (config.plan === undefined || e.plans.includes(config.plan)),
  );
}

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

/** JSON Schema without the `$schema` line: it costs every conversation context and says nothing. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

export function toolDefinition(endpoint: Endpoint): Tool {
  const input = jsonSchema(endpoint.input, 'input');
  input.properties = { ...(input.properties as object), format: FORMAT_PROPERTY };
  return {
    name: endpoint.name,
    title: endpoint.title,
    description: endpoint.description,
    inputSchema: input as Tool['inputSchema'],
    outputSchema: jsonSchema(endpoint.output, 'output') as Tool['outputSchema'],
    annotations: { title: endpoint.title, readOnlyHint: true, openWorldHint: true },
  };
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

const SANDBOX_NOTE = '[sandbox data]';

/** Run one tool call. Never throws: every failure is a result with isError and a message. */
export async function runTool(
  endpoint: Endpoint,
  args: Record<string, unknown> | undefined,
  source: DataSource,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const { format = 'text', ...rest } = args ?? {};
  if (!FORMATS.includes(format as (typeof FORMATS)[number])) {
    return errorResult(`Invalid value for "format": must be one of ${FORMATS.join(', ')}.`);
  }
  const checked = validateParams(endpoint.input, rest);
  if (!checked.ok) return errorResult(checked.message);
  const params = checked.value as Record<string, unknown>;
  try {
    const answer = await source.client.get(endpoint.path, params as QueryParams, signal);
    const data = endpoint.normalise(answer.body, params);
    const text = format === 'json' ? JSON.stringify(data) : endpoint.summarise(data, params);
    const content: CallToolResult['content'] = [{ type: 'text', text }];
    if (source.sandbox) {
      if (format === 'json') content.push({ type: 'text', text: SANDBOX_NOTE });
      else content[0] = { type: 'text', text: `${text}\n${SANDBOX_NOTE}` };
    }
    return { content, structuredContent: data as Record<string, unknown> };
  } catch (error) {
    if (error instanceof UpstreamError) {
      return errorResult(describeUpstreamError(error, { plans: endpoint.plans.map(planTitle) }));
    }
    if (error instanceof UnexpectedBodyError) return errorResult(`${error.message} Try again later.`);
    // A fault of ours: still an answer the model can read, never a dropped call.
    return errorResult(`The server failed while answering (${(error as Error)?.message ?? error}).`);
  }
}
