/**
 * The real sandbox, in-process on a loopback port, with the clock frozen: the "external sandbox"
 * mode, where the CLI is pointed at it with a key and a base URL so a test can read its request
 * count and add faults.
 */
import { startSandbox } from '../../src/sandbox/server.js';
import type { Env } from './cli.js';
import { startMcp } from './in-process.js';
import { NOW } from './now.js';
import type { Session } from './session.js';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>;

export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, now: NOW, ...options });
}

/** The CLI's environment for a sandbox started here, called with one of its keys. */
export function sandboxEnv(sandbox: Sandbox, key = 'sandbox-enterprise', extra: Env = {}): Env {
  return { SVC_API_KEY: key, SVC_BASE_URL: sandbox.url, ...extra };
}

/**
 * The environment for heavy calls on a sandbox started here: the enterprise key, the sandbox's
 * clock (so that "now" is the same instant on both sides), every toolset, and a per-call limit the
 * heaviest calls stay under.
 */
export function heavyCallsEnv(sandbox: Sandbox, extra: Env = {}): Env {
  return sandboxEnv(sandbox, 'sandbox-enterprise', {
    SVC_NOW: NOW,
    SVC_TOOLSETS: 'all',
    SVC_MAX_CREDITS_PER_CALL: '1000',
    ...extra,
  });
}

/**
 * Two servers on one sandbox, cache off, every toolset, the largest answers (so that the spec's
 * per-record charges show before a page is capped): one that pays (a per-call limit no call
 * reaches), and one whose limit of 0 credits per call refuses every paid call saying its estimate.
 */
export async function startPayingAndRefusing(
  sandbox: Sandbox,
): Promise<{ paying: Session; refusing: Session }> {
  const env = { SVC_TOOLSETS: 'all', SVC_CACHE: 'off', SVC_NOW: NOW, SVC_MAX_ANSWER_CHARS: '400000' };
  const [paying, refusing] = await Promise.all([
    startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { ...env, SVC_MAX_CREDITS_PER_CALL: '10000' })),
    startMcp(sandboxEnv(sandbox, 'sandbox-enterprise', { ...env, SVC_MAX_CREDITS_PER_CALL: '0' })),
  ]);
  return { paying, refusing };
}
