/**
 * A session's credit budget: what its creates have committed, so that a create that would pass the
 * budget is refused before anything is sent. A create commits its quote when it is sent; a job
 * seen to end without success gives its quote back (the service charges only success), and a
 * create the service refused gives it back at once. A create whose answer was lost keeps its
 * quote: it may have made a job.
 */

export interface BudgetState {
  /** The budget in credits; null: no limit; undefined: none set, so no priced create is sent. */
  readonly budget: number | null | undefined;
  /** Credits committed by this session's creates still running or succeeded (or of unknown outcome). */
  readonly committed: number;
  /** Credits left, or null without a limit. */
  readonly remaining: number | null;
}

/** Why a create may not be sent, in words an agent can act on; null: it may. */
export type BudgetVerdict =
  | { readonly ok: true; readonly commit: () => Commitment }
  | { readonly ok: false; readonly reason: string };

export interface Commitment {
  /** The create was refused or ended without success: nothing is or will be charged. */
  release(): void;
}

export class SessionBudget {
  #committed = 0;

  constructor(readonly budget: number | null | undefined) {}

  get state(): BudgetState {
    return {
      budget: this.budget,
      committed: this.#committed,
      remaining: this.budget == null ? null : this.budget - this.#committed,
    };
  }

  /**
   * Whether a create quoted at `credits` (null: its price is not known) fits. The check and the
   * commitment happen with no await between them, so two creates at once cannot both pass.
   */
  admit(credits: number | null, priceUnknownReason?: string): BudgetVerdict {
    const { budget } = this;
    const committed = this.#committed;
    if (credits === 0 || budget === null) return { ok: true, commit: () => this.#commit(credits ?? 0) };
    if (budget === undefined)
      return {
        ok: false,
        reason: `No credit budget is set for this session, so no priced create is sent (this one is quoted at ${credits ?? "an unknown price"}${credits === null ? "" : " credits"}). The user sets one with MEDIA_MCP_BUDGET (a number of credits, or "unlimited") in the server's configuration.`,
      };
    if (credits === null)
      return {
        ok: false,
        reason: `The price of this create is not known (${priceUnknownReason ?? "no quote"}), so it cannot be kept within the session budget of ${budget} credits (${committed} committed, ${budget - committed} left). Supply what the quote names as missing (e.g. media durations) and try again; nothing was sent.`,
      };
    if (committed + credits > budget)
      return {
        ok: false,
        reason: `Refused before sending: this create is quoted at ${credits} credits, and the session budget is ${budget} credits with ${committed} committed (${budget - committed} left). Nothing was sent. Choose a cheaper request (fewer outputs, a smaller size or a shorter length), or ask the user to raise MEDIA_MCP_BUDGET.`,
      };
    return { ok: true, commit: () => this.#commit(credits) };
  }

  #commit(credits: number): Commitment {
    this.#committed += credits;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#committed -= credits;
      },
    };
  }
}
