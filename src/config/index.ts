/**
 * The settings as the server runs with them: read from the environment by the one table
 * (settings.ts), each checked by its schema, then the rules between them. The Config type,
 * docs/settings.md's table and the manifest's user_config are all derived from that table.
 */

import type { z } from 'zod';
import { clip } from '../messages.js';
import { ConfigError } from './error.js';
import { SETTINGS } from './settings.js';
import { type Setting, unsetIfBlank } from './values.js';

export { ANSWER_CHARS, LOG_LEVELS, type LogLevel, SETTINGS } from './settings.js';
export { ConfigError, type Setting, unsetIfBlank };

type Settings = typeof SETTINGS;

/** What the server runs with: one property per setting, typed by its schema. */
export type Config = { [K in keyof Settings]: z.output<ReturnType<Settings[K]['schema']>> };

const entries = Object.entries(SETTINGS) as [keyof Settings, Setting][];

/** Rules between settings. */
function crossCheck(config: Config): string | undefined {
  if (config.apiKey !== undefined && config.baseUrl === undefined) {
    return 'SVC_BASE_URL is required when SVC_API_KEY is set (the upstream base address, e.g. https://api.example.com).';
  }
  if (config.oauthIssuer !== undefined && config.httpToken !== undefined) {
    return 'SVC_OAUTH_ISSUER and SVC_HTTP_TOKEN are both set: pick one. Sign-in (SVC_OAUTH_ISSUER) gives each person their own token; SVC_HTTP_TOKEN is one shared token for small setups.';
  }
  if (
    config.userCreditBudget !== undefined &&
    config.oauthIssuer === undefined &&
    config.signIn === undefined
  ) {
    return 'SVC_USER_CREDIT_BUDGET needs sign-in (SVC_OAUTH_ISSUER or SVC_SIGN_IN=own-key): without it the server cannot tell one person from another.';
  }
  if (config.oauthIssuer !== undefined && config.oauthResource === undefined) {
    return "SVC_OAUTH_RESOURCE is required with SVC_OAUTH_ISSUER: this server's public URL (e.g. https://mcp.example.com/mcp), the audience its access tokens must name.";
  }
  return config.signIn === undefined ? undefined : ownKeyProblem(config);
}

/** Rules of own-key sign-in (SVC_SIGN_IN=own-key): alone, with its public URL, https beyond loopback. */
function ownKeyProblem(config: Config): string | undefined {
  if (config.httpToken !== undefined || config.oauthIssuer !== undefined) {
    return 'SVC_SIGN_IN=own-key signs people in itself: it cannot be combined with SVC_HTTP_TOKEN or SVC_OAUTH_ISSUER; unset them.';
  }
  if (config.oauthResource === undefined) {
    return "SVC_OAUTH_RESOURCE is required with SVC_SIGN_IN=own-key: this server's public URL (e.g. https://mcp.example.com/mcp), where people's assistants reach it.";
  }
  const url = new URL(config.oauthResource);
  if (url.pathname !== '/mcp') {
    return `SVC_OAUTH_RESOURCE must end in /mcp, the MCP endpoint (got ${url.pathname}).`;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !loopback) {
    return 'SVC_OAUTH_RESOURCE must be https beyond loopback with SVC_SIGN_IN=own-key: people give their keys on its pages (put a TLS proxy in front, docs/connector.md).';
  }
  if (config.redisUrl !== undefined && config.signInSecret === undefined) {
    return 'SVC_SIGN_IN_SECRET is required with SVC_REDIS_URL and SVC_SIGN_IN=own-key: every replica must decrypt the keys the others stored, so they share one secret (for example `openssl rand -hex 32`).';
  }
  return undefined;
}

/**
 * Read the settings from an environment (process.env by default). Throws ConfigError. A setting left
 * unset cannot be wrong: what it means is worked out when it is first read (most are read only once
 * the call path loads), so start-up builds the schemas of the settings that are set and no others.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = {} as Record<keyof Settings, unknown>;
  for (const [name, entry] of entries) {
    const raw = env[entry.env];
    if (unsetIfBlank(raw) === undefined) {
      valueOnFirstRead(config, name, () => entry.schema().parse(undefined));
      continue;
    }
    const result = entry.schema().safeParse(raw);
    if (!result.success) {
      const shown = entry.sensitive || typeof raw !== 'string' ? '' : ` (got "${clip(raw)}")`;
      throw new ConfigError(`${entry.env} ${result.error.issues[0]?.message}${shown}.`);
    }
    config[name] = result.data;
  }
  const problem = crossCheck(config as Config);
  if (problem) throw new ConfigError(problem);
  return config as Config;
}

/** Defines `target[name]` as `compute()`, computed when first read. */
function valueOnFirstRead(target: object, name: string, compute: () => unknown): void {
  Object.defineProperty(target, name, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = compute();
      Object.defineProperty(target, name, { value, enumerable: true });
      return value;
    },
  });
}

/** The default value in a setting's schema (inside its preprocessing and transforms), if it has one. */
function defaultOf(schema: z.ZodType): string | number | undefined {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'default') return def.defaultValue as string | number;
  for (const inner of [def.in, def.out, def.innerType]) {
    const found = inner === undefined ? undefined : defaultOf(inner as z.ZodType);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Each setting as docs/settings.md's table and the bundle manifest describe it: `shown` as a
 * person reads the default, `default` what a desktop host may pre-fill.
 */
export function settingsDoc(): (Setting & { shown: string; default?: string | number })[] {
  return entries.map(([, entry]) => {
    const value = defaultOf(entry.schema());
    return { ...entry, shown: entry.whenUnset ?? String(value), default: value };
  });
}
