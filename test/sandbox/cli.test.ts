/** `svc-mcp sandbox` as a person starts it: the built CLI in its own process, its flags, its output. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const root = REPO_ROOT;
const KEY = { 'X-SVC_PRO_API_KEY': 'sandbox-enterprise' };
const FEAR_AND_GREED = '/v3/fear-and-greed/latest';

let child: ChildProcess;
let output = '';
let url = '';

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [
      'dist/cli.js',
      'sandbox',
      '--port',
      '0',
      '--now',
      '2026-11-22T12:00:00Z',
      '--no-rate-limit',
      '--fault',
      `path=${FEAR_AND_GREED},kind=500,count=1`,
    ],
    { cwd: root, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (match && output.includes('sandbox-basic')) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
  });
});

afterAll(() => {
  child?.kill();
});

describe('svc-mcp sandbox', () => {
  it('listens on loopback and prints its base URL and every demo key', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const plan of ['basic', 'hobbyist', 'startup', 'standard', 'professional', 'enterprise']) {
      expect(output).toContain(`sandbox-${plan}`);
    }
  });

  it('--fault answers 500 for the next request to that path only', async () => {
    const first = await fetch(`${url}${FEAR_AND_GREED}`, { headers: KEY });
    expect(first.status).toBe(500);
    const second = await fetch(`${url}${FEAR_AND_GREED}`, { headers: KEY });
    expect(second.status).toBe(200);
  });

  it('--now freezes the clock: the same request answers byte for byte the same', async () => {
    const path = '/v1/global-metrics/quotes/historical?count=3&interval=1h';
    const bodies = await Promise.all(
      [1, 2].map(async () => (await fetch(`${url}${path}`, { headers: KEY })).text()),
    );
    expect(bodies[0]).toBe(bodies[1]);
    expect(JSON.parse(bodies[0]!).data.quotes.at(-1).timestamp).toBe('2026-11-22T12:00:00.000Z');
  });

  it('--no-rate-limit lets a Basic key past 30 requests a minute', async () => {
    const statuses = [];
    for (let i = 0; i < 35; i++) {
      const res = await fetch(`${url}/v1/altcoin-season-index/latest`, {
        headers: { 'X-SVC_PRO_API_KEY': 'sandbox-basic' },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('refuses a bad --port or --fault with a clear message and exit code 2', async () => {
    const run = promisify(execFile);
    for (const args of [
      ['--port', '70000'],
      ['--fault', 'path=/x,kind=explode'],
    ]) {
      const failure = await run(process.execPath, ['dist/cli.js', 'sandbox', ...args], { cwd: root }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code, args.join(' ')).toBe(2);
      expect(failure?.stderr, args.join(' ')).toMatch(/^svc-mcp: .*(port|kind)/m);
      expect(failure?.stderr, 'a message, not a stack trace').not.toContain('    at ');
    }
  });
});
