/**
 * Time as the sandbox sees it, in milliseconds. Every rule reads this clock rather than Date.now,
 * so tests can drive windows, cooldowns and job progress by hand, and demos can run in real time.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told: deterministic tests of time-bound rules. */
export class ManualClock implements Clock {
  constructor(private time = 0) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}
