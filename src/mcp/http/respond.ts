/**
 * How the HTTP transport answers outside the SDK: JSON bodies, refusals as JSON-RPC errors with
 * their status, CORS for a page whose Origin passed, and the connection closed when the client
 * asked. Every answer is uncacheable.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { HttpRefusal } from '../../http/refusal.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** A refusal as a JSON-RPC error, with the request's id where it was read, and its HTTP status. */
export function sendRefusal(res: ServerResponse, refusal: HttpRefusal): void {
  const { status, message, code = -32000, data, id = null, headers } = refusal;
  const error = data === undefined ? { code, message } : { code, message, data };
  sendJson(res, status, { jsonrpc: '2.0', error, id }, headers);
}

export function methodNotAllowed(allow: string): HttpRefusal {
  return { status: 405, message: `This route takes ${allow} only.`, headers: { allow } };
}

/** CORS for a page whose Origin passed the check (loopback or SVC_HTTP_ALLOWED_ORIGINS). */
export function allowOrigin(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
}

/** A browser's CORS preflight, from a page whose Origin passed the check. */
export function preflight(req: IncomingMessage, res: ServerResponse): void {
  allowOrigin(req, res);
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    allow: 'POST, OPTIONS',
    'access-control-allow-methods': 'POST',
    ...(typeof requested === 'string' && /^[\w, -]{1,1000}$/.test(requested)
      ? { 'access-control-allow-headers': requested }
      : {}),
    'access-control-max-age': '600',
  });
  res.end();
}

/**
 * A client that asks to close its connection (`Connection: close`) has it closed once answered: the
 * SDK's answers name `keep-alive`, which would otherwise hold the socket open until it times out.
 */
export function closeWhenAsked(req: IncomingMessage, res: ServerResponse): void {
  if (!/(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? '')) return;
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    headers?: OutgoingHttpHeaders,
  ) => ServerResponse;
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) =>
    writeHead(status, { ...headers, connection: 'close' })) as ServerResponse['writeHead'];
}
