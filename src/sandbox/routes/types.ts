/** What a route is: its path, its parameter schema and plans, and a handler over validated params. */
import type { z } from 'zod';
import type { CreditRule } from '../../catalog/credits.js';
import type { ServiceParams } from '../../catalog/define.js';
import type { Plan } from '../../catalog/plans.js';
import type { Ledger, Windows } from '../accounts.js';
import type { EnvelopeKind } from '../envelope.js';

export interface RouteContext<P = Record<string, unknown>> {
  /** Parameters, already checked and defaulted by the route's schema. */
  params: P;
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
export interface Handler<P = Record<string, unknown>> {
  envelope: EnvelopeKind;
  handle(ctx: RouteContext<P>): RouteResult;
}

/** The handler of a catalog endpoint, over the parameters its service schema gives. */
export type HandlerOf<E> = Handler<ServiceParams<E>>;

/**
 * A sandbox route module's handlers for a catalog module's endpoints: one per endpoint, of the
 * same name (a missing or misnamed one is a type error).
 */
export type HandlersFor<M> = {
  [K in keyof M as M[K] extends { kind: 'endpoint' } ? K : never]: HandlerOf<M[K]>;
};

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
