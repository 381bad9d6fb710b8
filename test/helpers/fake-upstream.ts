/**
 * A tiny loopback HTTP server that answers whatever a test tells it to, for the shapes the real
 * service uses (which the sandbox, following the spec, does not). It keeps every request's URL and
 * headers so a test can check where the key went.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | {
      status?: number;
      /** An object is sent as JSON; a string is sent as it is (for malformed bodies). */
      body: unknown;
      headers?: Record<string, string>;
      /** Answer only after this many milliseconds. */
      delayMs?: number;
      /** Answer only once this settles: a request held for as long as the test needs it. */
      heldUntil?: Promise<unknown>;
    }
  /** Never answer: the request stays open until the client gives up on it. */
  | { hang: true }
  /** A 200 whose body is `chunk` repeated, `bytes` in all, or without end; written as the client reads. */
  | { stream: { chunk: string; bytes?: number } };

export interface SeenRequest {
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The client closed the connection before an answer was sent. */
  abandoned: boolean;
  /** The exchange is over: answered, or abandoned. */
  ended: boolean;
}

export interface FakeUpstream {
  url: string;
  requests: SeenRequest[];
  /** Answer every request to `path` with `reply` until told otherwise. */
  reply(path: string, reply: Reply): void;
  close(): Promise<void>;
}

/** Write `chunk` again and again, waiting for the client to read, until `bytes` or the client leaves. */
function streamBody(res: ServerResponse, chunk: string, bytes = Number.POSITIVE_INFINITY): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(Number.isFinite(bytes) ? { 'content-length': String(bytes) } : {}),
  });
  const block = Buffer.from(chunk.repeat(Math.max(1, Math.floor(65_536 / chunk.length))));
  let sent = 0;
  const more = () => {
    while (!res.destroyed && sent < bytes) {
      const piece = block.subarray(0, Math.min(block.length, bytes - sent));
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  more();
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const replies = new Map<string, Reply>();
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = new URL(url, 'http://fake').pathname;
    const seen: SeenRequest = { url, path, headers: req.headers, abandoned: false, ended: false };
    requests.push(seen);
    res.once('close', () => {
      seen.abandoned = !res.writableEnded;
      seen.ended = true;
    });
    const reply = replies.get(path) ?? {
      status: 404,
      body: { status: { error_code: 404, error_message: `no reply set for ${path}`, credit_count: 0 } },
    };
    if ('hang' in reply) return;
    if ('stream' in reply) return streamBody(res, reply.stream.chunk, reply.stream.bytes);
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    };
    if (reply.heldUntil) void reply.heldUntil.finally(answer);
    else if (reply.delayMs) setTimeout(answer, reply.delayMs);
    else answer();
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
