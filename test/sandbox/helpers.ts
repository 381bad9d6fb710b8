/**
 * The real sandbox, in-process on a free loopback port with a frozen clock, and a small fetch
 * wrapper over real HTTP. Every sandbox test file starts its own, so counters start at zero.
 */
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { NOW } from '../helpers/now.js';

export const DAY = 86_400;
export const KEY_HEADER = 'X-SVC_PRO_API_KEY';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
  body: any;
}

export interface Client {
  sandbox: Sandbox;
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<Reply>;
}

export async function openSandbox(options: SandboxOptions = {}): Promise<Client> {
  const sandbox = await startSandbox({ now: NOW, ...options });
  return {
    sandbox,
    async get(path, key = 'sandbox-enterprise', headers = {}) {
      const response = await fetch(sandbox.url + path, {
        headers: key === null ? headers : { [KEY_HEADER]: key, ...headers },
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, headers: response.headers, text, body };
    },
  };
}

/** Unix seconds of an ISO time. */
export function unix(isoText: string): number {
  return Date.parse(isoText) / 1000;
}
