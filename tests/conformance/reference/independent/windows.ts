/**
 * Request limits. Fixed windows of one minute counted from the server's start (not from the clock's
 * minutes, not from a key's first request), one count per key and one per source IP; a rejected
 * request counts too. The uploads limit is a rolling window per account of accepted uploads.
 */
export interface WindowView {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window ends (at least 1 while it lasts). */
  readonly reset: number;
  readonly exceeded: boolean;
}

export class FixedWindows {
  private index = -1;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly startedAt: number,
  ) {}

  count(id: string, now: number): WindowView {
    const index = Math.floor((now - this.startedAt) / this.windowMs);
    if (index !== this.index) {
      this.index = index;
      this.counts = new Map();
    }
    const used = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, used);
    const endsAt = this.startedAt + (index + 1) * this.windowMs;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      reset: Math.max(1, Math.ceil((endsAt - now) / 1000)),
      exceeded: used > this.limit,
    };
  }
}

export class RollingWindow {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait before `id` may go on, or 0 when it may now (and then it is counted). */
  take(id: string, now: number): number {
    const recent = (this.times.get(id) ?? []).filter((time) => time > now - this.windowMs);
    this.times.set(id, recent);
    if (recent.length >= this.limit) return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
    recent.push(now);
    return 0;
  }
}
