/**
 * Generated requests (property-based, fast-check): for every operation with a request body,
 * near-miss negatives, each of which must be refused with 400, and valid bodies drawn across the
 * whole schema, each of which must be accepted or refused for a documented reason. Seeded (the
 * seed is printed on every run and `--seed` repeats it); a failure is shrunk to a minimal request,
 * reported with the seed and a curl line. What may be sent without cost is generation/plan.ts.
 */
import fc from "fast-check";
import type { Check } from "../check.ts";
import { requestPath } from "../../contract/contract.ts";
import type { Exchange, RequestSpec } from "../http.ts";
import { chargedJob } from "../jobs.ts";
import { priceOf } from "../cost.ts";
import { sendInvalid } from "../requests.ts";
import type { Session } from "../session.ts";
import { sendCoverage } from "../generation/coverage.ts";
import type { NegativeCase } from "../generation/generated.ts";
import type { Body } from "../../contract/bodies/near-misses.ts";
import { planOf, type OperationPlan, type Plan } from "../generation/plan.ts";
import { negativeProblems, positiveProblems } from "../generation/verdicts.ts";

const GROUP = "generated-requests";

/** Requests a shrink may send per failure: enough to reach a small body, bounded for a slow target. */
const SHRINK_SENDS = 40;

interface Verdict {
  spec: RequestSpec;
  problems: string[];
}

/**
 * Runs `property` over `arbitrary` with the operation's seed; on a failure, returns the minimal
 * failing case fast-check shrank to, with its verdict. A property that throws (the run stopped, a
 * wait past the time limit) ends the search without counting as a failure of the target.
 */
async function search<T>(
  plan: Plan,
  operation: OperationPlan,
  arbitrary: fc.Arbitrary<T>,
  judge: (value: T, shrinking: boolean) => Promise<Verdict | null>,
): Promise<{ failure?: { value: T; verdict: Verdict; shrinks: number }; stopped?: string }> {
  const verdicts = new Map<string, Verdict>();
  // After the first failure every run is a shrink step.
  let shrinking = false;
  let shrinkSends = 0;
  let stopped: string | undefined;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      if (stopped || (shrinking && shrinkSends++ >= SHRINK_SENDS)) return true;
      try {
        const verdict = await judge(value, shrinking);
        // Stryker disable next-line ConditionalExpression: a null verdict passes, so its value is never the counterexample looked up
        if (verdict) verdicts.set(JSON.stringify(value), verdict);
        if (verdict?.problems.length) shrinking = true;
        return !verdict || verdict.problems.length === 0;
      } catch (error) {
        stopped = (error as Error).message;
        return true;
      }
    }),
    { seed: operation.seed, numRuns: plan.cases, endOnFailure: false },
  );
  const value = details.counterexample?.[0];
  // Stryker disable next-line ConditionalExpression: no value has the key JSON.stringify(undefined)
  const verdict = value === undefined ? undefined : verdicts.get(JSON.stringify(value));
  return {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a counterexample always has its verdict (only a judged one fails), and none has none
    ...(value !== undefined && verdict ? { failure: { value, verdict, shrinks: details.numShrinks } } : {}),
    ...(stopped ? { stopped } : {}),
  };
}

const repeat = (plan: Plan): string => `seed ${plan.seed}, --cases ${plan.cases}: --seed ${plan.seed} repeats it`;

async function negatives(session: Session, plan: Plan, operation: OperationPlan): Promise<void> {
  const { op } = operation;
  if (operation.withheld.length) {
    const reasons = [...new Set(operation.withheld.map((entry) => entry.reason))].map((reason) => {
      const rules = operation.withheld.filter((entry) => entry.reason === reason).map((entry) => entry.miss.rule);
      return `${reason}: ${rules.length}, e.g. ${rules[0]}`;
    });
    session.results.skip(
      GROUP,
      op.route,
      `near-miss negatives not sent (${operation.withheld.length})`,
      reasons.join("; "),
    );
  }
  await sendCoverage(session, GROUP, operation);
  if (!operation.negatives) return;
  const client = session.negatives;
  const path = requestPath(session.contract, op);
  const outcome = await search(plan, operation, operation.negatives, async (negative: NegativeCase) => {
    const exchange = await sendInvalid(session, client, op, {
      method: op.method,
      path,
      headers: client.authorized(),
      body: negative.body,
    });
    return { spec: exchange.request, problems: negativeProblems(session, op, exchange) };
  });
  const name = `near-miss negatives refused with 400 (${plan.cases} cases, seed ${plan.seed})`;
  if (outcome.failure) {
    const { value, verdict, shrinks } = outcome.failure;
    const detail = `${value.miss.kind} ${value.miss.rule}: ${verdict.problems.join("; ")} (shrunk in ${shrinks} steps; ${repeat(plan)})`;
    session.results.fail(
      GROUP,
      op.route,
      `near-miss negative refused: ${value.miss.kind}`,
      detail,
      session.curl(verdict.spec),
    );
  } else if (outcome.stopped) session.results.skip(GROUP, op.route, name, `stopped: ${outcome.stopped}`);
  else session.results.pass(GROUP, op.route, name);
}

async function positives(session: Session, plan: Plan, operation: OperationPlan): Promise<void> {
  const { op } = operation;
  if (operation.positivesSkipped)
    session.results.skip(GROUP, op.route, "generated valid requests", operation.positivesSkipped);
  if (!operation.positives || (operation.charged && operation.admitted.size === 0)) return;
  const client = session.main;
  const path = requestPath(session.contract, op);
  const send = async (spec: RequestSpec, credits: number | null): Promise<Exchange> =>
    operation.charged
      ? chargedJob(client, op, spec, credits, (created) => created.exchange)
      : client.send(op, spec, { positive: true });
  const outcome = await search(plan, operation, operation.positives, async (body: Body, shrinking) => {
    const spec: RequestSpec = { method: op.method, path, headers: client.authorized(), body };
    const price = priceOf(session.contract, op, body);
    if (operation.charged) {
      const admitted = !shrinking && operation.admitted.has(JSON.stringify(body));
      // A shrink step that would start a job is paid from what the admitted positives left, or not sent.
      if (!admitted && (!shrinking || price.credits === null || price.credits > plan.shrinkCredits)) return null;
      if (!admitted) plan.shrinkCredits -= price.credits as number;
    }
    const exchange = await send(spec, price.atMost ? null : price.credits);
    return { spec, problems: positiveProblems(session, op, body, exchange) };
  });
  const name = `generated valid requests accepted or refused for a documented reason (${plan.cases} cases, seed ${plan.seed})`;
  if (outcome.failure) {
    const { verdict, shrinks } = outcome.failure;
    session.results.fail(
      GROUP,
      op.route,
      "generated valid request",
      `${verdict.problems.join("; ")} (shrunk in ${shrinks} steps; ${repeat(plan)})`,
      session.curl(verdict.spec),
    );
  } else if (outcome.stopped) session.results.skip(GROUP, op.route, name, `stopped: ${outcome.stopped}`);
  else session.results.pass(GROUP, op.route, name);
}

/** The check; `others` gives the other registered checks, whose estimate the budget covers first. */
export function generatedRequests(others: () => readonly Check[]): Check {
  const plan = (session: Session): Plan => planOf(session, () => others().filter((check) => check.group !== GROUP));
  return {
    group: GROUP,
    summary:
      "Near-miss negatives generated from each request schema (a sibling model's value, one past a bound, one item too many, another case, excluded fields together, null, a wrong type, a media input inlined where only URLs are taken) are refused with 400; valid bodies drawn across the schema are accepted or refused for a documented reason. Seeded (--seed), --cases per operation.",
    rules: {
      "near-miss negatives not sent ({count})": ["route:*.body.*"],
      "near-miss negatives refused with 400 ({cases})": [
        "route:*.body.*",
        "endpoints.enums-ranges-exact",
        "errors.400-model-not-available",
        "service.input-media-forms",
        "service.video-audio-by-url",
      ],
      "near-miss negatives refused with 400: every kind once per field ({cases})": [
        "route:*.body.*",
        "endpoints.enums-ranges-exact",
        "errors.400-model-not-available",
        "service.input-media-forms",
        "service.video-audio-by-url",
      ],
      "near-miss negative refused: {kind}": [
        "route:*.body.*",
        "endpoints.enums-ranges-exact",
        "errors.400-model-not-available",
        "service.input-media-forms",
        "service.video-audio-by-url",
      ],
      "generated valid requests": ["route:*.body.*"],
      "generated valid request": ["route:*.body.*"],
      "generated valid requests accepted or refused for a documented reason ({cases})": ["route:*.body.*"],
    },
    spend: (session) => plan(session).spend,
    prepare: (session) => void plan(session),
    async run({ session, status }) {
      const current = plan(session);
      session.progress(
        `${GROUP}: seed ${current.seed}, ${current.cases} cases per operation and kind (--seed ${current.seed} repeats them)`,
      );
      status(`${current.operations.length} operations`);
      await Promise.all(
        current.operations.map(async (operation) => {
          await negatives(session, current, operation);
          await positives(session, current, operation);
        }),
      );
    },
  };
}
