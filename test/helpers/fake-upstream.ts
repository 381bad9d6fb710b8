/**
 * A tiny loopback HTTP server that answers whatever a test tells it to, for the shapes the real
 * service uses (which the sandbox, following the spec, does not). It keeps every request's URL and
 * headers so a test can check where the key went.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | {
      status?: number;
      /** An object is sent as JSON; a string is sent as it is (for malformed bodies). */
      body: unknown;
      headers?: Record<string, string>;
      /** Answer only after this long (a slow service). */
      delayMs?: number;
    }
  /** Never answer: the request stays open until the client gives up on it. */
  | { hang: true };

export interface SeenRequest {
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The client closed the connection before an answer was sent. */
  abandoned: boolean;
}

export interface FakeUpstream {
  url: string;
  requests: SeenRequest[];
  /** Answer every request to `path` with `reply` until told otherwise. */
  reply(path: string, reply: Reply): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const replies = new Map<string, Reply>();
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = new URL(url, 'http://fake').pathname;
    const seen: SeenRequest = { url, path, headers: req.headers, abandoned: false };
    requests.push(seen);
    res.once('close', () => {
      seen.abandoned = !res.writableEnded;
    });
    const reply = replies.get(path) ?? {
      status: 404,
      body: { status: { error_code: 404, error_message: `no reply set for ${path}`, credit_count: 0 } },
    };
    if ('hang' in reply) return;
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (path, reply) => replies.set(path, reply),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
