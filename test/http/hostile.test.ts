/**
 * `svc-mcp http` under hostile requests, checked on the real server: batches where the protocol
 * has none or over their bound, deep nesting, over-limit bodies as curl-like and fetch-based
 * clients send them, duplicate Host headers, protocol revisions too long to echo, and what /readyz
 * and the credit figures tell a caller.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage, INITIALIZE, MCP_HEADERS, postMcp, rawRequest } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import { connectHttp, type HttpServer } from '../helpers/session.js';
import { until } from '../helpers/until.js';

const TOKEN = 'test-token-8c2e4a6f0b1d3579';
const ping = (id: unknown, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'ping',
  params,
});

/** JSON text of 1 wrapped in `depth` arrays (written as text: too deep for JSON.stringify). */
function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

describe('hostile requests', () => {
  let server: HttpServer;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'svc-http-hostile-'));
    server = await startHttpServer({ SVC_STATE_DIR: stateDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('a protocol revision longer than any is refused, clipped, in the body envelope or the header', async () => {
    const long = '9'.repeat(100_000);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': long,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
    };
    const list = (envelope: Record<string, unknown>) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } });
    const answers = [
      await postMcp(server.url, list(meta)),
      await postMcp(server.url, list({ ...meta, 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }), {
        'mcp-protocol-version': long.slice(0, 7_000),
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(1_000);
      expect(errorMessage(answer)).toMatch(/protocol/i);
    }
  });

  it('a batch under 2025-06-18 or later is a 400 naming why; under 2025-03-26 it is served, up to 16 messages', async () => {
    const batch = JSON.stringify([ping(1), ping(2)]);
    for (const version of ['2025-06-18', '2025-11-25', '2026-07-28']) {
      const refused = await postMcp(server.url, batch, { 'mcp-protocol-version': version });
      expect(refused.status, version).toBe(400);
      expect(JSON.parse(refused.text).error.code, version).toBe(-32600);
      expect(errorMessage(refused), version).toMatch(
        new RegExp(
          `batches are not part of MCP protocol ${version}.*send each message in a request of its own`,
        ),
      );
    }
    // Two versions in one header (Node joins repeated headers with a comma) name no revision.
    const joined = await postMcp(server.url, batch, { 'mcp-protocol-version': '2025-03-26, 2025-11-25' });
    expect(joined.status).toBe(400);
    expect(errorMessage(joined)).toMatch(/batches are not part of MCP protocol/);
    const served = await postMcp(server.url, batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(served.status).toBe(200);
    expect(served.text).toContain('"id":2');
    const tooMany = JSON.stringify(Array.from({ length: 17 }, (_, i) => ping(i)));
    const refused = await postMcp(server.url, tooMany, { 'mcp-protocol-version': '2025-03-26' });
    expect(refused.status).toBe(400);
    expect(errorMessage(refused)).toMatch(/A batch holds 1 to 16 messages; this one holds 17/);
  });

  it('a body the SDK would not read as a JSON-RPC message is a 400 naming what is wrong, in a batch too', async () => {
    const bodies: [string, RegExp, string?][] = [
      [
        '{"jsonrpc":"2.0","id":14,"method":"ping","extra":1}',
        /it has "extra", which a request does not carry/,
      ],
      ['{"jsonrpc":"2.0","id":15.5,"method":"ping"}', /"id" is neither a string nor a whole number/],
      ['{"jsonrpc":"1.0","id":1,"method":"ping"}', /"jsonrpc" is not "2.0"/],
      ['{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}', /"id" is neither a string nor a whole number/],
      [
        JSON.stringify([ping(1), { ...ping(2), extra: 1 }]),
        /message 2 of the batch: it has "extra"/,
        '2025-03-26',
      ],
    ];
    for (const [body, says, version = '2025-11-25'] of bodies) {
      const refused = await postMcp(server.url, body, { 'mcp-protocol-version': version });
      expect(refused.status, body).toBe(400);
      expect(JSON.parse(refused.text).error.code, body).toBe(-32600);
      expect(errorMessage(refused), body).toMatch(says);
      expect(errorMessage(refused), body).toMatch(/send a JSON-RPC 2\.0 message/);
    }
  });

  it('nesting past 64 levels, in params, arguments, _meta or id, is a 400 saying so, logged at warn', async () => {
    const call = (params: string, id = '1') =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
    const deep = nested(5_000);
    const name = '"name":"get_fear_and_greed_latest"';
    const bodies = {
      params: call(`{${name},"arguments":{},"extra":${deep}}`),
      arguments: call(`{${name},"arguments":{"limit":${deep}}}`),
      _meta: call(`{${name},"arguments":{},"_meta":{"deep":${deep}}}`),
      id: call(`{${name},"arguments":{}}`, deep),
      'just past the bound': call(`{${name},"arguments":{"limit":${nested(62)}}}`),
    };
    for (const [where, body] of Object.entries(bodies)) {
      const response = await postMcp(server.url, body, { 'mcp-protocol-version': '2025-11-25' });
      expect(response.status, where).toBe(400);
      expect(JSON.parse(response.text).error.code, where).toBe(-32600);
      expect(errorMessage(response), where).toMatch(
        /nested more than 64 levels deep.*at most 64 are allowed/,
      );
    }
    await until(
      () =>
        server
          .stderr()
          .split('\n')
          .filter((l) => /"level":"?(40|warn)/.test(l) && /nested more than 64/.test(l)).length >= 5,
    );
    // At the bound it is an ordinary request.
    const within = await postMcp(
      server.url,
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"deep":${nested(62)}}}`,
      {
        'mcp-protocol-version': '2025-11-25',
      },
    );
    expect(within.status).toBe(200);
  });

  it('a 5 MB body gets its 413 whether sent announced, streamed, or by fetch (as the MCP SDK sends)', async () => {
    const big = JSON.stringify(ping(1, { pad: 'x'.repeat(5_000_000) }));
    const limit = /over the limit of 262144 bytes/;
    const announced = await rawRequest(server.url, { headers: MCP_HEADERS, body: big });
    expect(announced.status).toBe(413);
    expect(errorMessage(announced)).toMatch(limit);
    const streamed = await rawRequest(server.url, { headers: MCP_HEADERS, body: big, chunked: true });
    expect(streamed.status).toBe(413);
    const fetched = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: big });
    expect(fetched.status).toBe(413);
    expect(((await fetched.json()) as { error: { message: string } }).error.message).toMatch(limit);
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.subarray(at, at + 65_536));
        controller.close();
      },
    });
    const fetchedStream = await fetch(server.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(fetchedStream.status).toBe(413);
    expect((await postMcp(server.url, INITIALIZE)).status).toBe(200);
  });

  it('two Host headers are a 400, on every path', async () => {
    const { hostname, port } = new URL(server.origin);
    for (const path of ['/mcp', '/healthz']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname);
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString('utf8');
        });
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example.com\r\nConnection: close\r\n\r\n`,
        );
      });
      expect(answer, path).toMatch(/^HTTP\/1\.1 400/);
      expect(answer, path).toContain('one Host header');
    }
  });

  it("get_credit_usage and svc://credits name the ledger's kind, never its path", async () => {
    const session = await connectHttp(server, 'v2');
    const usage = await session.call('get_credit_usage');
    expect(usage.structuredContent?.ledger).toBe('file');
    expect(JSON.stringify(usage)).not.toContain(stateDir);
    const credits = (await session.readResource('svc://credits')).contents[0]!.text ?? '';
    expect(JSON.parse(credits).ledger).toBe('file');
    expect(credits).not.toContain(stateDir);
    await session.close();
  });
});

describe('/readyz', () => {
  let server: HttpServer;
  beforeAll(async () => {
    // Nothing listens on port 9: the upstream check fails, with the address in its reason.
    server = await startHttpServer({
      SVC_HTTP_TOKEN: TOKEN,
      SVC_BASE_URL: 'http://127.0.0.1:9',
      SVC_API_KEY: 'k',
    });
  });
  afterAll(() => server?.stop());

  it('says which part fails to anyone, and why only to a caller with the token', async () => {
    const anyone = await rawRequest(`${server.origin}/readyz`, { method: 'GET' });
    expect(anyone.status).toBe(503);
    expect(JSON.parse(anyone.text)).toEqual({
      status: 'not ready',
      checks: { upstream: 'failing', ledger: 'ok' },
    });
    const wrong = await rawRequest(`${server.origin}/readyz`, {
      method: 'GET',
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.text).not.toContain('127.0.0.1');
    const trusted = await rawRequest(`${server.origin}/readyz`, {
      method: 'GET',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(trusted.status).toBe(503);
    expect(JSON.parse(trusted.text).checks.upstream).toMatch(/127\.0\.0\.1:9 failed \(ECONNREFUSED\)/);
  });
});
