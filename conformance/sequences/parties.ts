/**
 * Who acts in the sequences: every declared key the phase may use without disturbing another check,
 * each with its account. The main key's account, a second paid account with a second key of it
 * (`otherAccount`), and the Free plan's key; and one key of an account the other checks use lightly
 * (the cooldown, spend-limit, retired-model or free-pool key), which only polls the phase's jobs,
 * never spending or changing anything the other checks rely on.
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
  // Another account's key for polls of the phase's jobs (they must be refused): one the other checks
  // use lightly, where declared, since the main key's window is the busiest of the run.
  const bystander =
    config.cooldownApiKey ?? config.spendLimit?.apiKey ?? config.retiredModel?.apiKey ?? config.freePool?.apiKey;
  if (bystander && !all.some((party) => party.key === bystander))
    all.splice(1, 0, { name: "bystander", key: bystander, account: "bystander", plan: "paid", second: false });
  if (config.freePlanKey)
    all.push({ name: "free plan", key: config.freePlanKey, account: "free", plan: "free", second: false });
  else missing.push({ field: "freePlanKey", leaves: "steps by a key on the Free plan" });
  return { all, missing };
}
