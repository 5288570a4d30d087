/**
 * Which 429 variant a body is, and so whether its response carries `Retry-After`: the variants
 * and their `x-retry-after` come from the service model. The checks, the suite's own waiting and
 * the mock's front all decide it here, from the body the response carries.
 */
import type { TooManyVariant } from "../model/service-model.ts";
import type { Contract } from "./contract.ts";

export interface RetryAfterVerdict {
  /** The variants whose schema the body validates against. */
  matching: TooManyVariant[];
  /** Whether Retry-After must be sent; undefined when no variant matches or the matches disagree. */
  sends: boolean | undefined;
}

/** retryAfterFor of an answer's raw text: a text that is not JSON matches no variant. */
export function retryAfterForText(contract: Contract, text: string): RetryAfterVerdict {
  let body: unknown;
  try {
    body = JSON.parse(text);
    // Stryker disable next-line BlockStatement: body is still undefined when JSON.parse throws
  } catch {
    body = undefined;
  }
  return retryAfterFor(contract, body);
}

export function retryAfterFor(contract: Contract, body: unknown): RetryAfterVerdict {
  const matching = contract.model.errors.tooManyRequests.variants.filter((variant) =>
    contract.registry.component(variant.schema)(body),
  );
  const flags = new Set(matching.map((variant) => variant.retryAfter));
  return { matching, sends: flags.size === 1 ? [...flags][0] : undefined };
}

/** The conditions a 429 body may stand for (queue full and spend limit share one shape). */
export function conditionsOf(contract: Contract, body: unknown): Set<TooManyVariant["condition"]> {
  return new Set(retryAfterFor(contract, body).matching.map((variant) => variant.condition));
}
