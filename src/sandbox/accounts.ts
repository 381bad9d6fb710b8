/**
 * Keys, plans and metering: the per-minute request limit, credits charged per UTC day and month,
 * and the monthly allowance. Figures from docs/service.md, "Plans".
 */

import { ApiError } from './envelope.js';
import { iso, monthsBefore } from './market/time.js';
import {
  DEEPER_PLANS,
  describeDepth,
  HISTORY_MONTHS,
  PLANS,
  type Plan,
  planTitle,
  REQUESTS_PER_MINUTE,
} from './service/plans.js';
import { readUsage, writeUsage } from './usage-file.js';

/** The sandbox's demo keys, one per plan: `sandbox-<plan>`. */
export const PLAN_OF_KEY: ReadonlyMap<string, Plan> = new Map(PLANS.map((plan) => [`sandbox-${plan}`, plan]));

export const SANDBOX_KEYS: readonly string[] = [...PLAN_OF_KEY.keys()];

/** Enterprise allowances are "by contract": the sandbox's contract is generous. */
const MONTHLY_CREDITS: Readonly<Record<Plan, number>> = {
  basic: 10_000,
  hobbyist: 40_000,
  startup: 120_000,
  standard: 500_000,
  professional: 2_000_000,
  enterprise: 100_000_000,
};

/**
 * 403 (1006) when a request reaches back to `reach`, further than the plan's history; Enterprise
 * has all the data there is. `what` names the history, `advice` says how to ask for less.
 */
export function checkDepth(
  plan: Plan,
  now: number,
  reach: number,
  text: { what: string; advice: string },
): void {
  if (plan === 'enterprise') return;
  const months = HISTORY_MONTHS[plan];
  const limit = monthsBefore(now, months);
  if (reach >= limit) return;
  throw new ApiError(
    403,
    1006,
    `Your plan (${planTitle(plan)}) includes ${describeDepth(months)} of ${text.what}, back to ${iso(limit)}; this request reaches back to ${iso(reach)}. ${text.advice}, or a plan with more history: ${DEEPER_PLANS}.`,
  );
}

interface Usage {
  minute: number;
  requests: number;
  day: number;
  dayCredits: number;
  month: number;
  monthCredits: number;
}

/** Windows of the ledger at one instant: the minute is the rate-limit window, day and month UTC. */
export interface Windows {
  minute: number;
  day: number;
  month: number;
}

export interface LedgerOptions {
  rateLimit: boolean;
  monthlyCredits?: Partial<Record<Plan, number>>;
  /** Where the usage is kept across restarts (usage-file.ts); in memory only when unset. */
  usageFile?: string;
}

/**
 * How often, at most, the usage file is read and written: a busy sandbox reads and replaces it a
 * few times a second rather than at every request, on the server's thread. Other processes see a
 * charge this much later at most, and this one sees theirs as late; closing the sandbox or the
 * process ending writes what waits.
 */
export const USAGE_SYNC_MS = 100;

/** A charge made in this process and not yet in the usage file. */
interface PendingCharge {
  key: string;
  w: Windows;
  credits: number;
}

export class Ledger {
  private usage = new Map<string, Usage>();
  private readonly monthly: Record<Plan, number>;
  /** Charges since the file was last written, in order: added again to what the file holds. */
  private pending: PendingCharge[] = [];
  private writeTimer: NodeJS.Timeout | undefined;
  private readonly writeNow = () => this.flush();
  /** When the file was last read (performance.now()). */
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: LedgerOptions) {
    this.monthly = { ...MONTHLY_CREDITS, ...options.monthlyCredits };
    if (options.usageFile) this.mergeFile(options.usageFile);
  }

  monthlyLimit(plan: Plan): number {
    return this.monthly[plan];
  }

  private current(key: string, w: Windows): Usage {
    let u = this.usage.get(key);
    if (!u) {
      u = { minute: w.minute, requests: 0, day: w.day, dayCredits: 0, month: w.month, monthCredits: 0 };
      this.usage.set(key, u);
    }
    if (u.minute !== w.minute) {
      u.minute = w.minute;
      u.requests = 0;
    }
    if (u.day !== w.day) {
      u.day = w.day;
      u.dayCredits = 0;
    }
    if (u.month !== w.month) {
      u.month = w.month;
      u.monthCredits = 0;
    }
    return u;
  }

  /** Counts one request against the minute limit; throws 429 (1008) once the minute is used up. */
  admit(key: string, plan: Plan, w: Windows, secondsToNextMinute: number): void {
    // Other processes' charges, from the file read at most USAGE_SYNC_MS ago: what this request
    // is checked and answered with.
    const file = this.options.usageFile;
    if (file && performance.now() - this.readAt >= USAGE_SYNC_MS) this.mergeFile(file);
    const u = this.current(key, w);
    if (this.options.rateLimit && u.requests >= REQUESTS_PER_MINUTE[plan]) {
      throw new ApiError(
        429,
        1008,
        `You've exceeded your API Key's HTTP request rate limit of ${REQUESTS_PER_MINUTE[plan]} requests per minute (${planTitle(plan)} plan).`,
        { 'retry-after': String(secondsToNextMinute) },
      );
    }
    u.requests++;
  }

  /** Throws 429 (1010) when this month's credits are spent. */
  checkCredits(key: string, plan: Plan, w: Windows): void {
    const u = this.current(key, w);
    if (u.monthCredits >= this.monthly[plan]) {
      throw new ApiError(
        429,
        1010,
        `You've exhausted your API Key's monthly credit limit of ${this.monthly[plan]} credits (${planTitle(plan)} plan). It resets at 00:00 UTC on the first of next month.`,
      );
    }
  }

  charge(key: string, w: Windows, credits: number): void {
    this.add({ key, w, credits });
    if (!this.options.usageFile) return;
    this.pending.push({ key, w, credits });
    if (this.writeTimer === undefined) {
      this.writeTimer = setTimeout(this.writeNow, USAGE_SYNC_MS).unref();
      process.once('exit', this.writeNow);
    }
  }

  /** Writes the charges that wait to the usage file now (the sandbox closing, the process ending). */
  flush(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    process.off('exit', this.writeNow);
    const file = this.options.usageFile;
    if (!file || this.pending.length === 0) return;
    this.mergeFile(file);
    writeUsage(file, this.usage);
    this.pending = [];
  }

  private add({ key, w, credits }: PendingCharge): void {
    const u = this.current(key, w);
    u.dayCredits += credits;
    u.monthCredits += credits;
  }

  /**
   * The file's credits (other processes' charges with this one's written so far), this process's
   * charges not yet written added to them, and this process's request counts of the minute kept.
   */
  private mergeFile(file: string): void {
    const kept = this.usage;
    this.usage = readUsage(file);
    this.readAt = performance.now();
    for (const charge of this.pending) this.add(charge);
    for (const [key, u] of kept) {
      const saved = this.usage.get(key);
      if (saved === undefined) this.usage.set(key, u);
      else if (saved.minute === u.minute) saved.requests = Math.max(saved.requests, u.requests);
    }
  }

  snapshot(key: string, plan: Plan, w: Windows) {
    const u = this.current(key, w);
    const perMinute = REQUESTS_PER_MINUTE[plan];
    const monthLeft = Math.max(0, this.monthly[plan] - u.monthCredits);
    return {
      requestsMade: u.requests,
      requestsLeft: Math.max(0, perMinute - u.requests),
      dayCredits: u.dayCredits,
      monthCredits: u.monthCredits,
      monthLeft,
    };
  }
}
