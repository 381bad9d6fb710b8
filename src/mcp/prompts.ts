/**
 * Prompts that compose tools: plain data and a render function, whatever the transport or SDK.
 * A rendered prompt names only the tools the server exposes, and says which steps it had to leave
 * out, so a model never calls a tool that is not there.
 */
import { clip } from '../messages.js';

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptMessage {
  role: 'user';
  content: { type: 'text'; text: string };
}

/** One step of a prompt: the tool it calls and what for. */
interface Step {
  tool: string;
  does: (args: Readonly<Record<string, string>>) => string;
}

export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The task, before the steps. */
  task(args: Readonly<Record<string, string>>): string;
  steps: readonly Step[];
  /** After the steps: how to write the answer. */
  answer: string;
}

/** A prompt that cannot be rendered: an unknown name or a bad argument (the message says which). */
export class PromptError extends Error {}

const MAX_ARGUMENT = 100;

const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'market_brief',
    title: 'Crypto market brief',
    description: 'A short brief on the whole crypto market: size, mood, altcoin season, top movers.',
    arguments: [],
    task: () => 'Write a short brief on the crypto market right now.',
    steps: [
      { tool: 'get_global_metrics_latest', does: () => 'total market cap, 24h volume and BTC dominance' },
      { tool: 'get_fear_and_greed_latest', does: () => 'the market mood' },
      { tool: 'get_altcoin_season_index_latest', does: () => 'whether it is altcoin or bitcoin season' },
      {
        tool: 'get_gainers_losers',
        does: () => 'the top 5 gainers (limit=5) and, with sort_dir=asc, the top 5 losers over 24h',
      },
      {
        tool: 'analyze_assets',
        does: () => 'symbol=BTC, ETH, days=30: the month of the two largest, return, volatility and drawdown',
      },
    ],
    answer:
      'Answer in a few lines: the headline figures first, then the movers. Quote figures as the tools give them, without guessing any.',
  },
  {
    name: 'coin_report',
    title: 'Report on one coin',
    description: 'A report on one asset: what it is, its price and performance, and its risk and trend.',
    arguments: [
      { name: 'coin', description: 'A name, symbol or slug, e.g. "solana" or "SOL".', required: true },
    ],
    task: ({ coin }) => `Write a report on the cryptocurrency "${coin}".`,
    steps: [
      {
        tool: 'search_cryptocurrencies',
        does: ({ coin }) =>
          `query="${coin}": find its id; if several assets match (symbols are shared), ask which one is meant, listing their names and ids, and stop`,
      },
      {
        tool: 'get_cryptocurrency_quotes_latest',
        does: () => 'id=<the id>: price, changes, volume and market cap',
      },
      { tool: 'get_cryptocurrency_info', does: () => 'id=<the id>: what it is, its links and tags' },
      {
        tool: 'get_price_performance',
        does: () => 'id=<the id>, time_period=24h,7d,30d,all_time: how it has done, and its all-time high',
      },
      {
        tool: 'analyze_assets',
        does: () =>
          'id=<the id>, days=90: its return, volatility and drawdown over 90 days, where it stands against its SMA50 and RSI, and how it moves with BTC',
      },
    ],
    answer:
      'Answer with a short overview, then the figures. Quote them as the tools give them, with their dates, without guessing any.',
  },
];

/** The prompts as MCP lists them. */
export function listPrompts() {
  return PROMPTS.map(({ name, title, description, arguments: args }) => ({
    name,
    title,
    description,
    arguments: args,
  }));
}

/** Checks the arguments: the required ones present, each a short non-empty text. */
function checkArguments(spec: PromptSpec, args: Readonly<Record<string, string>>): Record<string, string> {
  const known = spec.arguments.map((a) => a.name);
  const unknown = Object.keys(args).find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new PromptError(
      `Prompt "${spec.name}" takes no argument "${clip(unknown, 40)}"; it takes: ${known.join(', ') || 'none'}.`,
    );
  }
  const out: Record<string, string> = {};
  for (const a of spec.arguments) {
    const value = args[a.name]?.trim() ?? '';
    if (value === '' && a.required)
      throw new PromptError(`Prompt "${spec.name}" needs "${a.name}": ${a.description}`);
    if (value.length > MAX_ARGUMENT) {
      throw new PromptError(
        `Argument "${a.name}" of prompt "${spec.name}" is longer than ${MAX_ARGUMENT} characters.`,
      );
    }
    out[a.name] = value;
  }
  return out;
}

/**
 * The prompt's messages, with the steps whose tools the server exposes (`tools`); the steps left
 * out are named, so the answer says what it could not cover.
 */
export function renderPrompt(
  name: string,
  args: Readonly<Record<string, string>>,
  tools: ReadonlySet<string>,
): { description: string; messages: PromptMessage[] } {
  const spec = PROMPTS.find((p) => p.name === name);
  if (!spec) {
    throw new PromptError(
      `Unknown prompt "${clip(name, 100)}". Available: ${PROMPTS.map((p) => p.name).join(', ')}.`,
    );
  }
  const checked = checkArguments(spec, args);
  const available = spec.steps.filter((s) => tools.has(s.tool));
  const missing = spec.steps.filter((s) => !tools.has(s.tool)).map((s) => s.tool);
  const text = [
    spec.task(checked),
    'Call these tools in order:',
    ...available.map((s, k) => `${k + 1}. ${s.tool}: ${s.does(checked)}.`),
    missing.length > 0 &&
      `Not available on this server: ${missing.join(', ')}; leave that part out and say so.`,
    spec.answer,
  ]
    .filter((line): line is string => typeof line === 'string')
    .join('\n');
  return { description: spec.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
