/**
 * What the phase can observe, given what the target declares: for each rule, the conditions a step
 * can observe it in (coverage.ts counts them). An answer observes the rules of what decided it: a
 * refusal its rule's (RULE_RULES: the Free plan's gate, another account's job, a moderation block,
 * the cap), any other its kind's and its route's.
 */
import { priceOf } from "../cost.ts";
import { hasPrompt } from "../requests.ts";
import type { Steps } from "./commands.ts";
import { mediaSeconds, withDeclaredMedia } from "./inputs.ts";
import { tourBodies } from "./tour.ts";
import type { Party } from "./parties.ts";
import { kindRules, observedRules, OWNERSHIP, routeRules, RULE_RULES, type Condition, type StepKind } from "./steps.ts";

export function applicableConditions(steps: Steps): Map<string, Set<Condition>> {
  const { phase } = steps;
  const { config } = phase.session;
  const applicable = new Map<string, Set<Condition>>();
  const add = (rules: readonly string[], conditions: readonly Condition[]): void => {
    for (const rule of rules) {
      let set = applicable.get(rule);
      if (!set) applicable.set(rule, (set = new Set()));
      for (const condition of conditions) set.add(condition);
    }
  };
  const keys = (parties: readonly Party[]): Condition[] => [
    ...new Set(parties.map((party) => `key=${party.second ? "second" : "first"}` as Condition)),
  ];
  const home = steps.home;
  const markers = config.outcomeMarkers;
  const { contract } = phase.session;
  const declaredCap = phase.home === "main" ? config.concurrency : config.otherAccount?.concurrency;
  const otherPaid = phase.parties.all.some((party) => party.plan === "paid" && party.account !== phase.home);
  for (const op of steps.creates()) {
    const model: Condition = `model=${op.create!.label}`;
    const prompt = hasPrompt(op);
    const outlasting = steps.outlasting(op);
    // Each input class the tour and the random sequences send, and whether one of its bodies has an exact price (it may go unmarked).
    // Each input class sent, and whether one of its bodies has an exact price (it may go unmarked); a job
    // that outlasts the phase is started by the first body only (the others are blocked by moderation: tour.ts).
    const bodies = tourBodies(steps, op, 0).slice(0, outlasting ? 1 : undefined);
    const classes = bodies.reduce((found, { body, input }) => {
      // A body whose priced media a declared input fits is sent that input (commands.ts).
      const { body: sent, declared } = withDeclaredMedia(config, contract, op, body, 0);
      const price = priceOf(contract, op, sent, mediaSeconds(config.mediaInputs ?? [], sent));
      const sentAs = declared ? "declared-media" : input;
      found.set(sentAs, (found.get(sentAs) ?? false) || (price.credits !== null && !price.atMost));
      return found;
    }, new Map<string, boolean>());
    // A class of bodies is sent where one has an exact price, or where a marker can make its jobs fail (charged nothing).
    const markable = prompt && markers.failed !== undefined && !outlasting;
    const inputs = [...classes]
      .filter(([, exactPrice]) => exactPrice || markable)
      .map(([input]) => `input=${input}` as Condition);
    const exact = [...classes.values()].some(Boolean);
    const outcomes: Condition[] = [
      ...(exact ? (["outcome=none"] as const) : []),
      ...(markable ? (["outcome=failed"] as const) : []),
      ...(markable && markers.timeout ? (["outcome=timeout"] as const) : []),
    ];
    const sendable = outcomes.length > 0;
    // A route's own rules are observed in each outcome where its price is held or its failures count towards a cooldown; the others in any.
    const perOutcome = op.create?.priceHeld === true || op.create?.family !== null;
    // A job that outlasts the phase is started by the first key only (tour.ts).
    const parties: Condition[] = ["plan=paid", ...keys(outlasting ? home.slice(0, 1) : home)];
    if (sendable) {
      add(kindRules("create"), [model, ...outcomes, ...inputs, ...parties]);
      // A drawn body may be one the route refuses for a reason of its own (a mode its fields leave): the route's rules count the other inputs.
      const named = inputs.filter((input) => input !== "input=drawn");
      add(routeRules(op, "create"), [model, ...(perOutcome ? outcomes : []), ...named, ...parties]);
    }
    if (prompt && markers.moderation && !outlasting) add(RULE_RULES["outcome-marker"]!, [model, "outcome=moderation"]);
    if (steps.free) add(RULE_RULES["plan-gate"]!, [model, "plan=free"]);
    if (declaredCap !== undefined && declaredCap < phase.openJobs) add(RULE_RULES.concurrency!, keys(home));
    if (!sendable) continue;
    const poll = contract.pollOf(op)!;
    // A job that outlasts the phase is seen running only: its end and what follows are not.
    const moments: Condition[] = outlasting ? ["moment=soon"] : ["moment=soon", "moment=end", "moment=later"];
    add(kindRules("poll"), [model, ...moments, ...outcomes, "account=same", ...parties]);
    add(routeRules(poll, "poll"), [model, ...moments, ...(perOutcome ? outcomes : []), "account=same", ...parties]);
    if (otherPaid) add(RULE_RULES[OWNERSHIP]!, [model, "account=other", "plan=paid"]);
    if (steps.free) add(RULE_RULES["plan-gate"]!, [model, "account=other", "plan=free"]);
  }
  const others: Array<[StepKind, string | undefined]> = [
    ["credits", "getAccountCredits"],
    ["quote", config.costRequest ? "quoteCost" : undefined],
    ["upload", config.uploadRequest ? "createUpload" : undefined],
    ["post", "createPost"],
  ];
  for (const [kind, operationId] of others) {
    const op = operationId ? steps.op(operationId) : undefined;
    if (!op) continue;
    add(observedRules(kind, op, "handler"), ["plan=paid", ...keys(home)]);
    if (steps.free) add(RULE_RULES["plan-gate"]!, ["plan=free"]);
  }
  for (const op of phase.session.selected().filter((candidate) => candidate.facts.freePlan))
    add(observedRules("search", op, "handler"), [
      "plan=paid",
      ...keys(home),
      ...(steps.free ? (["plan=free"] as const) : []),
    ]);
  return applicable;
}
