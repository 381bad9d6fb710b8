/**
 * A real redis-server of the tests' own, on a free loopback port, with its data in a temporary
 * directory (append-only file on, so a restart keeps what was written, as a deployment's would).
 * A machine without redis-server skips the tests that need it and says why; under CI (CI=true)
 * a missing redis-server fails the run instead. Tests that need Redis only running share the run's
 * one server (started by global-setup.ts), each under a key prefix of its own; tests that stop,
 * restart or freeze it start their own.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from './ports.js';
import { record } from './recorder.js';

const SERVER = 'redis-server';

/** Why the Redis tests cannot run here (printed), or undefined when they can. Throws under CI. */
export function redisMissing(): string | undefined {
  const probe = spawnSync(SERVER, ['--version'], { encoding: 'utf8' });
  if (!probe.error && probe.status === 0) return undefined;
  const missing = `${SERVER} is not installed (apt-get install redis-server)`;
  if (process.env.CI === 'true') throw new Error(`${missing}, and CI (CI=true) requires it`);
  const reason = `${missing}: the Redis tests are skipped`;
  console.warn(reason);
  return reason;
}

export interface TestRedis {
  /** redis://127.0.0.1:PORT */
  url: string;
  /** Stop the server (its data stays on disk). */
  stop(): Promise<void>;
  /** Start it again on the same port, with the data it had. */
  start(): Promise<void>;
  /** Stop it and remove its data. */
  close(): Promise<void>;
  /** Freeze it (SIGSTOP): connections stay open, commands wait unanswered until `resume`. */
  pause(): void;
  resume(): void;
}

/** The run's shared redis-server, and a key prefix (SVC_REDIS_PREFIX) no other caller has. */
export interface SharedRedis {
  url: string;
  prefix: string;
}

let prefixes = 0;

/** The run's shared redis-server (when redisMissing() said it can run here), with a prefix of the caller's own. */
export function sharedRedis(): SharedRedis {
  const url = inject('redisUrl');
  if (!url) throw new Error('the shared redis-server did not start (see the global setup)');
  prefixes += 1;
  return { url, prefix: `t${process.pid}-${prefixes}-${Date.now().toString(36)}` };
}

/** A redis-server of the caller's own; `log` is told when it has started (the recorder, in a test). */
export async function startRedis(
  log: (text: string) => void = (text) => record('redis-server', text),
): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
    const started = spawn(SERVER, [...args, '--appendonly', 'yes', '--appendfsync', 'always'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout?.on('data', read);
      started.stderr?.on('data', read);
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
    log(`started on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
