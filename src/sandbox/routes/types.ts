/** What a route is: an endpoint of the sandbox's table, and the handler that answers it. */
import type { Ledger, Windows } from '../accounts.js';
import type { EnvelopeKind } from '../envelope.js';
import type { ParamsOf, ServiceEndpoint } from '../service/define.js';
import type { Plan } from '../service/plans.js';

export interface RouteContext<P = Record<string, unknown>> {
  /** Parameters, already checked and defaulted by the endpoint's rules. */
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
  /** Records returned, which the endpoint's credit rule charges for. */
  items: number;
  totalCount?: number;
}

/** A route's handler and envelope; its path, rules, plans and credits come from the table. */
export interface Handler<P = Record<string, unknown>> {
  envelope: EnvelopeKind;
  /** The answer; built over several turns of the event loop when it is long (slices.ts). */
  handle(ctx: RouteContext<P>): RouteResult | Promise<RouteResult>;
}

export type Route = ServiceEndpoint & Handler;

/** The handler of a table endpoint, over the parameters its rules give. */
export type HandlerOf<E> = Handler<ParamsOf<E>>;

/** A route module's handlers for a table group: one per endpoint, of the same name (a missing one is a type error). */
export type HandlersFor<G> = { [K in keyof G]: HandlerOf<G[K]> };

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
