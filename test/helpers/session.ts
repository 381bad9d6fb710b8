/**
 * An MCP session with either client over either transport: the SDK 1.x Client (the 2025
 * `initialize` handshake, what most hosts speak today) or the v2 Client pinned to 2026-07-28, over
 * stdio's connection (in-process.ts: the server built in this process, on the SDK's linked
 * in-memory transport) or Streamable HTTP (the HTTP handler on a loopback port of this process).
 * Every session has a server of its own, so answers never depend on another session's cache.
 * `svc-mcp http` as a child process (spawnHttpServer) stays for what the process is tested for.
 * Tool results, server output and transport errors go through the recorder: over stdio every message
 * the server sends is recorded where it is sent (or read from the child's stdout), and over HTTP
 * each result and resource as the client received it.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CLI_PATH,
  type CliProcess,
  childEnv,
  type Env,
  isAlive,
  REPO_ROOT,
  recordMessages,
  spawnCli,
} from './cli.js';
import { record } from './recorder.js';
import { keptText } from './until.js';
import { SDK1_VALIDATORS, V2_VALIDATORS } from './validators.js';

export type ClientKind = 'sdk1' | 'v2';
export type TransportKind = 'stdio' | 'http';

export interface SessionKind {
  client: ClientKind;
  transport: TransportKind;
}

/** Both clients over both transports: what every parity test runs. */
export const SESSION_KINDS: readonly SessionKind[] = [
  { client: 'sdk1', transport: 'stdio' },
  { client: 'v2', transport: 'stdio' },
  { client: 'sdk1', transport: 'http' },
  { client: 'v2', transport: 'http' },
];

export function kindLabel({ client, transport }: SessionKind): string {
  return `${client === 'sdk1' ? 'SDK 1.x client (2025 handshake)' : 'v2 client (2026-07-28)'} over ${transport}`;
}

export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: { progress: number; message?: string }) => void;
  /** More members of the call's params, as a host may send them (`inputResponses`, `requestState`). */
  params?: Record<string, unknown>;
}

/** Where a session's server runs: a child process, or this one (no pid; its log lines stand for stderr). */
export interface ServerSide {
  /** The child's pid; NaN for a server in this process, so that a signal sent to it fails. */
  pid: number;
  /** What the server logged so far (a child: everything it wrote to stderr). */
  stderr(): string;
  /** Resolves with that text once it matches (the banner is written after the transport connects). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Whether the server is still running. */
  alive(): boolean;
}

/** The one session type: a client connected to a server, and that server's side. */
export interface Session extends ServerSide {
  kind: SessionKind;
  /**
   * The client itself, for what `call` does not cover (prompts, resources, ping, capabilities): the
   * SDK 1.x Client's interface, which the v2 client's methods used here share.
   */
  client: Sdk1Client;
  /** tools/list as the server answered it when the session started. */
  tools: Tool[];
  /** The protocol revision the session speaks. */
  protocolVersion: string | undefined;
  /** The server's instructions, as the client was given them. */
  instructions: string | undefined;
  /** tools/call through the client's callTool, which checks structuredContent against outputSchema. */
  call(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  readResource(uri: string): Promise<{ contents: { uri: string; text?: string }[] }>;
  close(): Promise<void>;
}

/** Both clients behind one shape (each client's own types differ in ways that do not matter here). */
interface AnyClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    ...rest: unknown[]
  ): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  getNegotiatedProtocolVersion?(): string | undefined;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

/** A person answering the server's questions (elicitation): given the question, the answer. */
export type Answerer = (message: string) => {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

function newClient(kind: ClientKind, answer?: Answerer): AnyClient {
  const info = { name: 'svc-mcp-tests', version: '0.0.0' };
  const handler = async (request: { params: { message: string } }) => answer?.(request.params.message);
  if (kind === 'sdk1') {
    const client = new Sdk1Client(info, {
      jsonSchemaValidator: SDK1_VALIDATORS,
      ...(answer ? { capabilities: { elicitation: {} } } : {}),
    });
    if (answer) client.setRequestHandler(ElicitRequestSchema, handler as never);
    return client as unknown as AnyClient;
  }
  const client = new V2Client(info, {
    jsonSchemaValidator: V2_VALIDATORS,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
  });
  if (answer) client.setRequestHandler('elicitation/create', handler as never);
  return client as unknown as AnyClient;
}

/** Connect a client over a transport and list the tools (which also makes it cache the output validators). */
export async function connectClient(
  kind: SessionKind,
  transport: object,
  side: ServerSide,
  answer?: Answerer,
): Promise<Session> {
  // The 1.x client tells its transport the version `initialize` settled on, when the transport asks.
  let settled: string | undefined;
  const told = transport as { setProtocolVersion?: (version: string) => void };
  const previous = told.setProtocolVersion?.bind(transport);
  told.setProtocolVersion = (version) => {
    settled = version;
    previous?.(version);
  };
  const client = newClient(kind.client, answer);
  await client.connect(transport);
  const { tools } = await client.listTools();
  return {
    ...side,
    kind,
    client: client as unknown as Sdk1Client,
    tools: tools as Tool[],
    protocolVersion: client.getNegotiatedProtocolVersion?.() ?? settled,
    instructions: client.getInstructions(),
    async call(name, args = {}, options = {}) {
      const callOptions = { signal: options.signal, onprogress: options.onprogress };
      const params = { name, arguments: args, ...options.params };
      const result = (
        kind.client === 'sdk1'
          ? await client.callTool(params, undefined, callOptions)
          : await client.callTool(params, callOptions)
      ) as CallToolResult;
      if (kind.transport === 'http') record(`${kind.client} http result`, JSON.stringify(result));
      return result;
    },
    async readResource(uri) {
      const result = (await client.readResource({ uri })) as Awaited<ReturnType<Session['readResource']>>;
      if (kind.transport === 'http') record(`${kind.client} http resource`, JSON.stringify(result));
      return result;
    },
    close: () => client.close(),
  };
}

/** An HTTP server of the tests': in this process (in-process.ts), or `svc-mcp http` as a child. */
export interface HttpServer {
  /** The MCP endpoint, http://127.0.0.1:PORT/mcp. */
  url: string;
  /** http://127.0.0.1:PORT, for the other routes. */
  origin: string;
  /** What it logged (a child: everything it wrote to stderr). */
  stderr(): string;
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<string>;
  alive(): boolean;
  /** Stop it (a child: send a signal) and wait for the end. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `svc-mcp http` as a child process on a free loopback port, ready when its banner is out. */
export interface HttpProcess extends HttpServer {
  proc: CliProcess;
  pid: number;
}

export async function spawnHttpServer(env: Env = {}, args: string[] = []): Promise<HttpProcess> {
  const proc = spawnCli(['http', '--port', '0', ...args], env);
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no banner within 15 s; stderr: ${proc.stderr()}`)),
      15_000,
    );
    const check = () => {
      const match = /on (http:\/\/\S+\/mcp) /.exec(proc.stderr());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    proc.child.stderr?.on('data', check);
    void proc.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`svc-mcp http exited before listening; stderr: ${proc.stderr()}`));
    });
  });
  const pid = proc.child.pid ?? -1;
  return {
    url: banner,
    origin: new URL(banner).origin,
    proc,
    pid,
    stderr: proc.stderr,
    waitForStderr: proc.waitForStderr,
    alive: () => isAlive(pid),
    async stop(signal = 'SIGTERM') {
      if (isAlive(pid)) proc.child.kill(signal);
      return proc.exited;
    },
  };
}

/** A client session on a running HTTP server, sending `headers` with every request. */
export function connectHttp(
  server: HttpServer,
  client: ClientKind,
  headers: Record<string, string> = {},
  answer?: Answerer,
): Promise<Session> {
  const url = new URL(server.url);
  const transport =
    client === 'sdk1'
      ? new Sdk1Http(url, { requestInit: { headers } })
      : new V2Http(url, { requestInit: { headers } });
  const side = {
    pid: 'pid' in server ? (server.pid as number) : Number.NaN,
    stderr: server.stderr,
    waitForStderr: server.waitForStderr,
    alive: server.alive,
  };
  return connectClient({ client, transport: 'http' }, transport, side, answer);
}

/** A session over stdio with the built CLI as a child process: for what the process is tested for. */
export function spawnSession(kind: SessionKind, env: Env = {}, answer?: Answerer): Promise<Session> {
  const parameters = {
    command: process.execPath,
    args: [CLI_PATH, 'stdio'],
    env: childEnv(env),
    stderr: 'pipe' as const,
    cwd: REPO_ROOT,
  };
  const transport = kind.client === 'sdk1' ? new Sdk1Stdio(parameters) : new V2Stdio(parameters);
  const stderr = keptText(`${kind.client} stdio stderr`, 'stderr');
  transport.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
  recordMessages(transport);
  const pid = () => transport.pid ?? -1;
  const side = {
    get pid() {
      return pid();
    },
    stderr: stderr.text,
    waitForStderr: stderr.waitFor,
    alive: () => isAlive(pid()),
  };
  return connectClient(kind, transport, side, answer);
}

/**
 * `node dist/cli.js stdio` with `env`, the SDK 1.x client connected: for what the process is tested
 * for (its stderr, its exit, a kill); in-process.ts's startMcp builds the same server in this process.
 */
export function spawnMcp(env: Env = {}): Promise<Session> {
  return spawnSession({ client: 'sdk1', transport: 'stdio' }, env);
}

/** `use` with a server process of its own (for what only a process has: a preload, its exit), stopped afterwards. */
export async function withProcess<T>(env: Env, use: (mcp: Session) => Promise<T>): Promise<T> {
  const mcp = await spawnMcp(env);
  try {
    return await use(mcp);
  } finally {
    await mcp.close();
  }
}
