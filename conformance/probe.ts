/**
 * The start-up probe, before any estimate or work: the main key's GET of the credits route must be
 * answered, not with 401. A target that is not there, or refuses the key, would otherwise get the
 * whole run and hundreds of failures that all say the same thing: the run stops in one line saying
 * what it saw. So does a target that is not the service at all (a static file server, a proxy's
 * error page), and only that one: the credits answer is the service's when it is JSON under a JSON
 * Content-Type, or a body one of the route's documented responses describes under any type and
 * status; else up to two more requests without a key (which nothing charges) ask whether anything
 * answers as the service does, with its documented error body. If anything does, the run goes on and
 * its checks fail what is wrong (a Content-Type, a status, a header): exit status 1, not 2.
 */
import type { KeySource } from "./config.ts";
import type { Contract, ContractOperation } from "../contract/contract.ts";
import type { ResponseObject } from "../model/document.ts";
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
/** A value no documented body is: a schema that takes it takes anything (a shape not shown), and tells nothing. */
const ANY_VALUE = "\u0000 not a body of the service";

export interface Probe {
  /** Where the target came from, for the message (`--target`, `CONFORMANCE_TARGET`). */
  readonly name: string;
  /** The target's base URL as it may be shown (no credentials). */
  readonly shownUrl: string;
  readonly limits: AnswerLimits;
  /** Makes text from the target (and any key it echoes) safe to print. */
  readonly shown: (text: string) => string;
}

/**
 * Whether `answer` is JSON as one of `op`'s documented responses describes it (those whose status
 * `documented` keeps), whatever its own status and Content-Type.
 */
export function answersAsTheService(
  contract: Contract,
  op: ContractOperation,
  answer: HttpAnswer,
  documented: (status: string) => boolean = () => true,
): boolean {
  const json = parseJson(answer.body.toString("utf8"));
  if (json === undefined) return false;
  return Object.entries(op.responses).some(([status, response]) => {
    if (!documented(status)) return false;
    const schema = contract.deref<ResponseObject>(response).content?.["application/json"]?.schema;
    if (!schema) return false;
    const validate = contract.registry.compile(contract.deref(schema));
    return !validate(ANY_VALUE) && validate(json) === true;
  });
}

/** `GET /v1/account/credits answered 404 with text/plain (9 bytes: "Not Found")` */
function saw(route: string, answer: HttpAnswer, probe: Probe): string {
  const type = answer.headers.get("content-type") ?? "no Content-Type";
  const text = answer.body.toString("utf8");
  const quoted = text.length > QUOTED ? `${text.slice(0, QUOTED)}...` : text;
  return `${route} answered ${answer.status} with ${probe.shown(type)} (${answer.body.length} bytes: "${probe.shown(quoted)}")`;
}

/** The requests without a key that may show the service where the credits answer did not: that route's, and another GET's. */
function keylessProbes(contract: Contract, credits: ContractOperation): ContractOperation[] {
  const other = contract.operations.find(
    (op) =>
      op !== credits &&
      op.method === "get" &&
      !op.path.includes("{") &&
      op.responses["401"] !== undefined &&
      !op.parameters.some((parameter) => parameter.required),
  );
  return other ? [credits, other] : [credits];
}

/** Throws TargetError, in one line, unless the target is there, takes the main key, and something answers as the service does. */
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
  const send = (path: string, headers: Record<string, string>): Promise<HttpAnswer> =>
    httpExchange(`${target}${path}`, { method: "GET", headers, limits: probe.limits });
  let answer: HttpAnswer;
  try {
    answer = await send(op.path, bearer(apiKey));
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
  // JSON in JSON, as the service answers; or a body the description documents, under whatever type.
  const type = answer.headers.get("content-type") ?? "";
  if (/\bjson\b/i.test(type) && parseJson(answer.body.toString("utf8")) !== undefined) return;
  if (answersAsTheService(contract, op, answer)) return;
  const others: string[] = [];
  for (const keyless of keylessProbes(contract, op)) {
    const other = await send(keyless.path, {}).catch(() => undefined);
    // Without a key the service refuses: its error body, not some shape of a success.
    if (other && answersAsTheService(contract, keyless, other, (status) => status.startsWith("4"))) return;
    others.push(other ? saw(`GET ${keyless.path}`, other, probe) : `GET ${keyless.path} got no answer`);
  }
  throw new TargetError(
    `${probe.name}: ${probe.shownUrl} is not the service: ${saw(route, answer, probe)}, not a body the description documents for it; nor did anything else answer as the service does (without a key: ${others.join("; ")})`,
  );
}
