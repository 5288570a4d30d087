/**
 * The repeated-failure cooldown of the content-filtered family, per account: three consecutive
 * failed generations within an hour pause the family's creates for ten minutes, ten more with each
 * further failure; any success clears it. `failed` and `timeout` both count as failed generations.
 */
const HOUR_MS = 3_600_000;
const CONSECUTIVE = 3;

export class Cooldowns {
  private readonly failures = new Map<string, number[]>();
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly pauseMs: number) {}

  record(account: string, succeeded: boolean, now: number): void {
    if (succeeded) {
      this.failures.delete(account);
      this.pausedUntil.delete(account);
      return;
    }
    const recent = [...(this.failures.get(account) ?? []), now].filter((time) => time > now - HOUR_MS);
    this.failures.set(account, recent);
    if (recent.length >= CONSECUTIVE)
      this.pausedUntil.set(account, now + this.pauseMs * (recent.length - CONSECUTIVE + 1));
  }

  /** Seconds left of the account's pause, or 0. */
  secondsLeft(account: string, now: number): number {
    const until = this.pausedUntil.get(account) ?? 0;
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }
}
