/**
 * What the phase can observe, given what the target declares: for each rule, the conditions a step
 * can observe it in (coverage.ts counts them). An answer observes the rules of what decided it: a
 * refusal its rule's (RULE_RULES: the Free plan's gate, another account's job, a moderation block,
 * the cap), any other its kind's and its route's.
 */
import { hasPrompt } from "../requests.ts";
import type { Steps } from "./commands.ts";
import { withDeclaredMedia } from "./inputs.ts";
import type { Party } from "./parties.ts";
import { observedRules, OWNERSHIP, RULE_RULES, type Condition, type StepKind } from "./steps.ts";

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
  const cap = phase.openJobs <= 10 && (phase.home === "main" ? config.concurrency : config.otherAccount?.concurrency);
  const otherPaid = phase.parties.all.some((party) => party.plan === "paid" && party.account !== phase.home);
  for (const op of steps.creates()) {
    const model: Condition = `model=${op.create!.label}`;
    const prompt = hasPrompt(op);
    const outcomes: Condition[] = [
      "outcome=none",
      ...(prompt && markers.failed ? (["outcome=failed"] as const) : []),
      ...(prompt && markers.timeout ? (["outcome=timeout"] as const) : []),
    ];
    const inputs: Condition[] = [
      ...(op.requestExamples.length ? (["input=example"] as const) : []),
      ...(op.requestSchema ? (["input=drawn"] as const) : []),
      ...(withDeclaredMedia(
        config,
        phase.session.contract,
        op,
        (op.requestExamples[0]?.value ?? {}) as Record<string, unknown>,
        0,
      ).declared
        ? (["input=declared-media"] as const)
        : []),
    ];
    add(observedRules("create", op, "handler"), [model, ...outcomes, ...inputs, "plan=paid", ...keys(home)]);
    if (prompt && markers.moderation) add(RULE_RULES["outcome-marker"]!, [model, "outcome=moderation", ...keys(home)]);
    if (steps.free) add(RULE_RULES["plan-gate"]!, [model, "plan=free"]);
    if (cap) add(RULE_RULES.concurrency!, keys(home));
    const poll = phase.session.contract.pollOf(op)!;
    const moments: Condition[] = ["moment=soon", "moment=end", "moment=later"];
    add(observedRules("poll", poll, "handler"), [
      model,
      ...moments,
      ...outcomes,
      "account=same",
      "plan=paid",
      ...keys(home),
    ]);
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
