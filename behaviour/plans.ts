/**
 * What an account's plan does to its prices: model discounts, and the daily pool of free
 * generations across qualified image models (Pro and Ultra plans). The specification states
 * neither the discounts, nor the pool's size, nor which models qualify: an account's config gives
 * them. A discount is a percentage off the standard price, rounded to the nearest credit (the
 * sandbox's choice; the specification states no rounding). The pool is counted per UTC day of the
 * sandbox's clock; a generation is taken when a job is created, and once the day's pool is used
 * the plan's price applies again.
 */
import type { AccountSettings } from "./settings.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export class PlanPrices {
  private day = -1;
  private taken = 0;

  constructor(private readonly config: Pick<AccountSettings, "discounts" | "dailyFreePool">) {}

  /** The plan's price of a create of `slug` whose standard price is `standard`. */
  discounted(slug: string, standard: number): number {
    const percent = this.config.discounts[slug] ?? 0;
    return Math.round((standard * (100 - percent)) / 100);
  }

  /** Whether a create of `slug` at `now` would be paid by the day's free pool. */
  free(slug: string, now: number): boolean {
    const pool = this.config.dailyFreePool;
    return pool?.models.includes(slug) === true && this.takenOn(now) < pool.generations;
  }

  /** Takes one generation of the day's pool. */
  takeFree(now: number): void {
    this.taken = this.takenOn(now) + 1;
  }

  private takenOn(now: number): number {
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.taken = 0;
    }
    return this.taken;
  }
}
