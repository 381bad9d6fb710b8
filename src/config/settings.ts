/**
 * Every setting, as one table: each entry gives the variable, its zod schema, how docs/settings.md
 * and the bundle manifest describe it, and the Config property it becomes (config/index.ts reads it).
 * The kinds of value a setting takes are in values.ts.
 */

import { z } from 'zod';
import { CREDIT_WINDOWS } from '../kit/credits.js';
import { DEFAULT_KEY_HEADER } from '../kit/key-header.js';
import { PLANS } from '../kit/plans.js';
import { TOOLSET_CHOICES } from '../kit/toolsets.js';
import { ISO_INSTANT_RULE } from '../messages.js';
import { defaultStateDir } from '../state-dir.js';
import { TIMEOUT_MS } from '../time-bounds.js';
import { SIGN_IN_SETTINGS } from './sign-in-settings.js';
import {
  commaList,
  lowerCase,
  oneOf,
  optionalText,
  parseToolsets,
  setting,
  unsetIfBlank,
  wholeNumber,
} from './values.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** Characters of text, and of structured data, one answer carries (SVC_MAX_ANSWER_CHARS). */
export const ANSWER_CHARS = { default: 100_000, min: 10_000, max: 400_000 } as const;
/** Characters of rows one text answer shows (SVC_TEXT_PAGE_CHARS), within SVC_MAX_ANSWER_CHARS. */
export const TEXT_PAGE_CHARS = { default: 20_000, min: 2_000, max: 400_000 } as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const SETTINGS = {
  apiKey: setting({
    env: 'SVC_API_KEY',
    key: 'api_key',
    title: 'API key',
    meaning: 'API key for the upstream service; leave empty to use the built-in sandbox',
    whenUnset: 'unset: embedded sandbox',
    sensitive: true,
    // The key travels in a header: a control character or a space inside it could never be sent.
    schema: () =>
      optionalText(
        z.string().regex(/^[\x21-\x7e]+$/, {
          message: 'must be printable ASCII with no spaces (it is sent in a header)',
        }),
      ),
  }),
  baseUrl: setting({
    env: 'SVC_BASE_URL',
    key: 'base_url',
    title: 'Service base URL',
    meaning: 'upstream base address',
    whenUnset: 'required when SVC_API_KEY is set',
    schema: () =>
      optionalText(
        z
          .url({
            protocol: /^https?$/,
            message: 'must be an http or https URL, e.g. https://api.example.com',
          })
          .transform((url) => url.replace(/\/+$/, '')),
      ),
  }),
  keyHeader: setting({
    env: 'SVC_API_KEY_HEADER',
    key: 'api_key_header',
    title: 'API key header',
    meaning: 'name of the key header',
    schema: () =>
      z.preprocess(
        unsetIfBlank,
        z
          .string()
          .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, { message: 'must be a valid HTTP header name' })
          .default(DEFAULT_KEY_HEADER),
      ),
  }),
  plan: setting({
    env: 'SVC_PLAN',
    key: 'plan',
    title: 'Plan',
    meaning: `the key's plan (${PLANS.join(', ')}): hides tools it lacks, and refuses (free) a history reaching past its depth`,
    whenUnset: 'unset: show all',
    schema: () => z.preprocess(lowerCase, oneOf(PLANS).optional()),
  }),
  toolsets: setting({
    env: 'SVC_TOOLSETS',
    key: 'toolsets',
    title: 'Toolsets',
    meaning: `groups of tools to expose: a comma list of ${TOOLSET_CHOICES.join(', ')}`,
    schema: () => z.preprocess(unsetIfBlank, z.string().default('default')).transform(parseToolsets),
  }),
  creditBudget: setting({
    env: 'SVC_CREDIT_BUDGET',
    key: 'credit_budget',
    title: 'Credit budget',
    meaning: 'credits allowed per window; a call whose estimate does not fit is refused before it is sent',
    whenUnset: 'unset: no budget',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(0, 1e12, 'credits').optional()),
  }),
  userCreditBudget: setting({
    env: 'SVC_USER_CREDIT_BUDGET',
    key: 'user_credit_budget',
    title: 'Credit budget per person',
    meaning:
      "with sign-in: each person's credits per window, inside SVC_CREDIT_BUDGET; a call must fit both. With SVC_SIGN_IN=own-key, the most a person may choose on the key page, in SVC_CREDIT_WINDOW",
    whenUnset: 'unset: none',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(0, 1e12, 'credits').optional()),
  }),
  creditWindow: setting({
    env: 'SVC_CREDIT_WINDOW',
    key: 'credit_window',
    title: 'Credit window',
    meaning: 'the budget window: day or month (each rolls at 00:00 UTC) or total (never rolls)',
    schema: () => z.preprocess(lowerCase, oneOf(CREDIT_WINDOWS).default('day')),
  }),
  maxCreditsPerCall: setting({
    env: 'SVC_MAX_CREDITS_PER_CALL',
    key: 'max_credits_per_call',
    title: 'Most credits per call',
    meaning: 'refuse any single call estimated above this many credits',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(0, 1e9, 'credits').default(25)),
  }),
  confirmCredits: setting({
    env: 'SVC_CONFIRM_CREDITS',
    key: 'confirm_credits',
    title: 'Confirm from (credits)',
    // Ten credits is ten ordinary calls in one (a 2,000-row listing, a long history): rare in a
    // conversation, worth one click from the person paying; 0 never asks.
    meaning:
      'a call estimated at this many credits or more asks the user first (elicitation), where the client can; 0: never ask',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(0, 1e9, 'credits').default(10)),
  }),
  stateDir: setting({
    env: 'SVC_STATE_DIR',
    key: 'state_dir',
    title: 'State directory',
    meaning:
      'where the credit ledger persists (ledger.sqlite; ledger.json where no SQLite loads); with SVC_REDIS_URL, the ledger marker this replica saw (redis-marker-*.json)',
    whenUnset:
      "the user's state directory (~/.local/state/svc-mcp, ~/Library/Application Support/svc-mcp, %LOCALAPPDATA%\\svc-mcp)",
    schema: () =>
      optionalText(z.string().max(4096, 'must be a path of at most 4096 characters')).transform(
        (dir) => dir ?? defaultStateDir(),
      ),
  }),
  cache: setting({
    env: 'SVC_CACHE',
    key: 'cache',
    title: 'Cache',
    meaning: "on or off: keep answers for each endpoint's refresh frequency",
    schema: () => z.preprocess(lowerCase, oneOf(['on', 'off']).default('on')).transform((v) => v === 'on'),
  }),
  resultsMaxMb: setting({
    env: 'SVC_RESULTS_MAX_MB',
    key: 'results_max_mb',
    title: 'Kept results (MB)',
    // Dozens of large pulls, each with its free pages and table; on Redis, memory of its own.
    meaning:
      "the most the kept results (each answer's whole, for its free pages and its table) take together, in MB (128 to 65536), in files under the state directory or on Redis; the least recently used go first, and results of free calls (a query's rows) go before those paid for, within a quarter of it",
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(128, 65_536, 'MB').default(256)),
  }),
  maxAnswerChars: setting({
    env: 'SVC_MAX_ANSWER_CHARS',
    key: 'max_answer_chars',
    title: 'Most characters an answer',
    // What hosts take as a tool's output: Claude Code refuses past 25,000 tokens by default, others
    // cut or choke on more. The most keeps both copies of the data (structured and as JSON text)
    // within the 1 MiB line the SDK's stdio client reads.
    meaning: `the most characters of text, and of structured data, one answer carries (${ANSWER_CHARS.min} to ${ANSWER_CHARS.max}); a longer list or history is a page with the next page's arguments, or is cut, saying so`,
    schema: () =>
      z.preprocess(
        unsetIfBlank,
        wholeNumber(ANSWER_CHARS.min, ANSWER_CHARS.max, 'characters').default(ANSWER_CHARS.default),
      ),
  }),
  textPageChars: setting({
    env: 'SVC_TEXT_PAGE_CHARS',
    key: 'text_page_chars',
    title: 'Most characters a text page',
    // A model reads the text: 200 listed assets or 60 daily candles make one page, and a text page
    // stays a small share of a context window.
    meaning: `the most characters of rows one text answer shows (${TEXT_PAGE_CHARS.min} to ${TEXT_PAGE_CHARS.max}, and at most SVC_MAX_ANSWER_CHARS): every row a page covers is shown, and next continues after the last`,
    schema: () =>
      z.preprocess(
        unsetIfBlank,
        wholeNumber(TEXT_PAGE_CHARS.min, TEXT_PAGE_CHARS.max, 'characters').default(TEXT_PAGE_CHARS.default),
      ),
  }),
  queryTimeoutMs: setting({
    env: 'SVC_QUERY_TIMEOUT_MS',
    key: 'query_timeout_ms',
    title: 'Query time (ms)',
    meaning:
      'how long one query_data query over kept tables may run once it has its turn, in milliseconds (100 to 60000); past it the query is stopped and says so (a query waits for its turn behind others at most six times this, then is answered busy)',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(100, 60_000, 'milliseconds').default(5_000)),
  }),
  queryMemoryMb: setting({
    env: 'SVC_QUERY_MEMORY_MB',
    key: 'query_memory_mb',
    title: 'Query memory (MB)',
    // Enough for the tables of a few large pulls and a GROUP BY over them; the query engine's
    // thread holds it at most, and gives it back when idle.
    meaning:
      "the most memory the query engine's SQLite may use, in MB (16 to 4096): the kept tables it holds (the least recently used are dropped first) and a query's own; a query past it is stopped and says so",
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(16, 4_096, 'MB').default(256)),
  }),
  scriptTimeoutMs: setting({
    env: 'SVC_SCRIPT_TIMEOUT_MS',
    key: 'script_timeout_ms',
    title: 'Script time (ms)',
    meaning:
      'how long one run_script script may run, its calls included, in milliseconds (1000 to 300000); past it the script is stopped and says so',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(1_000, 300_000, 'milliseconds').default(30_000)),
  }),
  scriptMemoryMb: setting({
    env: 'SVC_SCRIPT_MEMORY_MB',
    key: 'script_memory_mb',
    title: 'Script memory (MB)',
    meaning:
      "the most memory one run_script script's JavaScript may use, in MB (8 to 1024): what it holds of its calls' data included; past it the script is stopped and says so",
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(8, 1_024, 'MB').default(64)),
  }),
  staleMaxSeconds: setting({
    env: 'SVC_STALE_MAX_SECONDS',
    key: 'stale_max_seconds',
    title: 'Stale answers (s)',
    // An hour rides out most outages of the service while the data still says something; the
    // answer says how old it is, and 0 turns it off.
    meaning:
      'when the service fails (5xx, 429, timeout, network), answer with a cached answer this many seconds past its freshness at most, saying how old it is (0 to 86400; 0: never)',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(0, 86_400, 'seconds').default(3_600)),
  }),
  timeoutMs: setting({
    env: 'SVC_TIMEOUT_MS',
    key: 'timeout_ms',
    title: 'Timeout (ms)',
    meaning: `timeout per upstream request, in milliseconds (${TIMEOUT_MS.min} to ${TIMEOUT_MS.max}); a call's other waits derive from it`,
    schema: () =>
      z.preprocess(
        unsetIfBlank,
        wholeNumber(TIMEOUT_MS.min, TIMEOUT_MS.max, 'milliseconds').default(TIMEOUT_MS.default),
      ),
  }),
  redisUrl: setting({
    env: 'SVC_REDIS_URL',
    key: 'redis_url',
    title: 'Redis URL',
    meaning:
      'Redis for the credit ledger and the cache, shared by every replica (redis://[:password@]host:port[/db], or rediss:// for TLS)',
    whenUnset: 'unset: in-process cache, the ledger in SVC_STATE_DIR',
    // It may carry a password.
    sensitive: true,
    schema: () =>
      optionalText(
        z.url({
          protocol: /^rediss?$/,
          message: 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379',
        }),
      ),
  }),
  redisPrefix: setting({
    env: 'SVC_REDIS_PREFIX',
    key: 'redis_prefix',
    title: 'Redis key prefix',
    meaning: 'prefix of every Redis key, so that several deployments can share one Redis',
    schema: () =>
      z.preprocess(
        unsetIfBlank,
        z
          .string()
          .regex(/^[A-Za-z0-9._:-]{1,64}$/, {
            message: 'must be 1 to 64 letters, digits or . _ : -',
          })
          .default('svc-mcp'),
      ),
  }),
  logLevel: setting({
    env: 'SVC_LOG_LEVEL',
    key: 'log_level',
    title: 'Log level',
    meaning:
      'JSON log lines on stderr at this level or above: debug (also each upstream request), info (one line per tool call), warn, error or silent',
    whenUnset: 'unset: info for http, warn otherwise (stdio hosts show stderr to people)',
    schema: () => z.preprocess(lowerCase, oneOf(LOG_LEVELS).optional()),
  }),
  httpToken: setting({
    env: 'SVC_HTTP_TOKEN',
    key: 'http_token',
    title: 'HTTP bearer token',
    meaning:
      'bearer token every HTTP request to /mcp and /metrics must carry (checked in constant time); required to listen beyond loopback',
    whenUnset: 'unset: none (loopback only)',
    sensitive: true,
    schema: () =>
      optionalText(
        z.string().regex(/^[\x21-\x7e]{16,512}$/, {
          message:
            'must be 16 to 512 printable ASCII characters with no spaces (for example the output of `openssl rand -hex 32`)',
        }),
      ),
  }),
  metricsToken: setting({
    env: 'SVC_METRICS_TOKEN',
    key: 'metrics_token',
    title: 'Operator token (metrics)',
    meaning:
      "the operator's bearer token for /metrics and /readyz's details (checked in constant time); with sign-in (SVC_OAUTH_ISSUER or SVC_SIGN_IN), the only way to them: a person's token never opens them",
    whenUnset: 'unset: as /mcp without sign-in (SVC_HTTP_TOKEN, or none on loopback); closed with sign-in',
    sensitive: true,
    schema: () =>
      optionalText(
        z.string().regex(/^[\x21-\x7e]{16,512}$/, {
          message:
            'must be 16 to 512 printable ASCII characters with no spaces (for example the output of `openssl rand -hex 32`)',
        }),
      ),
  }),
  ...SIGN_IN_SETTINGS,
  httpAllowedOrigins: setting({
    env: 'SVC_HTTP_ALLOWED_ORIGINS',
    key: 'http_allowed_origins',
    title: 'Allowed browser origins',
    meaning:
      'origins (comma list, like https://app.example.com) whose browser pages may call the HTTP transport, beyond loopback ones',
    whenUnset: 'unset: loopback origins only',
    schema: () =>
      commaList(
        z
          .url({ protocol: /^https?$/, message: 'must list origins like https://app.example.com' })
          .refine(
            (text) => {
              const url = new URL(text);
              return url.pathname === '/' && !url.search && !url.hash && !url.username;
            },
            {
              message: 'must list bare origins (scheme, host and port only, like https://app.example.com)',
            },
          )
          .transform((url) => new URL(url).origin),
      ),
  }),
  httpAllowedHosts: setting({
    env: 'SVC_HTTP_ALLOWED_HOSTS',
    key: 'http_allowed_hosts',
    title: 'Allowed Host names',
    meaning:
      'names (comma list, like mcp.example.com) clients may reach the HTTP transport by, beyond loopback ones and the --host address',
    whenUnset: 'unset: loopback names and the --host address',
    schema: () =>
      commaList(
        z
          .string()
          .regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i, {
            message: 'must list host names or addresses without scheme or port, like mcp.example.com',
          })
          .transform((host) => host.toLowerCase()),
      ),
  }),
  httpMaxRequests: setting({
    env: 'SVC_HTTP_MAX_REQUESTS',
    key: 'http_max_requests',
    title: 'Most HTTP requests at once',
    meaning:
      'MCP messages the HTTP transport serves at once (each message of a batch counts); past it a request gets 503 with Retry-After',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(1, 10_000, 'requests').default(64)),
  }),
  httpMaxConnectionsPerAddress: setting({
    env: 'SVC_HTTP_MAX_CONNECTIONS_PER_ADDRESS',
    key: 'http_max_connections_per_address',
    title: 'Most HTTP connections from one address',
    meaning:
      "connections the HTTP transport holds open at once from one client address (of 1,024 in all), so that no one peer takes every slot; past it a new connection is closed at once. Behind a proxy, every client comes from the proxy's address: raise it there",
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(1, 1_024, 'connections').default(256)),
  }),
  httpRequestTimeoutMs: setting({
    env: 'SVC_HTTP_REQUEST_TIMEOUT_MS',
    key: 'http_request_timeout_ms',
    title: 'HTTP request timeout (ms)',
    meaning:
      'longest an HTTP request may take, from its first byte to the end of the answer, in milliseconds (1000 to 600000); past it the call is cancelled and the request answered 504',
    schema: () => z.preprocess(unsetIfBlank, wholeNumber(1000, 600_000, 'milliseconds').default(60_000)),
  }),
  now: setting({
    env: 'SVC_NOW',
    key: 'now',
    title: 'Frozen clock',
    meaning:
      "freezes the server's clock (the credit windows) and the embedded sandbox's at this ISO 8601 instant, for tests and reproducible demos",
    whenUnset: 'unset: real time',
    schema: () =>
      optionalText(z.string().refine((v) => !Number.isNaN(Date.parse(v)), ISO_INSTANT_RULE)).transform((v) =>
        v === undefined ? undefined : new Date(v),
      ),
  }),
} as const;
