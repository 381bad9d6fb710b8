/** What a route is: its path, its parameter schema and plans, and a handler over validated params. */
import type { z } from 'zod';
import type { CreditRule } from '../../catalog/credits.js';
import type { Plan } from '../../catalog/define.js';
import type { Ledger, Windows } from '../accounts.js';
import type { EnvelopeKind } from '../envelope.js';

export interface RouteContext {
  /** Parameters, already checked and defaulted by the route's schema. */
  params: Record<string, unknown>;
  /** The clock's now, whole Unix seconds. */
  now: number;
  plan: Plan;
  key: string;
  ledger: Ledger;
  windows: Windows;
}

export interface RouteResult {
  /** `data` as JSON text (routes cache it where the data changes only per time bucket). */
  dataJson: string;
  /** Records returned, which the route's credit rule charges for. */
  items: number;
  totalCount?: number;
}

export interface Route {
  path: string;
  input: z.ZodObject;
  plans: readonly Plan[];
  credits: CreditRule;
  envelope: EnvelopeKind;
  handle(ctx: RouteContext): RouteResult;
}

/** A route's handler and envelope; its path, schema, plans and credit rule come from the catalog. */
export type Handler = Pick<Route, 'envelope' | 'handle'>;

/** Remembers the last value per key: "latest" data changes only when its time bucket does. */
export function lastValueMemo<T>(): (key: string, make: () => T) => T {
  let lastKey: string | undefined;
  let lastValue: T;
  return (key, make) => {
    if (key !== lastKey) {
      lastValue = make();
      lastKey = key;
    }
    return lastValue;
  };
}
