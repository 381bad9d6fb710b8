/**
 * Servers built in the test's own process, as the commands build them: the same services (their
 * log lines kept here, and recorded), the same stdio connection (serveConnection: the protocol
 * revision settled by the first message, raw calls checked) on the SDK's linked in-memory
 * transport, and the same HTTP handler on a loopback port. Settings come from `env` as a process
 * would read them; with no key the embedded sandbox starts in this process too. Every message a
 * server sends and every log line goes through the recorder, so the key-leak scan covers them.
 */
import type { AddressInfo } from 'node:net';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { loadConfig } from '../../src/config/index.js';
import { createHttpHandler } from '../../src/mcp/http/handler.js';
import { HTTP_SERVICES, httpServer } from '../../src/mcp/http/serve.js';
import { serveConnection } from '../../src/mcp/stdio.js';
import { createServices, type ServiceOptions, type Services } from '../../src/services/index.js';
import type { OwnKeyOptions } from '../../src/sign-in/index.js';
import { childEnv, type Env } from './cli.js';
import { record } from './recorder.js';
import {
  type Answerer,
  type ClientKind,
  connectClient,
  connectHttp,
  type HttpServer,
  type Session,
  type SessionKind,
} from './session.js';
import { type KeptText, keptText } from './until.js';

/** Log lines a server built here wrote, as its process would have written them to stderr. */
export type Logs = Pick<KeptText, 'text' | 'waitFor'>;

export interface InProcessSession extends Session {
  /** The services the server was built over: its guard, cache and data source. */
  services: Services;
  logs: Logs;
}

/** Services built with these settings, their log lines kept (SVC_STATE_DIR: this test file's own, unless set). */
export async function servicesFor(
  env: Env = {},
  options: ServiceOptions = {},
): Promise<Services & { logs: Logs }> {
  const { PATH: _, ...settings } = childEnv(env);
  const logs = keptText('in-process log', 'the log');
  const services = await createServices(loadConfig(settings), {
    ...options,
    logTo: { write: (line: string) => logs.append(line) },
  });
  return Object.assign(services, { logs });
}

/** A session on a server of its own, in this process: closing it closes the server and its services. */
export async function openInProcess(
  env: Env = {},
  client: ClientKind = 'sdk1',
  answer?: Answerer,
): Promise<InProcessSession> {
  const services = await servicesFor(env);
  const session = await connectTo(services, client, answer);
  return {
    ...session,
    services,
    logs: services.logs,
    async close() {
      await session.close();
      await services.close();
    },
  };
}

/** The server's side of a linked pair, every message it sends recorded. */
function serverSide(): [InMemoryTransport, InMemoryTransport] {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const send = server.send.bind(server);
  server.send = (message, options) => {
    record('in-process server', JSON.stringify(message));
    return send(message, options);
  };
  return [client, server];
}

/** Another client's session on the same services (as a second connection to one process). */
export async function connectTo(
  services: Services & { logs?: Logs },
  client: ClientKind = 'sdk1',
  answer?: Answerer,
): Promise<Session> {
  const [clientSide, server] = serverSide();
  const handle = serveConnection(services, server);
  let open = true;
  const logs = services.logs ?? keptText('in-process log', 'the log');
  const side = { pid: Number.NaN, stderr: logs.text, waitForStderr: logs.waitFor, alive: () => open };
  const session = await connectClient({ client, transport: 'stdio' }, clientSide, side, answer);
  return {
    ...session,
    async close() {
      open = false;
      await session.close();
      await handle.close().catch(() => {});
    },
  };
}

/** The SDK 1.x client on a server of its own in this process: the usual session of a test. */
export function startMcp(env: Env = {}): Promise<InProcessSession> {
  return openInProcess(env, 'sdk1');
}

/**
 * `svc-mcp http`'s handler with the services HTTP builds, listening in this process on `host`
 * (loopback unless given) and `port` (a free one unless given); `ownKey`, the own-key sign-in's test
 * options (a CA to trust).
 */
export async function startHttpServer(
  env: Env = {},
  {
    host = '127.0.0.1',
    port: asked = 0,
    ownKey,
  }: { host?: string; port?: number; ownKey?: OwnKeyOptions } = {},
): Promise<HttpServer> {
  const services = await servicesFor(env, HTTP_SERVICES);
  const handler = await createHttpHandler(services, services.config, { host, ownKey });
  const server = httpServer(handler, services.config);
  await new Promise<void>((resolve) => server.listen(asked, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  let listening = true;
  return {
    url: `${origin}/mcp`,
    origin,
    stderr: () => services.logs.text(),
    waitForStderr: (pattern, timeoutMs) => services.logs.waitFor(pattern, timeoutMs),
    alive: () => listening,
    async stop() {
      if (!listening) return { code: 0, signal: null };
      listening = false;
      handler.stop();
      server.closeIdleConnections();
      await handler.drained(5_000);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close().catch(() => {});
      await services.close();
      return { code: 0, signal: null };
    },
  };
}

/** What a raw exchange gives back: every message the server sent, by the id it answers. */
export interface RawExchange {
  send(message: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * JSON-RPC messages written to the server as a host's transport would deliver them, for what an
 * SDK client never sends: malformed params, odd names, a state of its own making. On the 2025
 * revisions after the `initialize` handshake; on 2026-07-28 each request carries the envelope
 * (`_meta`: the revision, the client's info and `capabilities`).
 */
export async function openRaw(
  services: Services,
  era: 'legacy' | 'modern' = 'legacy',
  capabilities: Record<string, unknown> = {},
): Promise<RawExchange> {
  const [clientSide, server] = serverSide();
  const connection = serveConnection(services, server);
  const waiting = new Map<unknown, (message: Record<string, unknown>) => void>();
  clientSide.onmessage = (message) => {
    const id = (message as { id?: unknown }).id;
    waiting.get(id)?.(message as Record<string, unknown>);
    waiting.delete(id);
  };
  await clientSide.start();
  let next = 1_000;
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  const withEnvelope = (message: Record<string, unknown>) => {
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    return { ...message, params: { ...params, _meta: { ...envelope, ...meta } } };
  };
  const send = (message: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = message.id ?? next++;
      waiting.set(id, resolve);
      const sent = era === 'modern' ? withEnvelope(message) : message;
      void clientSide.send({ jsonrpc: '2.0', ...sent, id } as never);
    });
  const close = async () => {
    await clientSide.close();
    await connection.close().catch(() => {});
  };
  if (era === 'modern') return { send, close };
  await send({
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, close };
}

/** `use` with a server of its own, built in this process, closed afterwards whatever happens. */
export async function withServer<T>(env: Env, use: (mcp: Session) => Promise<T>): Promise<T> {
  const mcp = await startMcp(env);
  try {
    return await use(mcp);
  } finally {
    await mcp.close();
  }
}

/**
 * A session on a server of its own, built in this process: stdio's connection, or the HTTP handler
 * on a loopback port then a client. `answer`: the client declares elicitation and answers the
 * server's questions with it.
 */
export async function openSession(kind: SessionKind, env: Env = {}, answer?: Answerer): Promise<Session> {
  if (kind.transport === 'stdio') return openInProcess(env, kind.client, answer);
  const server = await startHttpServer(env);
  const session = await connectHttp(server, kind.client, {}, answer);
  return {
    ...session,
    async close() {
      await session.close();
      await server.stop();
    },
  };
}
