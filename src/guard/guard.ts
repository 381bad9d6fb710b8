/**
 * The credit guard: before a call is sent, its estimate must fit under the per-call limit and in
 * what is left of the account's budget for the window; the estimate is reserved, marked sent just
 * before the request goes to the service, then settled from what the service charged (or at the estimate
 * when no answer came), or released when the call cost nothing. Refusals (refusals.ts) say what the
 * call would cost, what is left, when the window rolls and how to make the call fit.
 */
import type { Admission, GuardedCall, GuardOptions, OpenCall, PersonLimit, Reservation } from './calls.js';
import type { LedgerStore, ReserveRequest } from './ledger.js';
import {
  ledgerProblem,
  overBudget,
  overPerCallLimit,
  overPersonBudget,
  type Refusal,
  reservationLost,
  unrecordedWarning,
} from './refusals.js';
import { type CreditUsage, type PersonUsage, UsageFigures } from './usage.js';
import { type BudgetWindow, windowAt } from './windows.js';

export type { Admission, GuardedCall, GuardOptions, PersonLimit, Reservation } from './calls.js';

/** A call the server ended while it waited for its turn: it is never sent. */
const STOPPING: Refusal = {
  ok: false,
  reason: 'stopping',
  message: 'Not sent: the server is stopping. Nothing was charged; try again once it is back.',
};

export class CreditGuard {
  /** The window of the last call, and when it began: reused until the clock leaves it. */
  private current: { window: BudgetWindow; from: number } | undefined;
  /** Reservations of calls not yet ended, by id: what close() ends when the server stops. */
  private readonly open = new Map<string, OpenCall>();
  /** Settles and releases under way, which close() waits for. */
  private readonly ending = new Set<Promise<void>>();
  /**
   * No budget applies, to the account or to a person: the ledger only records. A call's reservation
   * is then written once, already marked sent, when its request is about to go (nothing needs
   * holding before), and its end once the answer is on its way (finish).
   */
  private readonly recordOnly: boolean;
  private handles = 0;
  private readonly figures: UsageFigures;
  /** Whether the first record that could not be written was said (warn): once, not a line per call. */
  private warned = false;

  constructor(private readonly options: GuardOptions) {
    this.recordOnly = options.budget === undefined && options.personBudget === undefined;
    this.figures = new UsageFigures(
      options,
      () => this.window(),
      () => this.ended(),
    );
  }

  private window(): BudgetWindow {
    const now = this.options.now();
    const c = this.current;
    if (c && now >= c.from && (c.window.resetsAt === null || now < c.window.resetsAt.getTime()))
      return c.window;
    this.current = { window: windowAt(this.options.window, now), from: now };
    return this.current.window;
  }

  async admit(call: GuardedCall): Promise<Admission> {
    const { budget, maxPerCall } = this.options;
    if (call.estimate > maxPerCall) return overPerCallLimit(call, maxPerCall, this.options.now());
    const window = this.window();
    const personWindow = call.personLimit ? windowAt(call.personLimit.window, this.options.now()) : window;
    const personBudget = call.personLimit ? call.personLimit.budget : this.options.personBudget;
    const reservation = {
      account: call.account,
      window: window.id,
      tool: call.tool,
      estimate: call.estimate,
    };
    const request: ReserveRequest = {
      account: call.account,
      window: window.id,
      tool: call.tool,
      amount: call.estimate,
    };
    // With sign-in every person's spend is recorded too, with or without a budget of their own.
    const personRequest =
      call.person === undefined ? undefined : { ...request, account: call.person, window: personWindow.id };
    if (this.recordOnly && personBudget === undefined) {
      const handle = `call:${++this.handles}`;
      this.open.set(handle, { handle, estimate: call.estimate, requests: [request, personRequest] });
      return { ok: true, reservation: { ...reservation, id: handle } };
    }
    // A person's own budget first: the call must fit it and the account's; each is reserved
    // atomically, so neither is ever passed, and a call the account refuses gives the person's back.
    const person =
      personRequest && (await this.reservePerson(call, personWindow, personRequest, personBudget));
    if (person && !person.ok) return person;
    let result: Awaited<ReturnType<LedgerStore['reserve']>>;
    try {
      result = await this.options.store.reserve({ ...request, budget });
    } catch (error) {
      if (person?.ok) await this.options.store.release(person.id).catch(() => {});
      return { ok: false, reason: 'ledger', message: ledgerProblem(error, this.options) };
    }
    if (result.ok) {
      const held = { ...reservation, id: result.id };
      this.open.set(result.id, {
        handle: result.id,
        id: result.id,
        estimate: call.estimate,
        personId: person?.ok ? person.id : undefined,
        personBudget,
        requests: [request, personRequest],
      });
      return { ok: true, reservation: held };
    }
    if (person?.ok) await this.options.store.release(person.id).catch(() => {});
    return overBudget(call, { ...result, budget: budget ?? 0, window, nowMs: this.options.now() });
  }

  /** The person's own reservation (against their budget, when they have one): the id held, or the refusal. */
  private async reservePerson(
    call: GuardedCall,
    window: BudgetWindow,
    request: ReserveRequest,
    personBudget: number | undefined,
  ): Promise<{ ok: true; id: string } | Refusal | undefined> {
    let result: Awaited<ReturnType<LedgerStore['reserve']>>;
    try {
      result = await this.options.store.reserve({ ...request, budget: personBudget });
    } catch (error) {
      return { ok: false, reason: 'ledger', message: ledgerProblem(error, this.options) };
    }
    if (result.ok) return { ok: true, id: result.id };
    if (personBudget === undefined) return undefined;
    return overPersonBudget(call.estimate, {
      ...result,
      budget: personBudget,
      window,
      nowMs: this.options.now(),
    });
  }

  /**
   * The call's request is about to be sent: from now on the service may charge it, so a process
   * that dies holding the reservation leaves it counted as spent. The mark is on the ledger before
   * the request is written, so a sent request is never forgotten; the one case the other way, a
   * process killed between the mark and the write, is counted as sent (the safe side). A record-only
   * call's reservation is first written here, already marked: one write. Resolves with a refusal
   * when the call may not be sent after all: its reservation was lost and no longer fits, the mark
   * could not be written, or the server is stopping and ended it.
   */
  async markSent(reservation: Reservation): Promise<Refusal | undefined> {
    const call = this.openCall(reservation);
    if (!call) return STOPPING;
    const written = call.id !== undefined || call.personId !== undefined;
    call.sent ??= this.recordOnly && !written ? this.writeSent(call) : this.markHeld(call);
    return call.sent;
  }

  /**
   * The person whose call holds the reservation left before its request was sent, and the request
   * goes on for the identical calls that joined it: the person's part is given back, and the call
   * is charged to the account alone (it is no one person's to pay). Nothing changes once it is sent.
   */
  async dropPerson(reservation: Reservation): Promise<void> {
    const call = this.openCall(reservation);
    if (!call || call.sent || call.requests[1] === undefined) return;
    const held = call.personId;
    call.personId = undefined;
    call.requests = [call.requests[0], undefined];
    if (held !== undefined) await this.options.store.release(held).catch(() => {});
  }

  /**
   * The call's request failed before it reached the service, or was answered with an error (free),
   * and the call waits to try again: until markSent marks its next attempt, it is not sent, so a
   * process killed during the wait, or a server stopping, leaves it costing nothing. A mark that
   * cannot be undone leaves it counted (the safe way for the budget).
   */
  async unmarkSent(reservation: Reservation): Promise<void> {
    const call = this.openCall(reservation);
    if (!call?.sent || (await call.sent) !== undefined || this.openCall(reservation) !== call) return;
    call.sent = undefined;
    const { store } = this.options;
    await Promise.all(
      [call.id, call.personId].map((id) =>
        id === undefined ? undefined : store.markUnsent(id).catch(() => {}),
      ),
    );
  }

  /**
   * A budgeted call's reservations, marked sent. One found gone (reaped as never sent while the call
   * waited: its replica was cut from Redis for longer than its lease) is reserved again within the
   * budget, then marked, or the call is refused; so is one whose mark cannot be written: an unmarked
   * request would be forgotten by a kill.
   */
  private async markHeld(call: OpenCall): Promise<Refusal | undefined> {
    const { budget } = this.options;
    const [account, person] = call.requests;
    try {
      const [accountHeld, personHeld] = await Promise.all([this.mark(call.id), this.mark(call.personId)]);
      if (person && !personHeld) {
        const refused = await this.reserveAgain(
          person,
          call.personBudget,
          'your own budget',
          call.estimate,
          (id) => {
            call.personId = id;
          },
        );
        if (refused) return refused;
      }
      if (!accountHeld) {
        return await this.reserveAgain(account, budget, 'the budget', call.estimate, (id) => {
          call.id = id;
        });
      }
      return undefined;
    } catch (error) {
      return { ok: false, reason: 'ledger', message: ledgerProblem(error, this.options) };
    }
  }

  /** Whether the reservation `id` is still held (now marked sent); none to mark counts as held. */
  private async mark(id: string | undefined): Promise<boolean> {
    return id === undefined || this.options.store.markSent(id);
  }

  /**
   * A lost reservation taken again, as not sent (a reply lost on the way then leaves nothing
   * counted), handed to the call by `hold` (to release it), then marked; or the refusal when it no
   * longer fits `whose` budget.
   */
  private async reserveAgain(
    request: ReserveRequest,
    budget: number | undefined,
    whose: string,
    estimate: number,
    hold: (id: string) => void,
  ): Promise<Refusal | undefined> {
    const { store } = this.options;
    const again = await store.reserve({ ...request, budget });
    if (!again.ok) return reservationLost(estimate, { ...again, budget: budget ?? 0 }, whose);
    hold(again.id);
    if (!(await store.markSent(again.id))) throw new Error('a reservation just made is gone');
    return undefined;
  }

  /**
   * A record-only call's reservations, written as sent; one that cannot be written is not counted,
   * and the call goes on (said once).
   */
  private async writeSent(call: OpenCall): Promise<undefined> {
    const written = async (request: ReserveRequest | undefined) => {
      if (request === undefined) return undefined;
      const result = await this.options.store
        .reserve({ ...request, sent: true })
        .catch((error: unknown) => this.unrecorded(error));
      return result?.ok ? result.id : undefined;
    };
    [call.id, call.personId] = await Promise.all(call.requests.map(written));
    return undefined;
  }

  /** The call ended at a cost: what the service charged, or the estimate when no answer came. */
  settle(reservation: Reservation, charged: number): Promise<void> {
    const call = this.openCall(reservation);
    return call ? this.finish(call, (id) => this.options.store.settle(id, charged)) : Promise.resolve();
  }

  /** The call cost nothing: it was never sent, or the service answered with an error. */
  release(reservation: Reservation): Promise<void> {
    const call = this.openCall(reservation);
    return call ? this.finish(call, (id) => this.options.store.release(id)) : Promise.resolve();
  }

  /**
   * The first end of a call counts; a later one (after close() ended it) changes nothing. Where no
   * budget applies, the end is only a record, so it is written once the answer is on its way (the
   * next turn of the event loop) and the promise returned does not wait for it: until then the
   * reservation, marked sent, holds the call's estimate, so a process killed in between still
   * counts it. This process's own figures, and close(), wait for it.
   */
  private finish(call: OpenCall, write: (id: string) => Promise<void>): Promise<void> {
    this.open.delete(call.handle);
    const ended = (async () => {
      await call.sent;
      if (this.recordOnly) await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(
        [call.id, call.personId].map((id) =>
          id === undefined ? undefined : write(id).catch((error: unknown) => this.unrecorded(error)),
        ),
      );
    })();
    this.ending.add(ended);
    void ended.finally(() => this.ending.delete(ended));
    return this.recordOnly ? Promise.resolve() : ended;
  }

  /**
   * A record the ledger could not take: with no budget the call goes on uncounted, which is said
   * once (stderr, the log) rather than never; with a budget the call itself is refused instead.
   */
  private unrecorded(error: unknown): undefined {
    if (this.recordOnly && !this.warned) {
      this.warned = true;
      this.options.warn?.(unrecordedWarning(error, this.options.store));
    }
    return undefined;
  }

  /** Calls' ends still being written: this process's figures include them. */
  private async ended(): Promise<void> {
    if (this.ending.size > 0) await Promise.all([...this.ending]);
  }

  private openCall(reservation: Reservation): OpenCall | undefined {
    return this.open.get(reservation.id);
  }

  /** A cache hit or a joined call: free, and it saved what the original answer cost. */
  recordHit(account: string, tool: string, saved: number): void {
    this.options.store.recordHit(account, this.window().id, tool, saved).catch(() => {});
  }

  /** A call the server answered itself with nothing sent: a call of its tool, free. */
  recordFree(account: string, tool: string): void {
    this.options.store.recordFree(account, this.window().id, tool).catch(() => {});
  }

  /**
   * The account's figures; with `person`, that person's own beside them (`you`); with `everyone`
   * (an admin), every signed-in person's in the window (`people`, those who spent most first).
   */
  usage(account: string, person?: string, everyone = false, limit?: PersonLimit): Promise<CreditUsage> {
    return this.figures.usage(account, person, everyone, limit);
  }

  /** A signed-in person's figures in the window, against SVC_USER_CREDIT_BUDGET (or `limit`) when set. */
  personUsage(person: string, limit?: PersonLimit): Promise<PersonUsage | undefined> {
    return this.figures.personUsage(person, limit);
  }

  /** Fails, saying why, when the ledger cannot be written (a readiness check). */
  check(): Promise<void> {
    return this.options.store.check();
  }

  /**
   * The server is stopping: calls still open end as they stand, one marked sent at its estimate (the
   * service may have charged it), one still waiting for its turn released; then every write is flushed.
   */
  async close(): Promise<void> {
    const { store } = this.options;
    for (const call of [...this.open.values()]) {
      // A mark still being written may yet refuse the call: it ends as the mark decides.
      const sent = call.sent?.then((refused) => refused === undefined);
      void this.finish(call, async (id) =>
        (await sent) ? store.settle(id, call.estimate) : store.release(id),
      );
    }
    await Promise.all([...this.ending]);
    await this.options.store.close();
  }
}
