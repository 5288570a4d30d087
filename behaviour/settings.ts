/**
 * What the service model is set up with: the accounts with their keys, plans, credits, caps and
 * prices, the limits (the description's, or tuned: the specification says they may be) and the
 * rates the description does not show. The sandbox reads them from its config file; the
 * conformance suite's oracle builds them from a target's declaration.
 */
import type { SuppliedRates } from "../runtime/costs/supplied-rates.ts";

export interface AccountSettings {
  readonly keys: readonly string[];
  /** Free-plan keys may call only the operations the description opens to the Free plan. */
  readonly plan: "free" | "paid";
  readonly credits: { readonly monthlyLimit: number; readonly extra: number };
  /** Jobs in flight at once, shared by the account's keys. */
  readonly concurrency: number;
  readonly monthlySpendLimit: number | null;
  /** Slugs that answer 410 to this account. */
  readonly retiredModels: readonly string[];
  /** The terminal status of this account's jobs whose request asks for no outcome. */
  readonly outcome: string;
  /** The plan's model discounts: percent off the standard price, by slug. */
  readonly discounts: Readonly<Record<string, number>>;
  /** The plan's daily pool of free generations across qualified image models (slugs), or null. */
  readonly dailyFreePool: { readonly generations: number; readonly models: readonly string[] } | null;
}

export interface Limits {
  readonly requests: { readonly perKey: number; readonly perSourceIp: number; readonly windowSeconds: number };
  readonly uploads: { readonly perAccount: number; readonly windowSeconds: number };
  readonly cooldown: {
    readonly consecutiveFailures: number;
    readonly withinSeconds: number;
    readonly pauseSeconds: number;
    readonly growthSeconds: number;
  };
}

export interface ServiceSettings {
  readonly accounts: Readonly<Record<string, AccountSettings>>;
  /** Rates where the description's are not shown, by route path (none: those routes charge nothing). */
  readonly rates: SuppliedRates;
  readonly limits: Limits;
}
