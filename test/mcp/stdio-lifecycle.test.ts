/**
 * The stdio server's life: a host that writes its requests and closes stdin at once still gets every
 * answer before the process exits 0; a line that is not a message gets a parse error (or an invalid
 * request) and the session goes on; a transport closed for any other reason (stdout gone) ends the
 * process instead of leaving it alive and deaf.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const lines = (...messages: object[]) => messages.map((m) => `${JSON.stringify(m)}\n`).join('');

/** Every message the server wrote. */
function messagesOf(stdout: string) {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

function answers(
  stdout: string,
): Map<number, { result?: { content?: { text: string }[] }; error?: unknown }> {
  return new Map(messagesOf(stdout).map((m) => [m.id, m]));
}

describe('stdin closing right after the last request', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: false });
  });
  afterAll(() => sandbox?.close());

  it('every request in flight is answered, then the process exits 0', async () => {
    // A slow answer: the call is still in flight when stdin ends.
    sandbox.faults.add({ path: '/v3/fear-and-greed/latest', kind: 'delay', ms: 600 });
    const proc = spawnCli(['stdio'], sandboxEnv(sandbox, 'sandbox-enterprise', { SVC_CACHE: 'off' }), 'pipe');
    proc.child.stdin?.end(
      lines(
        initialize,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'get_fear_and_greed_latest', arguments: {} },
        },
      ),
    );
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const byId = answers(proc.stdout());
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(byId.get(3)?.result?.content?.[0]?.text).toMatch(/^Fear & Greed \d+ – /);
  });

  it('on the embedded sandbox too (printf … | svc-mcp)', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    proc.child.stdin?.end(
      lines(
        initialize,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'get_svc20_index_latest', arguments: {} },
        },
      ),
    );
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect([...answers(proc.stdout()).keys()].sort()).toEqual([1, 2, 3]);
  });
});

describe('lines that are not a message', () => {
  it('a line that is not JSON gets a parse error (-32700, id null); later requests are answered', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    proc.child.stdin?.end(
      `${lines(initialize)}not json at all\n{"jsonrpc":"2.0","id":2,\n${lines({ jsonrpc: '2.0', id: 3, method: 'ping' })}`,
    );
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const messages = messagesOf(proc.stdout());
    const parseErrors = messages.filter((m) => m.error?.code === -32700);
    expect(parseErrors).toHaveLength(2);
    for (const m of parseErrors) {
      expect(m.id).toBeNull();
      expect(m.error.message).toMatch(/^Parse error: the line is not valid JSON/);
    }
    expect(messages.find((m) => m.id === 3)?.result).toEqual({});
  });

  it('each line is one message: CRLF endings, several in one write, one split inside a character', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    const split = Buffer.from('{"jsonrpc":"2.0","id":"é-4","method":"ping"}\r\n');
    const inside = split.indexOf(Buffer.from('é')) + 1;
    proc.child.stdin?.write(`${JSON.stringify(initialize)}\r\n`);
    proc.child.stdin?.write(split.subarray(0, inside));
    await new Promise((resolve) => setTimeout(resolve, 50));
    proc.child.stdin?.write(split.subarray(inside));
    proc.child.stdin?.end(
      lines({ jsonrpc: '2.0', id: 5, method: 'ping' }, { jsonrpc: '2.0', id: 6, method: 'ping' }),
    );
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const messages = messagesOf(proc.stdout());
    expect(messages.map((m) => m.id)).toEqual([1, 'é-4', 5, 6]);
    expect(messages.slice(1).map((m) => m.result)).toEqual([{}, {}, {}]);
  });

  it('JSON that is not a JSON-RPC message gets an invalid request (-32600, with its id when it has one); later requests are answered', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    const notMessages = [
      '42',
      'null',
      '["ping"]',
      '{"jsonrpc":"1.0","id":5,"method":"ping"}',
      '{"jsonrpc":"2.0","id":6}',
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1]}',
      '{"jsonrpc":"2.0","id":{"n":8},"method":"ping"}',
      // What the SDK's reader also drops without a word: a member JSON-RPC does not have, an id
      // that is not a whole number, a malformed `_meta`, an error without its code.
      '{"jsonrpc":"2.0","id":14,"method":"ping","extra":1}',
      '{"jsonrpc":"2.0","id":15.5,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1e300,"method":"ping"}',
      '{"jsonrpc":"2.0","id":16,"method":"ping","params":{"_meta":{"progressToken":1.5}}}',
      '{"jsonrpc":"2.0","id":17,"result":{},"error":{"code":1,"message":"x"}}',
      '{"jsonrpc":"2.0","id":18,"error":{"message":"x"}}',
      // Arguments nested 100,000 deep: read in linear time and refused before anything walks them.
      `{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"get_fear_and_greed_latest","arguments":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
    ];
    proc.child.stdin?.end(
      `${lines(initialize)}${notMessages.join('\n')}\n${lines({ jsonrpc: '2.0', id: 3, method: 'ping' })}`,
    );
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const messages = messagesOf(proc.stdout());
    const invalid = messages.filter((m) => m.error?.code === -32600);
    expect(invalid.map((m) => m.id)).toEqual([
      null,
      null,
      null,
      5,
      6,
      7,
      null,
      14,
      null,
      null,
      16,
      17,
      18,
      19,
    ]);
    expect(invalid.map((m) => m.error.message.replace(/;.*/, ''))).toEqual([
      'Invalid Request: the message is a number, not an object',
      'Invalid Request: the message is null, not an object',
      'Invalid Request: the message is an array, not an object',
      'Invalid Request: "jsonrpc" is not "2.0"',
      'Invalid Request: it has no "method", and no "id" with a "result" or an "error"',
      'Invalid Request: "params" is not an object',
      'Invalid Request: "id" is neither a string nor a whole number',
      'Invalid Request: it has "extra", which a request does not carry (only jsonrpc, id, method, params)',
      'Invalid Request: "id" is neither a string nor a whole number',
      'Invalid Request: "id" is neither a string nor a whole number',
      'Invalid Request: "params._meta.progressToken" is neither a string nor a whole number',
      'Invalid Request: it has "error", which a response does not carry (only jsonrpc, id, result)',
      'Invalid Request: "error" is not an object with a whole number "code" and a string "message"',
      'Invalid Request: the message is nested more than 64 levels deep (arrays and objects, in params, arguments, _meta or id)',
    ]);
    expect(messages.find((m) => m.id === 3)?.result).toEqual({});
  });

  it('a line over 4 MiB is dropped with a parse error, and the next request is answered', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    const huge = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{"s":"${'a'.repeat(11 * 1024 * 1024)}"}}}\n`;
    proc.child.stdin?.write(lines(initialize));
    proc.child.stdin?.write(huge);
    proc.child.stdin?.end(lines({ jsonrpc: '2.0', id: 3, method: 'ping' }));
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    const byId = answers(proc.stdout().replace(/^.*"id":null.*$/m, ''));
    expect(proc.stdout()).toMatch(/"code":-32700,"message":"Parse error: the line is longer than 4 MiB/);
    expect(byId.has(9)).toBe(false);
    expect(byId.get(3)?.result).toEqual({});
  });
});

describe('a transport that closes', () => {
  it('stdout closed by the host ends the process cleanly instead of leaving it running', async () => {
    const proc = spawnCli(['stdio'], {}, 'pipe');
    proc.child.stdin?.on('error', () => {});
    proc.child.stdout?.destroy();
    // The answer to initialize cannot be written: the transport closes.
    proc.child.stdin?.write(lines(initialize));
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
    const { code, signal } = await proc.exited;
    clearTimeout(timer);
    // A clean exit: code 0, and nothing on stderr beyond the start-up banner (no EPIPE trace).
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toMatch(/^svc-mcp \S+ on stdio · [^\n]*\n$/);
  });
});
