/**
 * What the generated requests of a run may send, decided once per run before anything is sent.
 *
 * Negatives are free when refused, so they are sent with or without outcome markers, as the static
 * negatives are (requests.ts, sendInvalid): every near-miss kind once per field first (the coverage
 * cases), then the seeded ones. A negative that could start a job (a create on a stateful target)
 * carries the declared `outcomeMarkers.failed` (else `timeout`) in its prompt where it has one and
 * the near miss is not on it: its job ends unsuccessful, and the specification charges only
 * success. The estimate states what the others could cost if a target wrongly accepted them all.
 *
 * Positives that start jobs cost credits: they come out of what `budgetCredits` leaves after the
 * other checks' estimate, in a fixed order (operation, then case), each at its standard price (an
 * upper bound where media durations decide it); those that do not fit, or have no price shown, are
 * skipped with the reason, and whatever the admitted ones leave pays for shrinking a failing one.
 * A stateless target (the mock) starts no jobs and charges nothing.
 */
import type fc from "fast-check";
import type { Check } from "../check.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { priceOf, total, type PlannedSpend } from "../cost.ts";
import { markedInvalid } from "../requests.ts";
import type { Session } from "../session.ts";
import { unstatedRejection } from "../unstated.ts";
import {
  coverageCases,
  drawn,
  effectiveNearMisses,
  negativeArbitrary,
  operationSeed,
  positiveArbitrary,
  resolveSettings,
  type NegativeCase,
} from "./generated.ts";
import type { Body, NearMiss } from "../../contract/bodies/near-misses.ts";

export interface OperationPlan {
  readonly op: ContractOperation;
  readonly seed: number;
  readonly negatives?: fc.Arbitrary<NegativeCase>;
  /** Every near-miss kind once per field, sent before the seeded negatives. */
  readonly coverage: readonly NegativeCase[];
  /** Near misses not sent, each with why. */
  readonly withheld: ReadonlyArray<{ miss: NearMiss; reason: string }>;
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
const shapeNotShown = (op: ContractOperation): boolean =>
  Boolean((op.requestSchema?.["x-not-shown"] as Record<string, unknown> | undefined)?.["request-schema"]);

/**
 * A create's positives limited to bodies with a shown price, where the examples show one: leaving
 * out a field the price reads (whose default is not shown) would leave the request unpriced.
 */
function priced(
  session: Session,
  op: ContractOperation,
  positives: fc.Arbitrary<Body> | undefined,
): fc.Arbitrary<Body> | undefined {
  const known = (body: unknown): boolean => priceOf(session.contract, op, body as Body).credits !== null;
  if (!positives || op.facts.kind !== "create" || !op.requestExamples.some((example) => known(example.value)))
    return positives;
  return positives.filter(known);
}

function operationPlan(session: Session, op: ContractOperation, seed: number): OperationPlan {
  const { contract, config } = session;
  const charged = op.facts.kind === "create" && config.stateful;
  const withheld: Array<{ miss: NearMiss; reason: string }> = [];
  const sendable = effectiveNearMisses(contract, op).filter((miss) => {
    const reason = unstatedRejection(op, config.describedShapes, miss.fields[0]);
    if (reason) withheld.push({ miss, reason });
    return reason === null;
  });
  return {
    op,
    seed: operationSeed(seed, op),
    ...(sendable.length ? { negatives: negativeArbitrary(contract, op, sendable) } : {}),
    coverage: coverageCases(contract, op, sendable),
    withheld,
    ...(op.requestSchema ? { positives: priced(session, op, positiveArbitrary(contract, op)) } : {}),
    admitted: new Set(),
    charged,
  };
}

/**
 * The most the run's near-miss negatives could cost on a target that wrongly accepted every one of
 * them and charged it its standard price: those that cannot carry the failed-outcome marker, and
 * all of them where none is declared. One line for the estimate, or none when no negative can start a job.
 */
export function nearMissRisk(session: Session): string | undefined {
  const plan = plans.get(session);
  if (!plan) return undefined;
  const creates = plan.operations
    .filter((operation) => operation.charged)
    .flatMap((operation) => [
      ...operation.coverage.map((negative) => ({ operation, body: negative.body })),
      ...(operation.negatives
        ? drawn(operation.negatives, operation.seed, plan.cases).map((negative) => ({ operation, body: negative.body }))
        : []),
    ]);
  if (creates.length === 0) return undefined;
  const unmarked = creates.filter(({ operation, body }) => {
    const spec = { method: operation.op.method, path: operation.op.path, headers: {}, body };
    return markedInvalid(session, operation.op, spec) === spec;
  });
  const figure = total(
    unmarked.map(({ operation, body }) => ({
      key: session.negatives.name,
      what: operation.op.route,
      price: priceOf(session.contract, operation.op, body),
    })),
  );
  const unpriced = figure.unpriced.length ? ` (and ${figure.unpriced.length} whose price is not shown)` : "";
  return `  near-miss negatives: ${creates.length} creates, which should all be refused; ${creates.length - unmarked.length} carry the failed-outcome marker; a target wrongly accepting the other ${unmarked.length} could charge up to ${figure.credits.toLocaleString("en")} credits${unpriced}`;
}

/** Admits the positives that start jobs, in order, within `left` credits; returns what they spend. */
function admit(session: Session, plan: Plan, left: number | null): PlannedSpend[] {
  const spend: PlannedSpend[] = [];
  let available = left ?? 0;
  for (const operation of plan.operations) {
    if (!operation.charged || !operation.positives) continue;
    if (left === null) {
      operation.positivesSkipped =
        "generated positives start jobs, which cost credits: declare budgetCredits (or --budget) to send them";
      continue;
    }
    const skipped: string[] = [];
    for (const body of drawn(operation.positives, operation.seed, plan.cases)) {
      const price = priceOf(session.contract, operation.op, body);
      if (price.credits === null) skipped.push(`no price shown (${price.reason})`);
      else if (price.credits > available)
        skipped.push(`${price.credits} credits, past what budgetCredits leaves (${available})`);
      else {
        available -= price.credits;
        operation.admitted.add(JSON.stringify(body));
        spend.push({ key: session.main.name, what: `${operation.op.route} (a generated request)`, price });
      }
    }
    if (skipped.length)
      operation.positivesSkipped = `${skipped.length} of ${plan.cases} not sent: ${[...new Set(skipped)].join("; ")}`;
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
  const operations = session
    .selected()
    .filter((op) => op.requestSchema && !shapeNotShown(op))
    .map((op) => operationPlan(session, op, seed));
  plan = { seed, cases, operations, shrinkCredits: 0, spend: [] };
  const budget = session.config.budgetCredits;
  const othersSpend = others()
    .filter((check) => !check.spendsWhatIsLeft && session.runs(check.group) && !check.blockedBy?.(session))
    .flatMap((check) => check.spend?.(session) ?? []);
  plan.spend.push(...admit(session, plan, budget === null ? null : budget - total(othersSpend).credits));
  plans.set(session, plan);
  return plan;
}
