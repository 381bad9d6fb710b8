/**
 * The commands: stdio | http | sandbox | call | tools | demo, run by cli.ts. Each command loads
 * only what it uses. Exit codes: 0 done, 1 a tool answered with an error (`call`), 2 a mistake in
 * how the command was run (a usage or settings error: one line saying what was wrong and what is
 * allowed).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from './config/error.js';
import type { Config } from './config/index.js';
import { requireOwnKey } from './config/own-key.js';
import { noToolsMessage } from './kit/toolsets.js';
import { clip, ISO_INSTANT_RULE, listenProblem } from './messages.js';
import { packageFile } from './package-files.js';
import { VERSION } from './version.js';

/** The settings, read and checked; loaded when a command runs, so that a usage error or --help does not load them. */
async function loadConfig(): Promise<Config> {
  return (await import('./config/index.js')).loadConfig();
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];
type Values = Record<string, string | boolean | string[] | undefined>;

interface Command {
  /** The command's own usage lines (`svc-mcp COMMAND --help` prints them). */
  usage: string;
  options: Options;
  positionals?: boolean;
  /** Resolves with the exit code, or -1 to keep running (servers). */
  run(values: Values, positionals: string[]): Promise<number>;
}

const commands: Record<string, Command> = {
  stdio: {
    usage: 'svc-mcp [stdio]          the MCP server on stdio (the default)',
    options: {},
    async run() {
      const { runStdio } = await import('./mcp/stdio.js');
      await runStdio(await loadConfig());
      return -1; // keeps running until stdin closes
    },
  },
  http: {
    usage: `svc-mcp http [--host 127.0.0.1] [--port 3000]
      the MCP server over Streamable HTTP at /mcp, with /healthz, /readyz and /metrics;
      beyond loopback it needs SVC_HTTP_TOKEN`,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '3000' },
    },
    async run(values) {
      const address = { host: parseHost(values.host as string), port: parsePort(values.port as string) };
      const { serveHttp } = await import('./mcp/http/serve.js');
      await serveHttp(await loadConfig(), address);
      return -1; // keeps running until SIGTERM or SIGINT
    },
  },
  sandbox: {
    usage: `svc-mcp sandbox [--port 8787] [--now ISO] [--no-rate-limit] [--fault SPEC]...
      the sandbox Market Data Service alone, on loopback; --now freezes its clock, --fault makes
      it misbehave (e.g. path=/v3/fear-and-greed/latest,kind=500,count=2)`,
    options: {
      port: { type: 'string', default: '8787' },
      now: { type: 'string' },
      'no-rate-limit': { type: 'boolean' },
      fault: { type: 'string', multiple: true },
    },
    async run(values) {
      const port = parsePort(values.port as string);
      const now = values.now as string | undefined;
      if (now !== undefined && Number.isNaN(Date.parse(now))) {
        throw new UsageError(`--now ${ISO_INSTANT_RULE} (got "${clip(now)}")`);
      }
      const { startSandbox, parseFaultSpec, SANDBOX_KEYS } = await import('./sandbox/server.js');
      const faults = ((values.fault as string[] | undefined) ?? []).map((spec) =>
        asUsage(() => parseFaultSpec(spec)),
      );
      const sandbox = await startSandbox({
        port,
        now,
        rateLimit: !values['no-rate-limit'],
        keyHeader: (await loadConfig()).keyHeader,
        faults,
      }).catch((error: NodeJS.ErrnoException) => {
        const why = listenProblem(error, '127.0.0.1', port);
        throw why === undefined ? error : new UsageError(why);
      });
      console.log(`Sandbox Market Data Service at ${sandbox.url}`);
      console.log(`Keys: ${SANDBOX_KEYS.join(', ')}`);
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return -1;
    },
  },
  call: {
    usage: `svc-mcp call TOOL [JSON-ARGS] [--json]
      one tool call; prints the text answer (or, with --json, the structured data);
      exit 1 when the tool answers with an error. Example:
        svc-mcp call get_cryptocurrency_quotes_latest '{"symbol":"BTC,ETH"}'`,
    options: { json: { type: 'boolean' } },
    positionals: true,
    async run(values, positionals) {
      const [name, json, ...extra] = positionals;
      if (name === undefined) {
        throw new UsageError(
          'call needs a tool name: svc-mcp call TOOL [JSON-ARGS]; `svc-mcp tools` lists them',
        );
      }
      if (extra.length > 0) {
        throw new UsageError(
          `call takes one JSON-ARGS object; quote it as one argument, e.g. '{"limit": 5}'`,
        );
      }
      const toolArgs = parseJsonArgs(json);
      const config = await loadConfig();
      requireOwnKey(config, 'by svc-mcp call');
      const [{ exposedTools }, { unknownToolMessage }] = await Promise.all([
        import('./inventory/tools.js'),
        import('./inventory/unknown-tool.js'),
      ]);
      const tool = exposedTools(config).get(name);
      if (!tool) throw new UsageError(unknownToolMessage(name, config, '`svc-mcp tools` lists them.'));
      const [{ callTool }, { structuredJson }] = await Promise.all([
        import('./call/pipeline.js'),
        import('./call/results.js'),
      ]);
      const { createServices } = await import('./services/index.js');
      const services = await createServices(config);
      try {
        const result = await callTool(services, tool, toolArgs);
        const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
        if (result.isError) {
          console.error(text);
          return 1;
        }
        console.log(values.json ? structuredJson(result) : text);
        return 0;
      } finally {
        await services.close();
      }
    },
  },
  tools: {
    usage:
      'svc-mcp tools [--json]    the tools with their toolsets and one-line descriptions (or full definitions)',
    options: { json: { type: 'boolean' } },
    async run(values) {
      // From the list generated at build time, as stdio's tools/list: the tools themselves stay unloaded.
      const [{ generatedTools }, { listingFor }] = await Promise.all([
        import('./inventory/listed.js'),
        import('./mcp/listing.js'),
      ]);
      const config = await loadConfig();
      const { definitions } = listingFor(config);
      if (definitions.length === 0) throw new ConfigError(noToolsMessage(config));
      if (values.json) {
        console.log(JSON.stringify(definitions, null, 2));
      } else {
        const toolsets = new Map(generatedTools().map((tool) => [tool.name, tool.toolset]));
        const width = Math.max(...definitions.map((d) => d.name.length));
        const setWidth = Math.max(...definitions.map((d) => toolsets.get(d.name)?.length ?? 0));
        for (const d of definitions) {
          const toolset = toolsets.get(d.name) ?? '';
          console.log(
            `${d.name.padEnd(width)}  ${toolset.padEnd(setWidth)}  ${d.description?.split('\n')[0]}`,
          );
        }
      }
      return 0;
    },
  },
  demo: {
    usage:
      'svc-mcp demo              a real MCP client session against this server, printing a few answers; exit 1 when none is answered',
    options: {},
    async run() {
      requireOwnKey(await loadConfig(), 'by svc-mcp demo');
      const { runDemo } = await import('./mcp/demo.js');
      return runDemo(fileURLToPath(packageFile('dist/cli.js')));
    },
  },
};

const USAGE = `svc-mcp ${VERSION}: MCP server for the Market Data Service

Usage:
${Object.values(commands)
  .map((c) => `  ${c.usage}`)
  .join('\n')}
  svc-mcp COMMAND --help    one command's usage
  svc-mcp --version

Settings come from SVC_* environment variables; see the README. With no SVC_API_KEY the server
uses the sandbox, started in-process. Exit codes: 0 done, 1 a tool error (call), 2 a usage or
settings error.`;

class UsageError extends Error {}

/** Run `parse`, reporting what it throws as a usage error (a message, not a stack). */
function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A host name or address to listen on; an IPv6 address may come in brackets. */
function parseHost(text: string): string {
  const host = text.replace(/^\[(.*)\]$/, '$1');
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host)) {
    throw new UsageError('--host must be a host name or an IP address, e.g. 127.0.0.1 or 0.0.0.0');
  }
  return host;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new UsageError(`--port must be 0 to 65535 (got "${clip(text)}")`);
  return port;
}

function parseJsonArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new UsageError(`JSON-ARGS must be a JSON object, e.g. '{"limit": 5}' (got ${clip(text)})`);
}

/** The command's flags and arguments; what parseArgs refuses becomes a sentence naming what is allowed. */
function parseCommand(name: string, command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: command.options,
      allowPositionals: command.positionals ?? false,
      strict: true,
    });
  } catch (error) {
    const flags = Object.keys(command.options ?? {}).map((f) => `--${f}`);
    const takes = flags.length > 0 ? `it takes ${flags.join(', ')}` : 'it takes no options';
    const code = (error as { code?: string }).code;
    const option = /'(--?[\w-]+)/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new UsageError(`${name} has no option ${option}; ${takes}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      // parseArgs reads a value starting with a dash (--port -1) as the next option.
      const next = option === undefined ? undefined : args[args.indexOf(option) + 1];
      const dashed = next?.startsWith('-')
        ? `; a value starting with a dash is written ${option}=${clip(next)}`
        : '';
      throw new UsageError(`${option ?? 'an option'} needs a value${dashed}`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError(`${name} takes no arguments; ${takes}`);
    }
    throw new UsageError((error as Error).message);
  }
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    console.log(VERSION);
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? 'stdio' : first;
  const command = commands[name];
  if (!command) {
    throw new UsageError(
      `unknown command "${clip(name)}"; commands: ${Object.keys(commands).join(', ')} (svc-mcp --help)`,
    );
  }
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage:\n  ${command.usage}`);
    return 0;
  }
  const { values, positionals } = parseCommand(name, command, args);
  return command.run(values, positionals);
}

// A reader that goes away (`svc-mcp demo | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof UsageError;
    console.error(
      `svc-mcp: ${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}`,
    );
    process.exitCode = 2;
  },
);
