/**
 * The start-up probe, before any estimate or work: one request, the main key's GET of the credits
 * route, must be answered, not with 401, and as the service answers, in JSON. A target that is not
 * there, refuses the key, or is not the service (a static file server, a proxy's error page) would
 * otherwise get the whole run and hundreds of failures that all say the same thing: the run stops
 * in one line saying what it saw.
 */
import type { KeySource } from "./config.ts";
import type { Contract } from "../contract/contract.ts";
import {
  AnswerBoundError,
  bearer,
  httpExchange,
  parseJson,
  TargetError,
  type AnswerLimits,
  type HttpAnswer,
} from "./http.ts";

/** How much of an answer that is not the service's the line quotes. */
const QUOTED = 80;

export interface Probe {
  /** Where the target came from, for the message (`--target`, `CONFORMANCE_TARGET`). */
  readonly name: string;
  /** The target's base URL as it may be shown (no credentials). */
  readonly shownUrl: string;
  readonly limits: AnswerLimits;
  /** Makes text from the target (and any key it echoes) safe to print. */
  readonly shown: (text: string) => string;
}

/** Throws TargetError, in one line, unless the target answers the main key's credits request as the service does. */
export async function probeTarget(
  contract: Contract,
  target: string,
  apiKey: string,
  source: KeySource,
  probe: Probe,
): Promise<void> {
  const op = contract.byOperationId(contract.model.account.creditsOperationId);
  if (!op) return;
  const route = `GET ${op.path}`;
  let answer: HttpAnswer;
  try {
    answer = await httpExchange(`${target}${op.path}`, {
      method: "GET",
      headers: bearer(apiKey),
      limits: probe.limits,
    });
  } catch (error) {
    if (error instanceof AnswerBoundError)
      throw new TargetError(
        `${probe.name}: ${probe.shownUrl} gave no usable answer to ${route}, sent to check the target and the main key: ${error.message}`,
      );
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ECONNREFUSED"
        ? "connection refused: is it running?"
        : `${code ?? "no answer"}: ${(error as Error).message}`;
    throw new TargetError(`${probe.name}: no server answers at ${probe.shownUrl} (${probe.shown(why)})`);
  }
  if (answer.status === 401) {
    const given = source === "none given" ? "no key was given" : `the key comes from ${source}`;
    throw new TargetError(
      `the target answers 401 to the main key on ${route} (${given}): set CONFORMANCE_API_KEY, or apiKey in the declaration (--config), to a key of an account on the target`,
    );
  }
  const type = answer.headers.get("content-type") ?? "no Content-Type";
  const text = answer.body.toString("utf8");
  if (!/\bjson\b/i.test(type) || parseJson(text) === undefined) {
    const quoted = text.length > QUOTED ? `${text.slice(0, QUOTED)}...` : text;
    throw new TargetError(
      `${probe.name}: ${probe.shownUrl} is not the service: ${route} answered ${answer.status} with ${probe.shown(type)}, not JSON (${answer.body.length} bytes: "${probe.shown(quoted)}")`,
    );
  }
}
