/**
 * Prometheus metrics (prom-client, a registry of our own): tool calls by tool and outcome,
 * refusals by reason, cache hits, joins and misses, credits spent, the budget window's figures from
 * the shared ledger by account and by signed-in person, upstream latency, calls in flight, and
 * Node's process metrics. Every label comes from a bounded set: the inventory's tool names, outcomes, refusal reasons, and the hashes of at
 * most MAX_LABELS recently seen accounts and signed-in people.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CreditUsageFigures } from '../kit/usage-figures.js';
import { CALL_OUTCOMES, type CallObserver, REFUSAL_REASONS } from './events.js';

/** Accounts, and people, whose window figures are reported (the most recently seen). */
const MAX_LABELS = 100;

export interface Metrics {
  /** The Content-Type of `render()`'s text. */
  contentType: string;
  /** Every metric in the Prometheus text format. */
  render(): Promise<string>;
  /** Counts what the pipeline reports. */
  observer: CallObserver;
}

/** The credit guard's figures, read when /metrics is scraped. */
export interface WindowUsage {
  account(account: string): Promise<CreditUsageFigures>;
  person(person: string): Promise<{ spent: number; left: number | null } | undefined>;
}

interface WindowGauge {
  name: string;
  help: string;
  label: 'account' | 'person';
  seen: RecentlySeen;
  read(label: string): Promise<{ spent: number; left: number | null } | undefined>;
  figure: 'spent' | 'left';
}

/** The labels most recently seen, at most MAX_LABELS of them: what the window gauges report. */
class RecentlySeen {
  private readonly seen = new Set<string>();

  saw(label: string): void {
    this.seen.delete(label);
    this.seen.add(label);
    if (this.seen.size > MAX_LABELS) this.seen.delete(this.seen.values().next().value as string);
  }

  all(): string[] {
    return [...this.seen];
  }
}

export function createMetrics(usage: WindowUsage): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const { calls, refusals, hits, joins, misses, spent, inFlight, upstream } = callMetrics(registers);
  const { accounts, people } = windowGauges(registers, usage);
  const observer: CallObserver = {
    start() {
      inFlight.inc();
    },
    call(event) {
      inFlight.dec();
      calls.inc({ tool: event.tool, outcome: event.outcome });
      if (event.outcome === 'refused') refusals.inc({ reason: event.reason ?? 'unknown' });
      if (event.account !== undefined) accounts.saw(event.account);
      if (event.person !== undefined) people.saw(event.person);
      if (event.via === 'cache') hits.inc({ tool: event.tool });
      else if (event.via === 'joined') joins.inc({ tool: event.tool });
      else if (event.via === 'upstream') misses.inc({ tool: event.tool });
    },
    charge(event) {
      if (event.credits > 0) spent.inc({ tool: event.tool }, event.credits);
    },
    upstream(event) {
      upstream.observe({ tool: event.tool, outcome: event.ok ? 'ok' : 'error' }, event.durationMs / 1000);
    },
  };
  return { contentType: registry.contentType, render: () => registry.metrics(), observer };
}

/** What the pipeline's events count: calls, refusals, the cache, credits, requests to the service. */
function callMetrics(registers: Registry[]) {
  const calls = new Counter({
    name: 'svc_mcp_tool_calls_total',
    help: `Tool calls answered, by tool and outcome (${CALL_OUTCOMES.join(', ')})`,
    labelNames: ['tool', 'outcome'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'svc_mcp_refusals_total',
    help: `Calls refused before anything was sent, by reason (${REFUSAL_REASONS.join(', ')})`,
    labelNames: ['reason'] as const,
    registers,
  });
  const hits = new Counter({
    name: 'svc_mcp_cache_hits_total',
    help: 'Calls answered from the cache',
    labelNames: ['tool'] as const,
    registers,
  });
  const joins = new Counter({
    name: 'svc_mcp_cache_joins_total',
    help: 'Calls answered by an identical call in flight (here or on another replica)',
    labelNames: ['tool'] as const,
    registers,
  });
  const misses = new Counter({
    name: 'svc_mcp_cache_misses_total',
    help: 'Calls answered by a request to the service',
    labelNames: ['tool'] as const,
    registers,
  });
  const spent = new Counter({
    name: 'svc_mcp_credits_spent_total',
    help: 'Credits this process spent, by tool',
    labelNames: ['tool'] as const,
    registers,
  });
  const inFlight = new Gauge({
    name: 'svc_mcp_tool_calls_in_flight',
    help: 'Tool calls being answered now',
    registers,
  });
  const upstream = new Histogram({
    name: 'svc_mcp_upstream_request_duration_seconds',
    help: 'Requests to the service, retries included, by tool and outcome (ok, error)',
    labelNames: ['tool', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  return { calls, refusals, hits, joins, misses, spent, inFlight, upstream };
}

/** The budget window's figures by account and by person, read from the ledger when scraped. */
function windowGauges(registers: Registry[], usage: WindowUsage) {
  const accounts = new RecentlySeen();
  const people = new RecentlySeen();
  const accountFigures = async (account: string) => {
    const own = await usage.account(account);
    return own.problem === undefined ? own : undefined;
  };
  /** A gauge of one window figure for each label seen lately, read from the ledger when scraped. */
  const windowGauge = ({ name, help, label, seen, read, figure }: WindowGauge) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers,
      async collect() {
        this.reset();
        for (const value of seen.all()) {
          const f = await read(value);
          if (f && f[figure] !== null) this.set({ [label]: value }, f[figure]);
        }
      },
    });
  windowGauge({
    name: 'svc_mcp_window_credits_spent',
    help: 'Credits spent in the budget window by every replica, from the shared ledger, by account (a hash of its key)',
    label: 'account',
    seen: accounts,
    read: accountFigures,
    figure: 'spent',
  });
  windowGauge({
    name: 'svc_mcp_window_credits_left',
    help: 'Credits left in the budget window (budget less spent and held), by account; only with a budget',
    label: 'account',
    seen: accounts,
    read: accountFigures,
    figure: 'left',
  });
  windowGauge({
    name: 'svc_mcp_person_window_credits_spent',
    help: "With sign-in: credits a person spent in the budget window, from the shared ledger, by person (a hash of the token's subject)",
    label: 'person',
    seen: people,
    read: usage.person,
    figure: 'spent',
  });
  windowGauge({
    name: 'svc_mcp_person_window_credits_left',
    help: "With sign-in: credits left of a person's own budget in the window; only with SVC_USER_CREDIT_BUDGET",
    label: 'person',
    seen: people,
    read: usage.person,
    figure: 'left',
  });
  return { accounts, people };
}
