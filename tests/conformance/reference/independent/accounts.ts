/**
 * The independent server's accounts: their keys, plan, concurrency cap, balance, the credits held
 * for running jobs, an owner-set monthly spend limit, and the plan's discount and daily free image
 * allowance. Charges are taken from the monthly credits first, then from the extra credits.
 */
export type Plan = "free" | "creator" | "ultra";

export interface AccountSettings {
  readonly name: string;
  readonly keys: readonly string[];
  readonly plan: Plan;
  readonly cap: number;
  readonly monthlyLimit: number;
  readonly extraCredits: number;
  /** Owner-set limit on the credits charged and held this month; none when absent. */
  readonly spendLimit?: number;
  /** Labels of models retired for this account (it is pinned to an older catalogue). */
  readonly retired?: readonly string[];
  /** A plan discount on API charges, in percent. */
  readonly discountPercent?: number;
  /** Free image generations a day (Pro and Ultra plans). */
  readonly dailyFreeImages?: number;
}

export class Account {
  monthlyUsed = 0;
  extraUsed = 0;
  held = 0;
  freeImagesUsed = 0;
  inFlight = 0;

  constructor(readonly settings: AccountSettings) {}

  /** What a request of this standard price costs this account (discount applied), before the allowance. */
  discounted(standard: number): number {
    return Math.round((standard * (100 - (this.settings.discountPercent ?? 0))) / 100);
  }

  /** Uses one of today's free image generations if any is left. */
  takeFreeImage(): boolean {
    if (this.freeImagesUsed >= (this.settings.dailyFreeImages ?? 0)) return false;
    this.freeImagesUsed++;
    return true;
  }

  /** Whether `credits` more (charged or held) would pass the owner's spend limit. */
  passesSpendLimit(credits: number): boolean {
    return (
      this.settings.spendLimit !== undefined &&
      this.monthlyUsed + this.extraUsed + this.held + credits > this.settings.spendLimit
    );
  }

  charge(credits: number): void {
    const fromMonthly = Math.min(credits, Math.max(0, this.settings.monthlyLimit - this.monthlyUsed));
    this.monthlyUsed += fromMonthly;
    this.extraUsed += credits - fromMonthly;
  }

  /** The credits answer: every field an integer, held credits not available. */
  credits(): Record<string, number> {
    const monthlyRemaining = this.settings.monthlyLimit - this.monthlyUsed;
    const extra = this.settings.extraCredits - this.extraUsed;
    return {
      total_available: monthlyRemaining + extra - this.held,
      monthly_limit: this.settings.monthlyLimit,
      monthly_used: this.monthlyUsed,
      monthly_remaining: monthlyRemaining,
      extra_credits: extra,
      credits_on_hold: this.held,
    };
  }
}

export class Accounts {
  private readonly byKey = new Map<string, Account>();

  constructor(settings: readonly AccountSettings[]) {
    for (const entry of settings) {
      const account = new Account(entry);
      for (const key of entry.keys) this.byKey.set(key, account);
    }
  }

  find(key: string | null): Account | undefined {
    return key === null ? undefined : this.byKey.get(key);
  }
}
