/**
 * What the generated requests of a run may send, decided once per run before anything is sent.
 *
 * Negatives are free when refused. So that one accepted by mistake cannot cost credits either, a
 * negative that could start a job (a create on a stateful target) carries the declared
 * `outcomeMarkers.failed` (else `timeout`) in its prompt: its job ends unsuccessful, and the
 * specification charges only success. Near misses that cannot carry a marker (no marker declared,
 * no prompt, or the near miss is on the prompt itself) are not sent, with the reason.
 *
 * Positives that start jobs cost credits: they come out of what `budgetCredits` leaves after the
 * other checks' estimate, in a fixed order (operation, then case), each at its standard price (an
 * upper bound where media durations decide it); those that do not fit, or have no price shown, are
 * skipped with the reason, and whatever the admitted ones leave pays for shrinking a failing one.
 * A stateless target (the mock) starts no jobs and charges nothing.
 */
import type fc from "fast-check";
import type { Check } from "../check.ts";
import type { ContractOperation } from "../contract.ts";
import { priceOf, total, type PlannedSpend } from "../cost.ts";
import { hasPrompt } from "../requests.ts";
import type { Session } from "../session.ts";
import { unstatedRejection } from "../unstated.ts";
import { drawn, effectiveNearMisses, negativeArbitrary, operationSeed, positiveArbitrary, resolveSettings, type NegativeCase } from "./generated.ts";
import type { Body, NearMiss } from "../bodies/near-misses.ts";

export interface OperationPlan {
  readonly op: ContractOperation;
  readonly seed: number;
  readonly negatives?: fc.Arbitrary<NegativeCase>;
  /** Near misses not sent, each with why. */
  readonly withheld: ReadonlyArray<{ miss: NearMiss; reason: string }>;
  /** The marker a negative's prompt carries, where it could start a job. */
  readonly marker?: string;
  readonly positives?: fc.Arbitrary<Body>;
  /** Why no positive is sent, or why some are not. */
  positivesSkipped?: string;
  /** Positives that start jobs: the ones admitted, by their JSON. */
  readonly admitted: Set<string>;
  /** Whether a positive starts a job that may be charged. */
  readonly charged: boolean;
}

export interface Plan {
  readonly seed: number;
  readonly cases: number;
  readonly operations: OperationPlan[];
  /** Credits the admitted positives leave, for shrinking a failing one; null: no budget declared. */
  shrinkCredits: number;
  /** The admitted positives' spend, for the estimate. */
  readonly spend: PlannedSpend[];
}

const plans = new WeakMap<Session, Plan>();

/** Where the request's shape is not shown, generated bodies test nothing the description states. */
const shapeNotShown = (op: ContractOperation): boolean => Boolean((op.requestSchema?.["x-not-shown"] as Record<string, unknown> | undefined)?.["request-schema"]);

/**
 * A create's positives limited to bodies with a shown price, where the examples show one: leaving
 * out a field the price reads (whose default is not shown) would leave the request unpriced.
 */
function priced(session: Session, op: ContractOperation, positives: fc.Arbitrary<Body> | undefined): fc.Arbitrary<Body> | undefined {
  const known = (body: unknown): boolean => priceOf(session.contract, op, body as Body).credits !== null;
  if (!positives || op.facts.kind !== "create" || !op.requestExamples.some((example) => known(example.value))) return positives;
  return positives.filter(known);
}

function operationPlan(session: Session, op: ContractOperation, seed: number): OperationPlan {
  const { contract, config } = session;
  const charged = op.facts.kind === "create" && config.stateful;
  const marker = config.outcomeMarkers.failed ?? config.outcomeMarkers.timeout;
  const withheld: Array<{ miss: NearMiss; reason: string }> = [];
  const sendable = effectiveNearMisses(contract, op).filter((miss) => {
    const unstated = unstatedRejection(op, miss.fields[0]);
    const reason = unstated ??
      (!charged ? null
        : !marker ? "accepted by mistake it would start a job that may be charged; declare outcomeMarkers.failed to send it marked to fail"
          : !hasPrompt(op) ? "accepted by mistake it would start a job that may be charged, and the request has no prompt to carry outcomeMarkers.failed"
            : miss.fields.includes("prompt") ? "it changes the prompt, which would carry outcomeMarkers.failed so that a job it starts by mistake is not charged"
              : null);
    if (reason) withheld.push({ miss, reason });
    return reason === null;
  });
  return {
    op,
    seed: operationSeed(seed, op),
    ...(sendable.length ? { negatives: negativeArbitrary(contract, op, sendable) } : {}),
    withheld,
    ...(charged && marker ? { marker } : {}),
    ...(op.requestSchema ? { positives: priced(session, op, positiveArbitrary(contract, op)) } : {}),
    admitted: new Set(),
    charged,
  };
}

/** Admits the positives that start jobs, in order, within `left` credits; returns what they spend. */
function admit(session: Session, plan: Plan, left: number | null): PlannedSpend[] {
  const spend: PlannedSpend[] = [];
  let available = left ?? 0;
  for (const operation of plan.operations) {
    if (!operation.charged || !operation.positives) continue;
    if (left === null) {
      operation.positivesSkipped = "generated positives start jobs, which cost credits: declare budgetCredits (or --budget) to send them";
      continue;
    }
    const skipped: string[] = [];
    for (const body of drawn(operation.positives, operation.seed, plan.cases)) {
      const price = priceOf(session.contract, operation.op, body);
      if (price.credits === null) skipped.push(`no price shown (${price.reason})`);
      else if (price.credits > available) skipped.push(`${price.credits} credits, past what budgetCredits leaves (${available})`);
      else {
        available -= price.credits;
        operation.admitted.add(JSON.stringify(body));
        spend.push({ key: session.main.name, what: `${operation.op.route} (a generated request)`, price });
      }
    }
    if (skipped.length) operation.positivesSkipped = `${skipped.length} of ${plan.cases} not sent: ${[...new Set(skipped)].join("; ")}`;
  }
  plan.shrinkCredits = available;
  return spend;
}

/**
 * The run's plan, made on first use. `others` are the other checks, whose estimate the budget
 * must cover first.
 */
export function planOf(session: Session, others: () => readonly Check[]): Plan {
  let plan = plans.get(session);
  if (plan) return plan;
  const { seed, cases } = resolveSettings(session.config.generated);
  const operations = session.selected().filter((op) => op.requestSchema && !shapeNotShown(op)).map((op) => operationPlan(session, op, seed));
  plan = { seed, cases, operations, shrinkCredits: 0, spend: [] };
  const budget = session.config.budgetCredits;
  const othersSpend = others()
    .filter((check) => session.runs(check.group) && !check.blockedBy?.(session))
    .flatMap((check) => check.spend?.(session) ?? []);
  plan.spend.push(...admit(session, plan, budget === null ? null : budget - total(othersSpend).credits));
  plans.set(session, plan);
  return plan;
}
