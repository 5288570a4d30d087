/**
 * A fake clock for the client fuzz (client-fuzz.ts): while installed, the global setTimeout,
 * clearTimeout and Date.now are its own, so the client's intervals, pauses, backoffs, deadlines and
 * request timeouts, and the hostile upstream's delays and drips, all run on one timeline that the
 * harness moves from one timer to the next. A case then costs its real I/O only, whatever seconds
 * its Retry-After or deadline name, and its bounds are counted in fake milliseconds, not seconds of
 * a loaded machine. Like Node, a delay above setTimeout's longest fires at once and is recorded as
 * the TimeoutOverflowWarning Node would print.
 */

/** setTimeout's longest delay; Node fires a longer one after 1 ms, with a TimeoutOverflowWarning. */
export const LONGEST_DELAY_MS = 2 ** 31 - 1;

interface Timer {
  readonly id: number;
  at: number;
  readonly callback: () => void;
}

/** The handle the fake setTimeout returns: what Node's Timeout offers that callers use. */
class FakeTimeout {
  constructor(
    private readonly clock: FakeClock,
    readonly id: number,
  ) {}
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
  refresh(): this {
    this.clock.refresh(this.id);
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

export class FakeClock {
  /** Fake milliseconds since the clock was installed. */
  now = 0;
  /** Delays asked for above LONGEST_DELAY_MS since the last reset. */
  overflows: number[] = [];
  private readonly timers = new Map<number, Timer & { delay: number }>();
  private nextId = 1;
  private readonly real = {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    dateNow: Date.now,
  };
  private readonly epoch = Date.now();

  install(): void {
    globalThis.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
      let ms = Number(delay ?? 0);
      if (ms > LONGEST_DELAY_MS) {
        this.overflows.push(ms);
        ms = 1;
      }
      if (!(ms >= 1)) ms = 1;
      const id = this.nextId++;
      this.timers.set(id, { id, at: this.now + ms, delay: ms, callback: () => callback(...args) });
      return new FakeTimeout(this, id);
    }) as unknown as typeof setTimeout;
    globalThis.clearTimeout = ((handle: unknown) => {
      if (handle !== undefined && handle !== null) this.timers.delete(Number(handle));
    }) as typeof clearTimeout;
    Date.now = () => this.epoch + this.now;
  }

  uninstall(): void {
    globalThis.setTimeout = this.real.setTimeout;
    globalThis.clearTimeout = this.real.clearTimeout;
    Date.now = this.real.dateNow;
  }

  /** The real setTimeout, for the harness's own waiting on I/O. */
  get realSetTimeout(): typeof setTimeout {
    return this.real.setTimeout;
  }

  /** Drops every timer (those of an abandoned case never fire) and the recorded overflows. */
  reset(): void {
    this.timers.clear();
    this.overflows = [];
  }

  get pending(): number {
    return this.timers.size;
  }

  refresh(id: number): void {
    const timer = this.timers.get(id);
    if (timer) timer.at = this.now + timer.delay;
  }

  /** Moves the clock to the earliest timer and runs it; false when none is pending. */
  next(): boolean {
    let first: (Timer & { delay: number }) | undefined;
    for (const timer of this.timers.values()) if (!first || timer.at < first.at) first = timer;
    if (!first) return false;
    this.timers.delete(first.id);
    this.now = Math.max(this.now, first.at);
    first.callback();
    return true;
  }
}
