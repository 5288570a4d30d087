/**
 * Before any estimate or work: the target must know the main key. A run whose every request is
 * refused with 401 would report hundreds of failures that all say the same thing; one line names the fix.
 */
import type { KeySource } from "./config.ts";
import type { Contract } from "./contract.ts";
import { bearer, httpExchange, TargetError } from "./http.ts";

const ANSWER_MS = 10_000;


/** Throws TargetError when the target answers 401 to `apiKey` on the credits route (any other answer will do), or gives none. */
export async function checkMainKey(contract: Contract, target: string, apiKey: string, source: KeySource, answerMs = ANSWER_MS): Promise<void> {
  const op = contract.byOperationId(contract.model.account.creditsOperationId);
  if (!op) return;
  let status: number;
  try {
    ({ status } = await httpExchange(`${target}${op.path}`, { method: "GET", headers: bearer(apiKey), signal: AbortSignal.timeout(answerMs) }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ABORT_ERR" ? `no answer within ${answerMs / 1000} s` : (code ?? (error as Error).message);
    throw new TargetError(`the target did not answer GET ${op.path}, sent to check the main key (${why})`);
  }
  if (status !== 401) return;
  const given = source === "none given" ? "no key was given" : `the key comes from ${source}`;
  throw new TargetError(`the target answers 401 to the main key on GET ${op.path} (${given}): set CONFORMANCE_API_KEY, or apiKey in the declaration (--config), to a key of an account on the target`);
}
