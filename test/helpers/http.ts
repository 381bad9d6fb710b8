/**
 * Raw HTTP requests to `svc-mcp http`, with full control of every header (Host and Origin included),
 * for what an MCP client never sends: rebinding attempts, missing tokens, oversized bodies.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { record } from './recorder.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body in chunks with no Content-Length (as a streaming client would). */
  chunked?: boolean;
}

/** The headers every MCP POST carries. */
export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A 2025 `initialize` request body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/**
 * One request on a connection of its own (no keep-alive agent): what a server does with a new
 * connection is what is tested, and a pooled socket the server closed as idle would fail the
 * request with a hang-up that says nothing of the server.
 */
export function rawRequest(url: string, options: RawOptions = {}): Promise<RawResponse> {
  const { method = 'POST', headers = {}, body, chunked = false } = options;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        record('raw http response', `${res.statusCode} ${text}`);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined && chunked) {
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += 16_384) req.write(bytes.subarray(at, at + 16_384));
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** POST an MCP message to the endpoint with the usual headers plus `headers`. */
export function postMcp(url: string, body: string, headers: Record<string, string> = {}) {
  return rawRequest(url, { headers: { ...MCP_HEADERS, ...headers }, body });
}

/** A tool's result as a raw POST returns it. */
export interface RawToolResult {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: Record<string, unknown>;
}

/**
 * One tool call with `headers` (a key of the caller's own), on the 2025 revision without a
 * session, as many callers at once send it: its result.
 */
export async function callToolRaw(
  url: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<RawToolResult> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const response = await postMcp(url, body, { 'mcp-protocol-version': '2025-06-18', ...headers });
  const data = response.text.split('\n').find((line) => line.startsWith('data: '));
  const message = JSON.parse(data === undefined ? response.text : data.slice(6)) as { result: RawToolResult };
  return message.result;
}

/** The JSON-RPC error message of a refusal. */
export function errorMessage(response: RawResponse): string {
  return (JSON.parse(response.text) as { error: { message: string } }).error.message;
}
