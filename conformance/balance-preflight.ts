/**
 * The balance preflight, before anything is spent: the balance of each key the run will spend
 * with, read from the credits route, against what the estimate says the run could spend with it.
 * A run that could run an account dry would otherwise fail its price and billing checks on a
 * balance that merely ran out ("made total_available fall by 0"): it does not start, and says how
 * many credits to add to which account, or which groups to skip. Keys whose balance cannot be read
 * (a Free-plan key, which the credits route refuses) are named and not judged. Two keys of one
 * account are judged each on its own, as the suite cannot tell they share it.
 */
import type { Check } from "./check.ts";
import { NoAnswer, type Client } from "./client.ts";
import { DECLARED_KEYS, declaredKeys } from "./config.ts";
import { describeShortfall, shortfalls, total, type GroupSpend } from "./cost.ts";
import { TargetError } from "./http.ts";
import { balanceOf } from "./requests.ts";
import type { Session } from "./session.ts";

/** What each group that runs plans to spend; the generated requests' shrinking, within what budgetCredits leaves, counted with them. */
export function groupSpends(session: Session, checks: readonly Check[]): GroupSpend[] {
  const running = checks.filter((check) => session.runs(check.group) && !check.blockedBy?.(session));
  const groups = running.map((check) => ({ group: check.group, spends: check.spend?.(session) ?? [] }));
  const budget = session.config.budgetCredits;
  const planned = total(groups.flatMap((group) => group.spends)).credits;
  const shrinking = groups.find((group) => group.group === "generated-requests");
  // Shrinking a failing generated positive spends what the budget leaves, with the main key.
  if (budget !== null && budget > planned && shrinking)
    shrinking.spends = [
      ...shrinking.spends,
      {
        key: session.main.name,
        what: "shrinking a failing generated request, within budgetCredits",
        price: { credits: budget - planned, atMost: true },
      },
    ];
  return groups;
}

/** Each key the run holds, by the name its spends give it. */
function clientsByName(session: Session): Map<string, Client> {
  const clients = new Map<string, Client>([[session.main.name, session.main]]);
  for (const key of DECLARED_KEYS)
    for (const { value } of declaredKeys(key, session.config)) {
      const client = session.client(value);
      clients.set(client.name, client);
    }
  return clients;
}

/**
 * Reads the balance of each key with planned spend, states it, and throws TargetError (one line)
 * when one cannot pay what the run could spend with it. A stateless target keeps no balance.
 */
export async function checkBalances(
  session: Session,
  checks: readonly Check[],
  progress: (line: string) => void,
): Promise<void> {
  if (!session.config.stateful) return;
  const groups = groupSpends(session, checks);
  const keys = [...new Set(groups.flatMap((group) => group.spends.map((spend) => spend.key)))];
  const clients = clientsByName(session);
  const balances = new Map<string, number>();
  const lines: string[] = [];
  for (const key of keys) {
    const client = clients.get(key);
    if (!client) continue;
    const read = await balanceOf(session, client).catch((error: unknown) => {
      if (error instanceof NoAnswer) return error.message;
      throw error;
    });
    if (typeof read === "number") {
      balances.set(key, read);
      lines.push(`  ${key} key: ${read.toLocaleString("en")} credits`);
    } else lines.push(`  ${key} key: not read (${read}), so not compared with its spend`);
  }
  if (lines.length) for (const line of ["balances before the run:", ...lines]) progress(line);
  const short = shortfalls(groups, balances);
  if (short.length)
    throw new TargetError(
      `the run could spend more than an account holds, which would fail price checks on a balance run dry: ${short.map(describeShortfall).join("; ")}`,
    );
}
