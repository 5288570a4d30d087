/**
 * An account's credits. Charges take the monthly allowance first, then extra credits (the sandbox's
 * choice; the specification does not say). A held price (lip sync, 3D) is reserved at creation and
 * shown as unavailable until the job ends; other jobs' quotes are committed, unseen, so that jobs
 * in flight can never charge more than the balance. The sandbox's month is its run: nothing resets.
 */
export interface Balance {
  readonly monthlyLimit: number;
  readonly monthlyUsed: number;
  readonly monthlyRemaining: number;
  readonly extra: number;
  /** Monthly remaining plus extra, less held credits. */
  readonly totalAvailable: number;
}

export class Ledger {
  private monthlyUsed = 0;
  private extraUsed = 0;
  private held = 0;
  private committed = 0;

  constructor(
    private readonly monthlyLimit: number,
    private readonly extra: number,
    private spendLimit: number | null,
  ) {}

  /** The owner sets, raises or removes (null) the monthly spend limit. */
  setSpendLimit(credits: number | null): void {
    this.spendLimit = credits;
  }

  /** What this month's spending comes to, with what is held or committed for jobs in flight. */
  spending(): number {
    return this.monthlyUsed + this.extraUsed + this.held + this.committed;
  }

  /** Whether the balance covers `credits` on top of everything held or committed. */
  covers(credits: number): boolean {
    return credits <= this.balance().totalAvailable - this.committed;
  }

  /** Whether `credits` more would take this month's spending past the owner's limit. */
  overSpendLimit(credits: number): boolean {
    return this.spendLimit !== null && this.spending() + credits > this.spendLimit;
  }

  reserve(credits: number, held: boolean): void {
    if (held) this.held += credits;
    else this.committed += credits;
  }

  /** Ends a reservation; charges it exactly when the job succeeded. */
  settle(credits: number, held: boolean, succeeded: boolean): void {
    if (held) this.held -= credits;
    else this.committed -= credits;
    if (succeeded) this.charge(credits);
  }

  charge(credits: number): void {
    const fromMonthly = Math.min(credits, this.monthlyLimit - this.monthlyUsed);
    this.monthlyUsed += fromMonthly;
    this.extraUsed += credits - fromMonthly;
  }

  balance(): Balance {
    const monthlyRemaining = this.monthlyLimit - this.monthlyUsed;
    const extra = this.extra - this.extraUsed;
    return {
      monthlyLimit: this.monthlyLimit,
      monthlyUsed: this.monthlyUsed,
      monthlyRemaining,
      extra,
      totalAvailable: monthlyRemaining + extra - this.held,
    };
  }
}
