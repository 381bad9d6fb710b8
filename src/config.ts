/**
 * Every setting, read from SVC_* environment variables (flags may override a few), parsed by one
 * zod schema so that a bad value stops start-up with a message naming the variable.
 */
import { z } from 'zod';
import { DEFAULT_TOOLSETS, PLANS, TOOLSETS, type Toolset } from './catalog/define.js';

export const DEFAULT_KEY_HEADER = 'X-SVC_PRO_API_KEY';

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
      message: `unknown toolset "${unknown[0]}"; allowed: ${Object.keys(TOOLSETS).join(', ')}, all, default`,
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
    SVC_API_KEY: text(),
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
    throw new ConfigError(`Setting ${String(issue.path[0] ?? 'SVC_TOOLSETS')} ${issue.message}.`);
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

/** The settings table for the README: name, meaning, default. */
export const SETTINGS_DOC: readonly [string, string, string][] = [
  ['SVC_API_KEY', 'API key for the upstream service', 'unset: embedded sandbox'],
  ['SVC_BASE_URL', 'upstream base address', 'required when SVC_API_KEY is set'],
  ['SVC_API_KEY_HEADER', 'name of the key header', DEFAULT_KEY_HEADER],
  ['SVC_PLAN', `the key's plan (${PLANS.join(', ')}): hides tools it lacks`, 'unset: show all'],
  [
    'SVC_TOOLSETS',
    `groups of tools to expose: comma list of ${Object.keys(TOOLSETS).join(', ')}; or all, default`,
    'default',
  ],
  ['SVC_TIMEOUT_MS', 'timeout per upstream request, in milliseconds (100 to 120000)', '10000'],
];
