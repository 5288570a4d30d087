/**
 * Request counting: fixed windows (per key, per source IP) and a rolling window (uploads per
 * account). Fixed windows are aligned to multiples of their length, so every counter of a limiter
 * resets at once and the map of counters is dropped whole: memory stays bounded by the callers
 * seen in one window.
 */
export interface WindowState {
  readonly limit: number;
  /** Requests left in the window after this one (never below 0). */
  readonly remaining: number;
  /** Whole seconds until the window resets (at least 1 while it runs). */
  readonly resetSeconds: number;
  /** This request went over the limit. */
  readonly exceeded: boolean;
}

const wholeSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export class FixedWindows {
  private start = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, number>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one request of `id` (rejected requests count too) and says where the window stands. */
  hit(id: string, now: number): WindowState {
    this.roll(now);
    const count = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, count);
    return this.state(count, now);
  }

  /** The window of `id` without counting a request. */
  peek(id: string, now: number): WindowState {
    this.roll(now);
    return this.state(this.counts.get(id) ?? 0, now);
  }

  private roll(now: number): void {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    if (start !== this.start) {
      this.start = start;
      this.counts = new Map();
    }
  }

  private state(count: number, now: number): WindowState {
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: wholeSeconds(this.start + this.windowMs - now),
      exceeded: count > this.limit,
    };
  }
}

/** At most `limit` events per id in any `windowMs`; only accepted events are recorded. */
export class RollingWindow {
  private readonly events = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** What it holds, as plain data (the oracle tells states apart by it). */
  snapshot(): Array<[string, number[]]> {
    return [...this.events].sort(([a], [b]) => a.localeCompare(b));
  }

  /** Records an event of `id` if the window allows it; otherwise the seconds until it will. */
  take(id: string, now: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const times = this.events.get(id) ?? [];
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an empty list's times[0] is undefined, and undefined <= n is false, so the loop stops either way
    while (times.length > 0 && times[0]! <= now - this.windowMs) times.shift();
    if (times.length >= this.limit)
      return { allowed: false, retryAfterSeconds: wholeSeconds(times[0]! + this.windowMs - now) };
    times.push(now);
    this.events.set(id, times);
    return { allowed: true };
  }
}
