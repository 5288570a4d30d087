/**
 * Before any estimate or work: the target must know the main key. A run whose every request is
 * refused with 401 would report hundreds of failures that all say the same thing; one line names the fix.
 */
import type { Contract } from "./contract.ts";
import { bearer, httpExchange, TargetError } from "./http.ts";

/** Where the main key came from, for the message. */
export type KeySource = "CONFORMANCE_API_KEY" | "the declaration's apiKey" | "none given";

/** Throws TargetError when the target answers 401 to `apiKey` on the credits route (any other answer will do). */
export async function checkMainKey(contract: Contract, target: string, apiKey: string, source: KeySource): Promise<void> {
  const op = contract.byOperationId(contract.model.account.creditsOperationId);
  if (!op) return;
  const answer = await httpExchange(`${target}${op.path}`, { method: "GET", headers: bearer(apiKey), signal: AbortSignal.timeout(10_000) });
  if (answer.status !== 401) return;
  const given = source === "none given" ? "no key was given" : `the key comes from ${source}`;
  throw new TargetError(`the target answers 401 to the main key on GET ${op.path} (${given}): set CONFORMANCE_API_KEY, or apiKey in the declaration (--config), to a key of an account on the target`);
}
