/**
 * HTTP edges a hostile or careless client reaches: a request that asks to close its connection has
 * it closed after the answer; an unsupported protocol revision is told every revision the server
 * speaks; an empty batch and a batch with one id twice are refused saying what is wrong.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage, postMcp } from '../helpers/http.js';
import { startHttpServer } from '../helpers/in-process.js';
import type { HttpServer } from '../helpers/session.js';

let server: HttpServer;
beforeAll(async () => {
  server = await startHttpServer();
});
afterAll(() => server?.stop());

/** Node's keep-alive timeout, which the server keeps: how long an idle connection is held. */
const KEEP_ALIVE_MS = 5_000;

const PING = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping', params: {} });

/** A raw POST with `Connection: close`: the answer's head, and how long the server kept the socket. */
function postAndClose(version?: string): Promise<{ head: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify(PING(1));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const started = Date.now();
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
          `Accept: application/json, text/event-stream\r\n${version ? `MCP-Protocol-Version: ${version}\r\n` : ''}` +
          `Connection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
      });
      socket.on('close', () =>
        resolve({ head: received.split('\r\n\r\n')[0] ?? '', closedAfterMs: Date.now() - started }),
      );
    });
    socket.on('error', reject);
  });
}

describe('Connection: close', () => {
  it.each(['2025-06-18', undefined])(
    'MCP-Protocol-Version %s: answered, then the connection closed at once',
    async (version) => {
      const { head, closedAfterMs } = await postAndClose(version);
      expect(head).toMatch(/^HTTP\/1\.1 200/);
      expect(head).toMatch(/\r\nconnection: close/i);
      // Held, it would close only at the keep-alive timeout: well under that is closed after the
      // answer, however busy the machine.
      expect(closedAfterMs).toBeLessThan(KEEP_ALIVE_MS - 1_000);
    },
  );
});

describe('protocol revisions', () => {
  it('an unsupported MCP-Protocol-Version is told every revision, 2026-07-28 among them', async () => {
    const response = await postMcp(server.url, JSON.stringify(PING(1)), {
      'mcp-protocol-version': '1999-01-01',
    });
    expect(response.status).toBe(400);
    const message = errorMessage(response);
    expect(message).toContain('1999-01-01');
    for (const revision of ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'])
      expect(message).toContain(revision);
  });
});

describe('batches (2025-03-26)', () => {
  const batch = (messages: unknown[]) =>
    postMcp(server.url, JSON.stringify(messages), { 'mcp-protocol-version': '2025-03-26' });

  it('an empty batch is refused as empty', async () => {
    const response = await batch([]);
    expect(response.status).toBe(400);
    expect(errorMessage(response)).toBe(
      'Invalid Request: the batch is empty; a batch holds 1 to 16 messages.',
    );
  });

  it('two requests with one id are refused naming the id and the messages', async () => {
    const response = await batch([PING(7), PING(8), PING(7)]);
    expect(response.status).toBe(400);
    expect(errorMessage(response)).toBe(
      'Invalid Request: messages 1 and 3 of the batch share the id 7; each request needs an id of its own, or its answer is lost.',
    );
  });
});
