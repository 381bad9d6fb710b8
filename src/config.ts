/**
 * Every setting, read from SVC_* environment variables (flags may override a few), parsed by one
 * zod schema so that a bad value stops start-up with a message naming the variable.
 */
import { z } from 'zod';
import { DEFAULT_KEY_HEADER, DEFAULT_TOOLSETS, PLANS, TOOLSETS, type Toolset } from './catalog/define.js';

/** Empty values and `${user_config.x}` placeholders left by a desktop host count as unset. */
function unsetIfBlank(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return text === '' || /^\$\{user_config\.[^}]*\}$/.test(text) ? undefined : text;
}

const text = () => z.preprocess(unsetIfBlank, z.string().optional());

function toolsetList(value: string | undefined, ctx: z.RefinementCtx): Toolset[] {
  if (value === undefined || value === 'default') return [...DEFAULT_TOOLSETS];
  if (value === 'all') return Object.keys(TOOLSETS) as Toolset[];
  const names = value.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => n !== 'default' && n !== 'all' && !(n in TOOLSETS));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `names an unknown toolset "${unknown[0]}"; allowed: ${Object.keys(TOOLSETS).join(', ')}, all, default`,
    });
    return [];
  }
  const expanded = names.flatMap((n) =>
    n === 'all' ? (Object.keys(TOOLSETS) as Toolset[]) : n === 'default' ? DEFAULT_TOOLSETS : [n as Toolset],
  );
  return [...new Set(expanded)];
}

const settingsSchema = z
  .object({
    // The key travels in a header: a control character or a space inside it could never be sent.
    SVC_API_KEY: text().pipe(
      z
        .string()
        .regex(/^[\x21-\x7e]+$/, {
          message: 'must be printable ASCII with no spaces (it is sent in a header)',
        })
        .optional(),
    ),
    SVC_BASE_URL: text().pipe(
      z
        .url({ protocol: /^https?$/, message: 'must be an http or https URL, e.g. https://api.example.com' })
        .optional(),
    ),
    SVC_API_KEY_HEADER: text().pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { message: 'must be a valid HTTP header name' })
        .default(DEFAULT_KEY_HEADER),
    ),
    SVC_PLAN: z.preprocess(
      (v) => (typeof unsetIfBlank(v) === 'string' ? (v as string).trim().toLowerCase() : undefined),
      z.enum(PLANS, { message: `must be one of ${PLANS.join(', ')}` }).optional(),
    ),
    SVC_TOOLSETS: text().transform(toolsetList),
    SVC_TIMEOUT_MS: z.preprocess(
      unsetIfBlank,
      z.coerce
        .number({ message: 'must be a number of milliseconds' })
        .int({ message: 'must be a whole number of milliseconds' })
        .min(100, { message: 'must be at least 100 ms' })
        .max(120_000, { message: 'must be at most 120000 ms' })
        .default(10_000),
    ),
  })
  .superRefine((s, ctx) => {
    if (s.SVC_API_KEY !== undefined && s.SVC_BASE_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SVC_BASE_URL'],
        message:
          'is required when SVC_API_KEY is set (the upstream base address, e.g. https://api.example.com)',
      });
    }
  });

export interface Config {
  /** Unset: the embedded sandbox serves the data. */
  apiKey?: string;
  baseUrl?: string;
  keyHeader: string;
  plan?: (typeof PLANS)[number];
  toolsets: Toolset[];
  timeoutMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Read the settings from an environment (process.env by default). Throws ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = settingsSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`${String(issue.path[0] ?? 'A setting')} ${issue.message}.`);
  }
  const s = result.data;
  return {
    apiKey: s.SVC_API_KEY,
    baseUrl: s.SVC_BASE_URL?.replace(/\/+$/, ''),
    keyHeader: s.SVC_API_KEY_HEADER,
    plan: s.SVC_PLAN,
    toolsets: s.SVC_TOOLSETS,
    timeoutMs: s.SVC_TIMEOUT_MS,
  };
}

/** Each setting, for the README's settings table and the bundle manifest's user_config. */
export interface SettingDoc {
  env: string;
  /** The manifest's user_config key. */
  key: string;
  title: string;
  meaning: string;
  /** The default as a person reads it. */
  shown: string;
  /** The default a desktop host may pre-fill, when there is one. */
  default?: string | number;
  sensitive?: boolean;
}

export const SETTINGS_DOC: readonly SettingDoc[] = [
  {
    env: 'SVC_API_KEY',
    key: 'api_key',
    title: 'API key',
    meaning: 'API key for the upstream service; leave empty to use the built-in sandbox',
    shown: 'unset: embedded sandbox',
    sensitive: true,
  },
  {
    env: 'SVC_BASE_URL',
    key: 'base_url',
    title: 'Service base URL',
    meaning: 'upstream base address',
    shown: 'required when SVC_API_KEY is set',
  },
  {
    env: 'SVC_API_KEY_HEADER',
    key: 'api_key_header',
    title: 'API key header',
    meaning: 'name of the key header',
    shown: DEFAULT_KEY_HEADER,
    default: DEFAULT_KEY_HEADER,
  },
  {
    env: 'SVC_PLAN',
    key: 'plan',
    title: 'Plan',
    meaning: `the key's plan (${PLANS.join(', ')}): hides tools it lacks`,
    shown: 'unset: show all',
  },
  {
    env: 'SVC_TOOLSETS',
    key: 'toolsets',
    title: 'Toolsets',
    meaning: `groups of tools to expose: a comma list of ${Object.keys(TOOLSETS).join(', ')}; or all, default`,
    shown: 'default',
    default: 'default',
  },
  {
    env: 'SVC_TIMEOUT_MS',
    key: 'timeout_ms',
    title: 'Timeout (ms)',
    meaning: 'timeout per upstream request, in milliseconds (100 to 120000)',
    shown: '10000',
    default: 10000,
  },
];
