/**
 * The service model's one entry: a request (`Call`) against its state, answered by the first rule
 * that refuses it or by its operation's handler. The sandbox puts it behind HTTP; the conformance
 * suite's oracle asks it what a target may answer.
 */
import type { ServiceModel } from "../model/service-model.ts";
import { handlersFor, type Handler } from "./handlers.ts";
import type { Reply } from "./responses.ts";
import { RULES, type Call, type Rule } from "./rules.ts";
import type { ServiceState } from "./state.ts";

const handlersOf = new WeakMap<ServiceModel, ReadonlyMap<string, Handler>>();

/** The handler of every operation of `model`, made once per model. */
function handlers(model: ServiceModel): ReadonlyMap<string, Handler> {
  let found = handlersOf.get(model);
  if (!found) handlersOf.set(model, (found = handlersFor(model.operations)));
  return found;
}

/** An answer, with the rule that gave it (null: the operation's handler). */
export interface Answered {
  readonly reply: Reply;
  readonly rule: string | null;
}

/**
 * The answer to `call`: the first of `rules` (RULES when omitted) that refuses it, else its
 * handler's; a price charged per request (the stock searches) is charged on its 200.
 */
export function answered(state: ServiceState, call: Call, rules: readonly Rule[] = RULES): Answered {
  for (const rule of rules) {
    const reply = rule.check(call, state);
    if (reply) return { reply, rule: rule.name };
  }
  const reply = handlers(state.model).get(call.op.operationId)!(call, state);
  if (reply.status === 200 && call.quote?.charged === "per-request")
    call.account!.ledger.charge(call.quote.credits ?? 0);
  return { reply, rule: null };
}

export function answer(state: ServiceState, call: Call, rules: readonly Rule[] = RULES): Reply {
  return answered(state, call, rules).reply;
}
