/**
 * What a script cannot do, through a real MCP client: hold other calls up, outgrow its memory, its
 * stack, its time, its calls or its logs, reach anything of the host (process, modules, network,
 * the key), or leave anything behind for the next script. Each bound ends the script with a line
 * that says which; the server goes on answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir, textOf } from '../helpers/cli.js';
import { type InProcessSession, startMcp } from '../helpers/in-process.js';
import { NOW } from '../helpers/now.js';
import { type Sandbox, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { SECRET_KEY } from '../helpers/secret.js';

type Script = { result: unknown; logs: string[]; calls: number; credits: number; note?: string };

const TIMEOUT_MS = 1_500;

let sandbox: Sandbox;
let mcp: InProcessSession;
/** Scripts that do much and end on their own: the default deadline. */
let roomy: InProcessSession;
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false, keys: { [SECRET_KEY]: 'enterprise' } });
  const env = (more: Record<string, string>) =>
    sandboxEnv(sandbox, SECRET_KEY, { SVC_NOW: NOW, SVC_STATE_DIR: newStateDir(), ...more });
  [mcp, roomy] = await Promise.all([
    startMcp(env({ SVC_SCRIPT_TIMEOUT_MS: String(TIMEOUT_MS), SVC_SCRIPT_MEMORY_MB: '16' })),
    startMcp(env({})),
  ]);
});
afterAll(async () => {
  await Promise.all([mcp?.close(), roomy?.close()]);
  await sandbox?.close();
});

const run = (code: string, session = mcp) => session.call('run_script', { code, format: 'json' });
const resultOf = async (code: string, session = mcp) => {
  const result = await run(code, session);
  expect(result.isError, textOf(result)).toBeFalsy();
  return (result.structuredContent as Script).result;
};

describe('bounds', () => {
  it('a loop that never ends stops at its deadline, while other calls are answered within 1 s', async () => {
    const started = performance.now();
    const looping = run('while (true) {}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The loop holds its own thread: calls meanwhile are answered as ever (the best of three, so
    // that a machine busy with other tests does not decide it).
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const asked = performance.now();
      expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
      times.push(performance.now() - asked);
    }
    expect(Math.min(...times)).toBeLessThan(1_000);
    const stopped = await looping;
    expect(stopped.isError).toBe(true);
    expect(textOf(stopped)).toMatch(/^The script was stopped at its deadline \(SVC_SCRIPT_TIMEOUT_MS\)/);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
  });

  it.each([
    [
      'memory',
      'const kept = [];\nfor (let n = 1 << 16; ; n *= 2) kept.push(new Uint8Array(n));',
      /^The script ran out of memory at line 2, column \d+ \(16 MB, SVC_SCRIPT_MEMORY_MB\)/,
    ],
    [
      'a string past its bound',
      'let s = "x"; for (;;) s += s;',
      /^The script failed at line 1, column \d+: InternalError: string too long/,
    ],
    [
      'deep recursion',
      'function down(n) { return down(n + 1) + 1; }\nreturn down(0);',
      /^The script's stack overflowed at line 1, column \d+ \(1024 KB\): recursion too deep/,
    ],
    [
      'a value nested 100,000 deep, made text',
      'let x = [];\nfor (let i = 0; i < 100000; i++) x = [x];\nreturn String(x).length;',
      /^The script's stack overflowed at line 3, column \d+ \(1024 KB\)/,
    ],
    [
      'JSON nested 100,000 deep',
      "return JSON.parse('['.repeat(100000) + ']'.repeat(100000)).length;",
      /^The script failed at line 1, column \d+: SyntaxError: stack overflow/,
    ],
    [
      'a promise that never settles',
      'await new Promise(() => {});',
      /^The script waits on a promise that nothing can settle/,
    ],
    [
      'a builtin that never checks the interrupt',
      'const parts = []; for (;;) parts.push("x".repeat(1e6));',
      /^The script (was stopped at its deadline|ran out of memory)/,
    ],
  ])('%s ends the script, saying so', async (_, code, said) => {
    const result = await run(code);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(said);
    expect((await mcp.call('get_fear_and_greed_latest')).isError).toBeFalsy();
  });

  it('code nested 100,000 deep, given to eval, ends the script and its thread; the next runs', async () => {
    const result = await run("return eval('('.repeat(100000) + '1' + ')'.repeat(100000));");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The script nested code or a value too deeply for the runner/);
    expect(await resultOf('return 6 * 7;')).toBe(42);
  });

  it('10,000 calls: the first 100 are made, the rest refused, each saying so', async () => {
    const result = await run(
      `
      const asked = [];
      for (let i = 0; i < 10000; i++) asked.push(tools.get_fear_and_greed_latest().then(() => 'ok', (e) => e.message));
      const answers = await Promise.all(asked);
      return { ok: answers.filter((a) => a === 'ok').length, refused: answers.find((a) => a !== 'ok') };
    `,
      roomy,
    );
    const script = result.structuredContent as Script;
    expect(script.result).toEqual({
      ok: 100,
      refused: 'Refused: a script makes at most 100 tool calls and queries.',
    });
    // The answer counts the calls made, not those refused before they were made.
    expect(script.calls).toBe(100);
  });

  it('huge logs are kept within their bound, the rest counted', async () => {
    const result = await run('for (let i = 0; i < 100000; i++) console.log("line", i); return 1;', roomy);
    const script = result.structuredContent as Script;
    expect(script.logs.join('').length).toBeLessThanOrEqual(20_000);
    expect(script.logs[0]).toBe('line 0');
    expect(script.note).toMatch(/^[\d,]+ log lines past the bound not kept\.$/);
  });
});

describe('what a script returns', () => {
  it('is its own value, whatever the script replaced of JSON and promises', async () => {
    for (const [code, value] of [
      ["JSON.stringify = () => '{'; return 1;", 1],
      ["JSON.stringify = () => '['.repeat(100000); return 2;", 2],
      ["Promise.prototype.then = function () { return 'x'; }; return 3;", 3],
      ['Promise.prototype.then = function () { return new Promise(() => {}); }; return 4;', 4],
      ['delete globalThis.JSON; return 5;', 5],
    ] as const) {
      expect(await resultOf(code), code).toBe(value);
    }
    expect(await resultOf('return 6 * 7;')).toBe(42);
  });

  it('is null where JSON has no form for it, as for undefined', async () => {
    for (const code of [
      'return () => 1;',
      "return Symbol('x');",
      'return { toJSON() { return undefined; } };',
      "return { toJSON() { return Symbol('x'); } };",
    ]) {
      expect(await resultOf(code), code).toBeNull();
    }
  });

  it('that JSON cannot hold ends the script saying so, at no line the script lacks', async () => {
    for (const [code, said] of [
      ['return 1n;', /BigInt/],
      ['const a = {}; a.a = a; return a;', /circular/],
    ] as const) {
      const result = await run(code);
      expect(result.isError, code).toBe(true);
      expect(textOf(result)).toMatch(/^The script's return value could not be made JSON: TypeError: /);
      expect(textOf(result)).toMatch(said);
      expect(textOf(result)).not.toMatch(/ at line /);
    }
  });

  it('whose toJSON or thrown value never ends is stopped at the deadline, saying so', async () => {
    for (const code of [
      'Object.prototype.toJSON = () => { while (true) {} }; return { a: 1 };',
      'throw new Proxy({}, { get() { while (true) {} } });',
    ]) {
      const result = await run(code);
      expect(result.isError, code).toBe(true);
      expect(textOf(result), code).toMatch(/^The script was stopped at its deadline/);
    }
  });
});

describe('the host is out of reach', () => {
  it('process, require, import(), fetch and the Function constructor give nothing of it', async () => {
    const value = await resultOf(`
      const seen = [typeof process, typeof require, typeof fetch, typeof globalThis.process,
        this.constructor.constructor('return typeof process')(),
        Object.getOwnPropertyNames(globalThis).filter((n) => /^__/.test(n)).length];
      try { await import('node:fs'); seen.push('imported'); } catch (error) { seen.push('no import'); }
      return seen;
    `);
    expect(value).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 0, 'no import']);
  });

  it('nothing the script can read or return holds the key', async () => {
    const result = await run(`
      const everything = { globals: Object.getOwnPropertyNames(globalThis), key: await tools.get_key_info(),
        usage: await tools.get_credit_usage(), tools: Object.keys(tools), query: String(query) };
      console.log(JSON.stringify(everything));
      return everything;
    `);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(SECRET_KEY);
  });

  it('Object.prototype changed inside one script is unchanged in the next', async () => {
    await resultOf(
      'Object.prototype.polluted = 1; Array.prototype.map = null; globalThis.left = 2; return 1;',
    );
    expect(await resultOf('return [({}).polluted ?? "clean", typeof [].map, typeof left];')).toEqual([
      'clean',
      'function',
      'undefined',
    ]);
  });
});
