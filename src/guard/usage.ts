/**
 * The guard's figures as get_credit_usage and svc://credits show them: an account's in the current
 * window, a signed-in person's own beside them, and for an admin every person's, most spent first.
 */
import type { CreditUsageFigures } from '../kit/usage-figures.js';
import { isPerson } from './accounts.js';
import type { GuardOptions, PersonLimit } from './calls.js';
import { ledgerProblem } from './refusals.js';
import { type BudgetWindow, windowAt } from './windows.js';

/** The guard's figures for one account. */
export type CreditUsage = CreditUsageFigures;
/** One signed-in person's figures. */
export type PersonUsage = NonNullable<CreditUsage['you']>;

/** Most people an admin's figures list: those who spent most. */
const PEOPLE_SHOWN = 100;

export class UsageFigures {
  constructor(
    private readonly options: GuardOptions,
    /** The current window. */
    private readonly window: () => BudgetWindow,
    /** Resolves once this process's calls that ended are written: its figures include them. */
    private readonly ended: () => Promise<void>,
  ) {}

  async usage(account: string, person?: string, everyone = false, limit?: PersonLimit): Promise<CreditUsage> {
    const team = await this.accountUsage(account);
    if (team.problem !== undefined) return team;
    const [you, people] = await Promise.all([
      person === undefined ? undefined : this.personUsage(person, limit),
      everyone ? this.peopleUsage() : undefined,
    ]);
    return { ...team, ...(you && { you }), ...(people && { people }) };
  }

  async personUsage(person: string, limit?: PersonLimit): Promise<PersonUsage | undefined> {
    await this.ended();
    const window = limit ? windowAt(limit.window, this.options.now()) : this.window();
    const own = await this.options.store.figures(person, window.id).catch(() => undefined);
    if (!own) return undefined;
    const budget = (limit ? limit.budget : this.options.personBudget) ?? null;
    const left = budget === null ? null : Math.max(0, budget - own.spent - own.reserved);
    return { window: window.kind, budget, spent: own.spent, reserved: own.reserved, left };
  }

  private async peopleUsage(): Promise<NonNullable<CreditUsage['people']> | undefined> {
    const accounts = await this.options.store.accounts(this.window().id).catch(() => undefined);
    if (!accounts) return undefined;
    const people = await Promise.all(
      accounts.filter(isPerson).map(async (person) => {
        const figures = await this.personUsage(person);
        return figures && { person, spent: figures.spent, left: figures.left };
      }),
    );
    return people
      .filter((p) => p !== undefined)
      .sort((a, b) => b.spent - a.spent)
      .slice(0, PEOPLE_SHOWN);
  }

  private async accountUsage(account: string): Promise<CreditUsage> {
    await this.ended();
    const window = this.window();
    const { budget, store } = this.options;
    const base = {
      window: window.kind,
      budget: budget ?? null,
      resets_at: window.resetsAt?.toISOString() ?? null,
      max_credits_per_call: this.options.maxPerCall,
      ledger: this.options.ledgerKind ?? store.location,
    };
    try {
      const figures = await store.figures(account, window.id);
      return {
        ...base,
        ...figures,
        left: budget === undefined ? null : Math.max(0, budget - figures.spent - figures.reserved),
      };
    } catch (error) {
      const empty = { spent: 0, reserved: 0, left: null, by_tool: {}, cache_hits: 0, credits_saved: 0 };
      return { ...base, ...empty, problem: ledgerProblem(error, this.options) };
    }
  }
}
