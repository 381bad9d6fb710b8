/**
 * A server built in the test's own process, as the stdio command builds it (the same services and
 * the same connection: serveConnection, which settles the protocol revision), with a
 * real MCP client of either kind on the SDK's linked in-memory transport. Settings come from `env`
 * as a process would read them; with no key the embedded sandbox starts in this process too.
 * Tool results go through the recorder (connectClient), so the key-leak scan covers them.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createServices, type Services } from '../../src/call/services.js';
import { loadConfig } from '../../src/config/index.js';
import { serveConnection } from '../../src/mcp/stdio.js';
import { childEnv, type Env } from './cli.js';
import { record } from './recorder.js';
import { type Answerer, type ClientKind, connectClient, type Session } from './session.js';

export interface InProcessSession extends Session {
  /** The services the server was built over: its guard, cache and data source. */
  services: Services;
}

/** The services a process with these settings builds (SVC_STATE_DIR: this test file's own, unless set). */
export function servicesFor(env: Env = {}): Promise<Services> {
  const { PATH: _, ...settings } = childEnv(env);
  return createServices(loadConfig(settings));
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
    async close() {
      await session.close();
      await services.close();
    },
  };
}

/** Another client's session on the same services (as a second connection to one process). */
export async function connectTo(
  services: Services,
  client: ClientKind = 'sdk1',
  answer?: Answerer,
): Promise<Session> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveConnection(services, serverSide);
  const session = await connectClient({ client, transport: 'stdio' }, clientSide, answer);
  return {
    ...session,
    async close() {
      await session.close();
      await handle.close().catch(() => {});
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
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = serveConnection(services, serverSide);
  const waiting = new Map<unknown, (message: Record<string, unknown>) => void>();
  clientSide.onmessage = (message) => {
    record('raw in-process', JSON.stringify(message));
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
  if (era === 'modern') return { send, close: () => closeRaw() };
  await send({
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, close: () => closeRaw() };

  async function closeRaw() {
    await clientSide.close();
    await connection.close().catch(() => {});
  }
}
