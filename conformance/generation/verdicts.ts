/**
 * How the answers to generated requests are judged. A near-miss negative must be refused with 400
 * and the documented error body. A generated positive must be accepted with a valid response, or
 * refused with a documented status and body for a reason the description gives: a 403 (plan gate,
 * ownership, account restriction), a 410 (a retired model), a 429 of one of its kinds, the
 * moderation block, or a 400 where the request carries media inputs a server fetches and may find
 * unusable (`x-media`: durations, sizes, formats) or where the description leaves the request's
 * acceptance unstated (unstated.ts).
 */
import type { JsonSchema } from "../../model/document.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { accepted, type Exchange } from "../http.ts";
import { responseProblems } from "../response-check.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Session } from "../session.ts";
import { unstatedAcceptance } from "../unstated.ts";
import { isObject } from "../../contract/bodies/edits.ts";

/** Problems with the answer to a near-miss negative; none when it was refused as it should be. */
export function negativeProblems(session: Session, op: ContractOperation, exchange: Exchange): string[] {
  if (exchange.status === 400) return responseProblems(session.contract, op, exchange);
  const verb = accepted(exchange) ? "accepted it" : "answered it";
  return [`${verb} with ${exchange.status}, not 400: ${exchange.text.slice(0, 200)}`];
}

/** The media inputs of `body`: fields whose schema carries `x-media`. */
function mediaFields(op: ContractOperation, body: unknown): string[] {
  const properties = (op.requestSchema?.properties ?? {}) as Record<string, JsonSchema>;
  return isObject(body) ? Object.keys(body).filter((field) => properties[field]?.["x-media"] !== undefined) : [];
}

/** Problems with the answer to a generated positive (a body the schema holds valid). */
export function positiveProblems(session: Session, op: ContractOperation, body: unknown, exchange: Exchange): string[] {
  const problems = responseProblems(session.contract, op, exchange);
  if (accepted(exchange) || problems.length) return problems;
  const { contract } = session;
  switch (exchange.status) {
    case 403:
    case 410:
      return [];
    case 429:
      return conditionsOf(contract, exchange.json).size ? [] : ["a 429 of none of the description's kinds"];
    case 400: {
      const { reasonField, reasons } = contract.model.errors.moderation;
      if (isObject(exchange.json) && reasons.includes(String(exchange.json[reasonField]))) return [];
      const media = mediaFields(op, body);
      if (media.length || unstatedAcceptance(op, body, session.config.describedShapes)) return [];
      return [
        `refused with 400 a body the description holds valid, with no media input a server could find unusable: ${exchange.text.slice(0, 200)}`,
      ];
    }
    default:
      return [`refused with ${exchange.status}, for no reason the description gives: ${exchange.text.slice(0, 200)}`];
  }
}
