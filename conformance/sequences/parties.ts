/**
 * Who acts in the sequences: every declared key the phase may use without disturbing another check,
 * each with its account. The main key's account, a second paid account with a second key of it
 * (`otherAccount`), and the Free plan's key. Keys the other checks spend or leave changed (the
 * cooldown, spend-limit, discount, free-pool and burst keys) are left to them.
 */
import type { TargetConfig } from "../config.ts";

export interface Party {
  /** How reports name it: `main`, `other`, `other (second key)`, `free plan`. */
  readonly name: string;
  readonly key: string;
  /** The account it acts for: `main`, `other`, `free`. */
  readonly account: string;
  readonly plan: "paid" | "free";
  /** The account's first or second key. */
  readonly second: boolean;
}

export interface Parties {
  readonly all: readonly Party[];
  /** The declaration fields whose absence leaves steps out, each with the steps it leaves out. */
  readonly missing: ReadonlyArray<{ readonly field: string; readonly leaves: string }>;
}

export function partiesOf(config: TargetConfig, apiKey: string): Parties {
  const all: Party[] = [{ name: "main", key: apiKey, account: "main", plan: "paid", second: false }];
  const missing: Array<{ field: string; leaves: string }> = [];
  const other = config.otherAccount;
  if (other) {
    all.push({ name: "other", key: other.apiKey, account: "other", plan: "paid", second: false });
    if (other.secondKey)
      all.push({ name: "other (second key)", key: other.secondKey, account: "other", plan: "paid", second: true });
    else missing.push({ field: "otherAccount.secondKey", leaves: "steps by a second key of one account" });
  } else {
    missing.push({
      field: "otherAccount",
      leaves: "steps by a second paid account and by a second key of one account",
    });
  }
  if (config.freePlanKey)
    all.push({ name: "free plan", key: config.freePlanKey, account: "free", plan: "free", second: false });
  else missing.push({ field: "freePlanKey", leaves: "steps by a key on the Free plan" });
  return { all, missing };
}
