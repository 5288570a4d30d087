/**
 * Whether a target's answer is the model's, as far as the specification fixes it: the status, and
 * the figures and fields it states (a job's status and result fields, the credits a create holds
 * and the seconds it bills, the balance, a quote, a moderation block's reason, which 429 it is and
 * its seconds). What the specification leaves open is not compared: ids, messages, codes it does
 * not show, extra fields. Each answer's shape is judged apart, against the description.
 */
import type { Reply } from "../../behaviour/responses.ts";
import { SANDBOX_CODES } from "../../behaviour/responses.ts";
import type { Contract, ContractOperation } from "../../contract/contract.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Exchange } from "../http.ts";

/** What a comparison may rely on besides the two answers. */
export interface FitContext {
  readonly contract: Contract;
  readonly op: ContractOperation;
  /** The account pays known prices (standard, or declared): its figures are compared. */
  readonly pricesKnown: boolean;
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json => (typeof value === "object" && value !== null ? (value as Json) : {});

/** The seconds a cooldown 429 states may differ from the model's by this much: time passed on the way, and rounding. */
const SECONDS_SLACK = 2;

/** A short account of a model reply, as failures list the answers allowed. */
export function describeReply(contract: Contract, reply: Reply): string {
  const body = objectOf(reply.body);
  const { model } = contract;
  if (reply.status === 429) return `429 ${[...conditionsOf(contract, reply.body)].join(" or ")}`;
  if (reply.status === 400 && model.errors.moderation.reasonField in body)
    return `400 moderation block (${String(body[model.errors.moderation.reasonField])})`;
  if (reply.status !== 200) return `${reply.status} ${String(objectOf(body.error).code ?? "")}`.trim();
  const figures = ["status", model.account.availableField, model.account.priceField, "seconds"]
    .filter((field) => field in body)
    .map((field) => `${field} ${JSON.stringify(body[field])}`);
  return `200${figures.length ? ` (${figures.join(", ")})` : ""}`;
}

/** Why the target's answer is not the model's `reply`, or null when it fits. */
export function misfit(reply: Reply, exchange: Exchange, context: FitContext): string | null {
  const { contract, op } = context;
  const model = contract.model;
  const target = objectOf(exchange.json);
  const body = objectOf(reply.body);
  if (reply.status !== exchange.status) {
    // Running out of credits is not shown: any refusal of the client's (402, 403) is the model's 403.
    const outOfCredits = objectOf(body.error).code === SANDBOX_CODES.insufficientCredits.code;
    if (outOfCredits && (exchange.status === 402 || exchange.status === 403)) return null;
    return `answered ${exchange.status} where ${describeReply(contract, reply)} is due`;
  }
  if (reply.status === 429) {
    const due = conditionsOf(contract, reply.body);
    const seen = conditionsOf(contract, exchange.json);
    if (![...due].some((condition) => seen.has(condition)))
      return `answered a 429 of ${[...seen].join(" or ") || "no kind of the description"}, where ${[...due].join(" or ")} is due`;
    const field = model.errors.tooManyRequests.variants.find(
      (variant) => variant.condition === "cooldown",
    )?.secondsField;
    if (field && due.has("cooldown") && typeof body[field] === "number") {
      const seconds = Number(target[field] ?? objectOf(target.error)[field]);
      if (!(Math.abs(seconds - (body[field] as number)) <= SECONDS_SLACK))
        return `the cooldown 429 states ${target[field] ?? "no"} seconds, where ${body[field]} are left`;
    }
    return null;
  }
  if (reply.status === 400) {
    const { reasonField } = model.errors.moderation;
    if (reasonField in body && target[reasonField] !== body[reasonField])
      return `blocked for ${JSON.stringify(target[reasonField])}, where the request asked for ${JSON.stringify(body[reasonField])}`;
    return null;
  }
  if (reply.status !== 200) return null;
  const figures = (fields: readonly string[]): string | null => {
    for (const field of fields) {
      if (field in body && target[field] !== body[field])
        return `${field} is ${JSON.stringify(target[field])}, where ${JSON.stringify(body[field])} is due`;
    }
    return null;
  };
  switch (op.facts.kind) {
    case "create":
      return figures(["status", ...(context.pricesKnown ? [model.account.priceField, "seconds"] : [])]);
    case "poll":
      return pollMisfit(context, body, target);
    default:
      if (op.facts.operationId === model.account.creditsOperationId)
        return context.pricesKnown ? figures([model.account.availableField]) : null;
      if (op.facts.operationId === "quoteCost" && context.pricesKnown && typeof body.credits === "number")
        return figures(["credits"]);
      return null;
  }
}

/** A poll: a terminal status is the one due; a running one is any running status; result fields exactly on success. */
function pollMisfit(context: FitContext, due: Json, seen: Json): string | null {
  const { jobStatus } = context.contract.model;
  const status = seen.status;
  const terminal = jobStatus.terminal.includes(String(due.status));
  if (terminal && status !== due.status)
    return `status is ${JSON.stringify(status)}, where the job ended ${due.status}`;
  if (
    !terminal &&
    (typeof status !== "string" || jobStatus.terminal.includes(status) || !jobStatus.values.includes(status))
  )
    return `status is ${JSON.stringify(status)}, where the job is still running`;
  const area = context.contract.model.areas.find((candidate) => candidate.id === context.op.polls?.id);
  const results = area?.resultFields ?? [];
  if (status === jobStatus.success) {
    const missing = results.filter((field) => !(field in seen));
    if (missing.length) return `the succeeded job's poll has no ${missing.join(", ")}`;
  } else {
    const early = results.filter((field) => field in seen);
    if (early.length)
      return `the poll of a job ${String(status)} carries ${early.join(", ")}, a result of success only`;
  }
  return null;
}
