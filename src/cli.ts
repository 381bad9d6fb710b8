#!/usr/bin/env node
/** The one entry point: stdio | sandbox | call | tools | demo. Each command loads only what it uses. */
import './heap.js';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { VERSION } from './version.js';

const USAGE = `svc-mcp ${VERSION}: MCP server for the Market Data Service

Usage:
  svc-mcp [stdio]                      MCP server on stdio (the default)
  svc-mcp sandbox [--port 8787] [--now ISO] [--no-rate-limit] [--fault SPEC]...
                                       the sandbox Market Data Service alone, on loopback
  svc-mcp call TOOL [JSON-ARGS] [--json]
                                       one tool call; prints the text answer (or the structured JSON)
  svc-mcp tools [--json]               the tools with their toolsets and one-line descriptions (or full definitions)
  svc-mcp demo                         an MCP client session against this server

Settings come from SVC_* environment variables; see the README. With no SVC_API_KEY the server
uses the sandbox, started in-process.`;

type Command = (args: string[]) => Promise<number>;

const commands: Record<string, Command> = {
  stdio: async () => {
    const { runStdio } = await import('./mcp/stdio.js');
    await runStdio(loadConfig());
    return -1; // keeps running until stdin closes
  },
  tools: async (args) => {
    const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
    const { exposedTools } = await import('./mcp/tools.js');
    const { tools, definitions } = exposedTools(loadConfig());
    if (values.json) {
      console.log(JSON.stringify(definitions, null, 2));
    } else {
      const width = Math.max(...definitions.map((d) => d.name.length));
      const setWidth = Math.max(...[...tools.values()].map((t) => t.toolset.length));
      for (const d of definitions) {
        const toolset = tools.get(d.name)?.toolset ?? '';
        console.log(`${d.name.padEnd(width)}  ${toolset.padEnd(setWidth)}  ${d.description?.split('\n')[0]}`);
      }
    }
    return 0;
  },
  call: async (args) => {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' } },
    });
    const [name, json] = positionals;
    const config = loadConfig();
    const { exposedTools } = await import('./mcp/tools.js');
    const { callTool } = await import('./call/pipeline.js');
    const { createServices } = await import('./call/services.js');
    const tool = exposedTools(config).tools.get(name ?? '');
    if (!tool) throw new UsageError(`unknown tool "${name ?? ''}"; run \`svc-mcp tools\` for the list`);
    const toolArgs = parseJsonArgs(json);
    const services = createServices(config);
    try {
      const result = await callTool(services, tool, toolArgs);
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      if (result.isError) {
        console.error(text);
        return 1;
      }
      console.log(values.json ? JSON.stringify(result.structuredContent, null, 2) : text);
      return 0;
    } finally {
      await services.close();
    }
  },
  sandbox: async (args) => {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '8787' },
        now: { type: 'string' },
        'no-rate-limit': { type: 'boolean' },
        fault: { type: 'string', multiple: true },
      },
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError('--port must be 0 to 65535');
    const { startSandbox, parseFaultSpec, SANDBOX_KEYS } = await import('./sandbox/server.js');
    const sandbox = await startSandbox({
      port,
      now: values.now,
      rateLimit: !values['no-rate-limit'],
      keyHeader: loadConfig().keyHeader,
      faults: (values.fault ?? []).map((spec) => asUsage(() => parseFaultSpec(spec))),
    });
    console.log(`Sandbox Market Data Service at ${sandbox.url}`);
    console.log(`Keys: ${SANDBOX_KEYS.join(', ')}`);
    const stop = () => void sandbox.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  },
  demo: async () => {
    const { runDemo } = await import('./mcp/demo.js');
    await runDemo(fileURLToPath(import.meta.url));
    return 0;
  },
};

class UsageError extends Error {}

/** Run `parse`, reporting what it throws as a usage error (a message, not a stack). */
function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseJsonArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new UsageError(`JSON-ARGS must be a JSON object, e.g. '{"limit": 5}'`);
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (first === '--version') {
    console.log(VERSION);
    return 0;
  }
  const command = commands[first ?? 'stdio'];
  if (!command) throw new UsageError(`unknown command "${first}"\n\n${USAGE}`);
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const known =
      error instanceof ConfigError ||
      error instanceof UsageError ||
      (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS');
    console.error(
      `svc-mcp: ${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}`,
    );
    process.exitCode = 2;
  },
);
