/**
 * The repeated-failure cooldown of a model family: after `consecutiveFailures` failed generations
 * in a row within `withinMs`, the family's create requests pause for `pauseMs`, growing by
 * `growthMs` with each further failure; any success clears it. Tracked per account and family.
 */
export interface CooldownRules {
  readonly consecutiveFailures: number;
  readonly withinMs: number;
  readonly pauseMs: number;
  readonly growthMs: number;
}

interface FamilyState {
  /** End times of the consecutive failures still within the window. */
  failures: number[];
  pausedUntil: number;
}

export class Cooldowns {
  private readonly states = new Map<string, FamilyState>();

  constructor(readonly rules: CooldownRules) {}

  failed(id: string, at: number): void {
    const state = this.states.get(id) ?? { failures: [], pausedUntil: 0 };
    state.failures = state.failures.filter((time) => time > at - this.rules.withinMs);
    state.failures.push(at);
    const beyond = state.failures.length - this.rules.consecutiveFailures;
    if (beyond >= 0)
      state.pausedUntil = Math.max(state.pausedUntil, at + this.rules.pauseMs + beyond * this.rules.growthMs);
    this.states.set(id, state);
  }

  /** A pause known to last until `until` (one seen from outside: the oracle learns it from an answer). */
  pause(id: string, until: number): void {
    const state = this.states.get(id) ?? { failures: [], pausedUntil: 0 };
    state.pausedUntil = until;
    this.states.set(id, state);
  }

  succeeded(id: string): void {
    this.states.delete(id);
  }

  /** What it holds, as plain data (the oracle tells states apart by it). */
  snapshot(): Array<[string, FamilyState]> {
    return [...this.states].sort(([a], [b]) => a.localeCompare(b));
  }

  /** The seconds left of a pause, or null when requests may go on. */
  pausedFor(id: string, now: number): number | null {
    const until = this.states.get(id)?.pausedUntil ?? 0;
    return until > now ? Math.ceil((until - now) / 1000) : null;
  }
}
