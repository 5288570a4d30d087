/**
 * A plan's prices, on the accounts the declaration names. A model discount (planDiscounts) applies to
 * API charges: a job of each discounted model is charged its standard price less the discount. The
 * day's free pool (freePool) covers API requests, shared across its image models: that many jobs
 * across them are charged nothing, and the next is charged its price. The specification states no
 * discount, pool size or qualified model, so the declaration gives them; nor does it state how a
 * discounted price is rounded, so either whole number next to the exact one is taken. Each account's
 * balance is read with no other charge of the suite running on it (the billing check's window).
 */
import type { Check } from "../check.ts";
import type { Client } from "../client.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { priceOf, quotedBody, type PlannedSpend } from "../cost.ts";
import type { RequestSpec } from "../http.ts";
import { createJob } from "../jobs.ts";
import { balanceOf, creditsOp, followable, validRequests } from "../requests.ts";
import type { Session } from "../session.ts";

const GROUP = "plan-prices";

/**
 * How long after a run used the pool the next one may not take it as unused: the pool is a day's,
 * and the specification does not say when a day begins, so a whole day.
 */
export const POOL_RENEWAL_MS = 24 * 60 * 60 * 1000;

const DISCOUNTED = "a create of {model} is charged its price less the plan's discount{percent}";
const POOL = "the day's free pool pays {count} creates across its models";
const AFTER_POOL = "once the day's pool is used, a create is charged its price";

interface Planned {
  readonly label: string;
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  /** The standard price, exact. */
  readonly standard: number;
}

/**
 * The cheapest create request of exact standard price of the model `label`, making one image where
 * the body says how many (a pool's generation is then one job, whatever it counts); or why there is none.
 */
function requestOf(session: Session, client: Client, label: string): Planned | string {
  const op = session.selected().find((candidate) => candidate.create?.label === label);
  if (!op) return `${label} is not implemented (models, areas)`;
  if (!followable(session, op)) return `${label}'s jobs cannot be followed (its create response names no id to poll)`;
  const one = (spec: RequestSpec): RequestSpec => {
    const body = { ...(spec.body as Record<string, unknown>), num_images: 1 };
    return "num_images" in (spec.body as object) && session.contract.validBody(op, body) ? { ...spec, body } : spec;
  };
  const found = validRequests(session, op, client, session.createExamples(op))
    .map((request) => one(request.spec))
    .map((spec) => ({ spec, price: priceOf(session.contract, op, quotedBody(spec)) }))
    .filter(({ price }) => price.credits !== null && !price.atMost)
    .sort((a, b) => (a.price.credits as number) - (b.price.credits as number))[0];
  return found
    ? { label, op, spec: found.spec, standard: found.price.credits as number }
    : `no create request of ${label} has an exact standard price`;
}

/** The prices a discount of `percent` may give `standard`: the exact one, or either whole number next to it. */
export function discounted(standard: number, percent: number): number[] {
  const exact = (standard * (100 - percent)) / 100;
  return [...new Set([Math.floor(exact), Math.ceil(exact)])];
}

/** Runs one job of `planned` to its end; the credits the balance fell by, or why they cannot be told. */
async function charged(session: Session, client: Client, planned: Planned): Promise<number | string> {
  const before = await balanceOf(session, client);
  if (typeof before === "string") return before;
  const created = await createJob(client, planned.op, planned.spec, "accept");
  if (!created.job)
    return `the create answered ${created.exchange.status} without a job to follow: ${created.exchange.text.slice(0, 200)}`;
  await created.job.ended;
  const success = session.contract.model.jobStatus.success;
  if (created.job.terminal !== success)
    return `its job ended ${created.job.terminal}, not ${success}, so nothing it would be charged can be seen`;
  const after = await balanceOf(session, client);
  return typeof after === "string" ? after : before - after;
}

const fell = (session: Session, credits: number): string =>
  `${session.contract.model.account.availableField} fell by ${credits}`;

async function discounts(session: Session): Promise<void> {
  const declared = session.config.planDiscounts!;
  const client = session.client(declared.apiKey);
  await client.charges.measure(async () => {
    for (const [label, percent] of Object.entries(declared.models)) {
      const name = `a create of ${label} is charged its price less the plan's discount (${percent} %)`;
      const planned = requestOf(session, client, label);
      if (typeof planned === "string") {
        session.results.skip(GROUP, "*", name, planned);
        continue;
      }
      const curl = session.curl(planned.spec);
      const credits = await charged(session, client, planned);
      if (typeof credits === "string") {
        session.results.fail(GROUP, planned.op.route, name, credits, curl);
        continue;
      }
      const expected = discounted(planned.standard, percent);
      session.results.expect(
        GROUP,
        planned.op.route,
        name,
        expected.includes(credits)
          ? []
          : [
              `${fell(session, credits)}; the standard price is ${planned.standard}, less ${percent} % ${expected.join(" or ")}`,
            ],
        curl,
      );
    }
  });
}

async function pool(session: Session): Promise<void> {
  const declared = session.config.freePool!;
  const client = session.client(declared.apiKey);
  const plans = declared.models.map((label) => requestOf(session, client, label));
  const missing = plans.find((planned): planned is string => typeof planned === "string");
  if (missing !== undefined) {
    session.results.skip(
      GROUP,
      "*",
      `the day's free pool pays ${declared.generations} creates across its models`,
      missing,
    );
    return;
  }
  const used = session.earlierFreePoolUse;
  // Stryker disable next-line ConditionalExpression: without an earlier use, Date.now() - undefined is NaN, never below a day, so the first test cannot be seen
  if (used !== undefined && Date.now() - used < POOL_RENEWAL_MS) {
    const reason = `an earlier run on this target used freePool's pool at ${new Date(used).toISOString()} (its report's freePoolUsedAt), and a day's pool may not be renewed for a day: declare a key whose pool is unused, or run this check a day later`;
    session.results.skip(
      GROUP,
      "*",
      `the day's free pool pays ${declared.generations} creates across its models`,
      reason,
    );
    session.results.skip(GROUP, "*", AFTER_POOL, reason);
    return;
  }
  const models = plans as Planned[];
  const nth = (index: number): Planned => models[index % models.length]!;
  // The price the key pays once the pool is used: its declared discount, where planDiscounts names the same key.
  const discount = (label: string): number =>
    session.config.planDiscounts?.apiKey === declared.apiKey ? (session.config.planDiscounts.models[label] ?? 0) : 0;
  await client.charges.measure(async () => {
    const name = `the day's free pool pays ${declared.generations} creates across its models`;
    const before = await balanceOf(session, client);
    if (typeof before === "string") return void session.results.fail(GROUP, "*", name, before);
    session.freePoolUsedAt = Date.now();
    for (let index = 0; index < declared.generations; index++) {
      const planned = nth(index);
      const credits = await charged(session, client, planned);
      const problem =
        typeof credits === "string"
          ? credits
          : credits !== 0
            ? `create ${index + 1} of ${declared.generations} (${planned.label}), which the pool should pay: ${fell(session, credits)}, its price is ${planned.standard}`
            : null;
      if (problem !== null)
        return void session.results.fail(GROUP, planned.op.route, name, problem, session.curl(planned.spec));
    }
    session.results.pass(GROUP, "*", name);
    const next = nth(declared.generations);
    const credits = await charged(session, client, next);
    const expected = discounted(next.standard, discount(next.label));
    session.results.expect(
      GROUP,
      next.op.route,
      AFTER_POOL,
      typeof credits === "string"
        ? [credits]
        : expected.includes(credits)
          ? []
          : [
              `after ${declared.generations} free creates, one of ${next.label}: ${fell(session, credits)}; its price is ${expected.join(" or ")}`,
            ],
      session.curl(next.spec),
    );
  });
}

export const planPrices: Check = {
  group: GROUP,
  rules: {
    [DISCOUNTED]: ["service.discounts-apply-to-api"],
    [POOL]: ["service.daily-free-allowance", "service.free-pool-covers-api"],
    [AFTER_POOL]: ["service.standard-price-after-pool"],
  },
  summary:
    "With planDiscounts: a job of each discounted model is charged its standard price less the declared discount. With freePool: the declared number of creates across the pool's models is charged nothing, and the next its price.",
  blockedBy(session) {
    if (!session.config.stateful) return "the target is stateless";
    if (!session.config.planDiscounts && !session.config.freePool)
      return "not declared: a key whose plan's model discounts are given (planDiscounts), or a key whose day's free pool is unused (freePool)";
    return creditsOp(session) ? null : "the target does not implement the credits route";
  },
  spend(session) {
    const spends: PlannedSpend[] = [];
    const { planDiscounts, freePool } = session.config;
    const add = (key: string, labels: readonly string[], what: string): void => {
      const client = session.client(key);
      for (const label of labels) {
        const planned = requestOf(session, client, label);
        if (typeof planned !== "string")
          spends.push({
            key: client.name,
            what: `${planned.op.route} (${what})`,
            price: { credits: planned.standard, atMost: false },
          });
      }
    };
    if (planDiscounts) add(planDiscounts.apiKey, Object.keys(planDiscounts.models), "plan discount, at most");
    // The most the pool's creates cost where the pool does not pay them.
    if (freePool)
      add(
        freePool.apiKey,
        Array.from(
          { length: freePool.generations + 1 },
          (_, index) => freePool.models[index % freePool.models.length]!,
        ),
        "free pool, at most",
      );
    return spends;
  },
  async run({ session, status }) {
    const { planDiscounts, freePool } = session.config;
    if (!planDiscounts)
      session.results.skip(
        GROUP,
        "*",
        "a create of a discounted model is charged its price less the plan's discount",
        "not declared: a key whose plan's model discounts are given (planDiscounts)",
      );
    if (!freePool)
      session.results.skip(
        GROUP,
        "*",
        "the day's free pool pays its creates across its models",
        "not declared: a key whose day's free pool is unused (freePool)",
      );
    status("charging jobs on the declared plans");
    await Promise.all([planDiscounts ? discounts(session) : undefined, freePool ? pool(session) : undefined]);
  },
};
