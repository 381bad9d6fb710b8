/**
 * Faults on demand, for testing clients against a misbehaving service. Never on by default: rules
 * come only from startSandbox's options, `sandbox.faults.add`, or an explicit `--fault` flag. A
 * rule applies to the next `count` requests to its path, then expires.
 */

export const FAULT_KINDS = ['500', '429', 'delay', 'truncate', 'reset'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Exact request path, e.g. "/v3/fear-and-greed/latest"; omitted: any path. */
  path?: string;
  /**
   * `500` answers a server error; `429` a rate-limit refusal with a Retry-After header; `delay`
   * waits `ms` then answers normally; `truncate` answers 200 with the body cut in the middle
   * (consistent framing, broken JSON); `reset` destroys the connection without answering.
   */
  kind: FaultKind;
  /** How many requests the rule applies to; default 1. */
  count?: number;
  /** Seconds for the Retry-After header of a 429; default 1. */
  retryAfter?: number;
  /** Milliseconds for a delay; default 1000. */
  ms?: number;
}

/** A fault rule from flag text: `path=/v3/fear-and-greed/latest,kind=500,count=2`. */
export function parseFaultSpec(text: string): FaultRule {
  const fields = new Map<string, string>();
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`Fault "${text}": expected key=value pairs separated by commas`);
    fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const kind = fields.get('kind');
  if (!kind || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new Error(`Fault "${text}": kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const rule: FaultRule = { kind: kind as FaultKind };
  for (const [key, value] of fields) {
    if (key === 'kind') continue;
    if (key === 'path') {
      if (!value.startsWith('/')) throw new Error(`Fault "${text}": path must start with /`);
      rule.path = value;
      continue;
    }
    const name = key === 'retry_after' || key === 'retry-after' ? 'retryAfter' : key;
    if (name !== 'count' && name !== 'retryAfter' && name !== 'ms') {
      throw new Error(`Fault "${text}": unknown key "${key}"; keys are path, kind, count, retryAfter, ms`);
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < (name === 'count' ? 1 : 0)) {
      throw new Error(
        `Fault "${text}": ${key} must be a whole number${name === 'count' ? ' of at least 1' : ''}`,
      );
    }
    rule[name] = n;
  }
  return rule;
}

/** The rules in force; `take` finds the first matching rule and uses up one of its requests. */
export class FaultPlan {
  private rules: { rule: FaultRule; left: number }[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    for (const rule of rules) this.add(rule);
  }

  add(rule: FaultRule): void {
    if (!(FAULT_KINDS as readonly string[]).includes(rule.kind))
      throw new Error(`Unknown fault kind "${rule.kind}"`);
    this.rules.push({ rule: { ...rule }, left: rule.count ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  take(path: string): FaultRule | undefined {
    if (this.rules.length === 0) return undefined;
    const index = this.rules.findIndex(({ rule }) => rule.path === undefined || rule.path === path);
    if (index < 0) return undefined;
    const entry = this.rules[index]!;
    entry.left--;
    if (entry.left <= 0) this.rules.splice(index, 1);
    return entry.rule;
  }
}
