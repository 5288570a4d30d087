/**
 * The kinds of step a sequence takes, each with the rules of spec/rules.yaml an answer to it
 * observes, and the conditions it is taken in (what the rule × condition coverage counts): the
 * model, whose account and which key, the plan, the input, the outcome asked for, the moment.
 */
import type { ContractOperation } from "../../contract/contract.ts";
import { readCatalogue, type Catalogue } from "../../spec/catalogue.ts";
import { rulesOf } from "../rules.ts";

export type StepKind = "create" | "poll" | "credits" | "quote" | "upload" | "post" | "search";

/** The rules every answer to a step of the kind observes, by id or pattern (the route's own rules are added: ROUTE_RULES). */
export const KIND_RULES: Readonly<Record<StepKind, readonly string[]>> = {
  create: [
    "service.create-returns-id-no-media",
    "service.charged-only-on-success",
    "resources.create-response.status-initial",
    "resources.create-response.credits-and-seconds",
    "resources.create-response.3d-credits",
    "service.metered-in-credits",
    "endpoints.create-conventions",
    "service.api-on-paid-plans",
  ],
  poll: [
    "service.poll-until-terminal",
    "resources.job-status.values",
    "resources.job-status.terminal",
    "resources.poll.status-always-present",
    "states.one-state",
    "states.succeeded",
    "states.failed",
    "states.timeout",
    "states.polling-not-counted",
  ],
  // A balance read after jobs end shows what each was charged (every route's price) and what each held and released.
  credits: [
    "routes.account-credits",
    "service.metered-in-credits",
    "service.charged-only-on-success",
    "states.charged-on-succeeded",
    "states.failed",
    "states.timeout",
    "states.lip-sync-reserves-quote",
    "states.3d-credits-held",
    "*.price",
    "images.billed-per-image",
    "images.further.*",
    "videos.further.*",
    "routes.stock-images",
    "routes.stock-sound-effects",
    "routes.stock-music",
  ],
  quote: ["routes.cost", "service.cost-quotes-discounted-price"],
  upload: ["routes.uploads", "limits.uploads"],
  post: ["routes.posts", "resources.post.license"],
  search: ["routes.stock-only-search", "limits.stock-page-size", "resources.stock-result.attribution"],
};

/** The rules a route's own answers observe in a step of the kind, as `route:` references (conformance/rules.ts). */
export const ROUTE_RULES: Readonly<Partial<Record<StepKind, readonly string[]>>> = {
  create: ["route:*.price", "route:*.response", "route:resources.create-response.*"],
  poll: ["route:*.poll", "route:resources.poll.*"],
  search: ["route:routes.stock-*"],
};

/** The rules behind each of the model's refusals (behaviour/rules.ts), and its handlers' answers of another account. */
export const RULE_RULES: Readonly<Record<string, readonly string[]>> = {
  authentication: ["auth.401", "errors.401"],
  "plan-gate": ["auth.free-plan-gate", "service.free-plan-stock-only", "auth.403", "errors.403"],
  "uploads-window": ["limits.uploads", "errors.429-rate-limited"],
  "retired-model": ["versioning.retired-410", "errors.410-model-retired"],
  cooldown: ["limits.cooldown", "errors.429-cooldown", "images.i-b.cooldown-family"],
  "outcome-marker": ["errors.400-moderation", "auth.moderation-is-400", "errors.moderation-reasons"],
  "spend-limit": ["errors.429-spend-limit", "errors.spend-limit-not-cleared-by-retry"],
  concurrency: ["limits.concurrency", "errors.429-queue-full"],
  ownership: ["auth.403", "errors.403"],
};

/** The operations of the kinds that are neither creates nor polls, by operationId (the searches are the Free plan's). */
const OTHER_KINDS: Readonly<Record<string, StepKind>> = {
  getAccountCredits: "credits",
  quoteCost: "quote",
  createUpload: "upload",
  createPost: "post",
};

/** The kind of a step on `op`, or null for an operation no sequence steps on (the model list). */
export function kindOf(op: ContractOperation): StepKind | null {
  if (op.facts.kind === "create" || op.facts.kind === "poll") return op.facts.kind;
  if (op.facts.freePlan) return "search";
  return OTHER_KINDS[op.facts.operationId] ?? null;
}

/** A condition a step is taken in, as `dimension=value`. */
export type Condition = `${string}=${string}`;

let catalogue: Catalogue | undefined;

/** The rules of `op`'s own route a step of `kind` on it observes (ROUTE_RULES, resolved on the route). */
export function routeRules(op: ContractOperation, kind: StepKind): string[] {
  catalogue ??= readCatalogue();
  return rulesOf(catalogue, ROUTE_RULES[kind] ?? [], op.route).map((rule) => rule.id);
}

/** The rules an answer to a step observes, by what decided it (`handler`: the operation's answer; a rule's name: its refusal). */
export function observedRules(kind: StepKind, op: ContractOperation, decided: string): string[] {
  if (decided !== "handler") return [...(RULE_RULES[decided] ?? [])];
  return [...new Set([...kindRules(kind), ...routeRules(op, kind)])];
}

/** The rules every answer of the kind observes (KIND_RULES, patterns resolved). */
export function kindRules(kind: StepKind): string[] {
  catalogue ??= readCatalogue();
  return rulesOf(catalogue, KIND_RULES[kind]).map((rule) => rule.id);
}

/** What decided a poll's 403 that no rule gave: the job is another account's. */
export const OWNERSHIP = "ownership";
