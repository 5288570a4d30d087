/**
 * Accounts and their keys. An account's keys share its credits, its concurrency cap and its
 * cooldowns; its running jobs are kept in end-time order so that the ones that ended can be settled
 * (charged or released, slot freed) before anything reads the account.
 */
import type { AccountSettings, ServiceSettings } from "./settings.ts";
import { MinHeap } from "./heap.ts";
import type { Job } from "./jobs.ts";
import { Ledger } from "./ledger.ts";
import { PlanPrices } from "./plans.ts";

export class Account {
  readonly ledger: Ledger;
  /** The plan's discounts and daily free pool. */
  readonly plan: PlanPrices;
  private readonly running = new MinHeap<Job>((job) => job.endAt);

  constructor(
    readonly name: string,
    readonly config: AccountSettings,
  ) {
    this.ledger = new Ledger(config.credits.monthlyLimit, config.credits.extra, config.monthlySpendLimit);
    this.plan = new PlanPrices(config);
  }

  /** Jobs not yet settled; polling never changes it. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Restores the end-time order after a job's end was set (JobStore.end). */
  reorder(): void {
    this.running.reorder();
  }

  start(job: Job): void {
    this.running.push(job);
    this.ledger.reserve(job.credits, job.held);
  }

  /** Settles, in end-time order, every job that ended by `now`; `ended` applies the other rules (cooldown). */
  settle(now: number, success: string, ended: (job: Job) => void): void {
    for (let job = this.running.peek(); job !== undefined && job.endAt <= now; job = this.running.peek()) {
      this.running.pop();
      // Stryker disable next-line BooleanLiteral: equivalent: a job left unsettled here is settled again at its expiry through its account, whose heap no longer holds it, which does nothing
      job.settled = true;
      this.ledger.settle(job.credits, job.held, job.outcome === success);
      ended(job);
    }
  }
}

export interface Accounts {
  readonly byName: ReadonlyMap<string, Account>;
  readonly byKey: ReadonlyMap<string, Account>;
}

export function createAccounts(settings: ServiceSettings): Accounts {
  const byName = new Map<string, Account>();
  const byKey = new Map<string, Account>();
  for (const [name, accountConfig] of Object.entries(settings.accounts)) {
    const account = new Account(name, accountConfig);
    byName.set(name, account);
    for (const key of accountConfig.keys) byKey.set(key, account);
  }
  return { byName, byKey };
}
