/**
 * Faults of a plan's prices, model discounts and the daily free pool of qualified image models
 * (behaviour/plans.ts), and of the quotes of `POST /v1/cost`.
 */
import type { AccountConfig, SandboxConfig } from "../../../sandbox/config.ts";
import { handlersFor } from "../../../behaviour/handlers.ts";
import { PlanPrices } from "../../../behaviour/plans.ts";
import type { Call } from "../../../behaviour/rules.ts";
import type { Answer } from "../../../sandbox/server.ts";
import { bodyOf, when, wrap, type Fault } from "./support.ts";

const isQuote = (answer: Answer, call: Call | undefined): boolean =>
  call?.op.operationId === "quoteCost" && answer.status === 200;

/** The config with every account's daily free pool changed by `change`. */
const pools =
  (change: (pool: NonNullable<AccountConfig["dailyFreePool"]>) => AccountConfig["dailyFreePool"]) =>
  (config: SandboxConfig): SandboxConfig => ({
    ...config,
    accounts: Object.fromEntries(
      Object.entries(config.accounts).map(([name, account]) => [
        name,
        { ...account, dailyFreePool: account.dailyFreePool && change(account.dailyFreePool) },
      ]),
    ),
  });

export const PLAN_FAULTS = {
  "discount-not-applied": {
    breaks: ["service.discounts-apply-to-api"],
    bug: "a plan's model discounts are shown in the dashboard but API creates are charged the standard price",
    rules: wrap("plan-price", (original) => (call, state) => {
      const standard = call.quote;
      const answer = original(call, state);
      if (!call.free) call.quote = standard;
      return answer;
    }),
  },
  "free-pool-web-only": {
    breaks: ["service.daily-free-allowance", "service.free-pool-covers-api"],
    bug: "the daily free-models pool covers the web application's generations only: API creates are charged from the first",
    config: pools(() => null),
  },
  "free-pool-never-used-up": {
    breaks: ["service.standard-price-after-pool"],
    bug: "the day's pool is never counted down: every create of a qualified model stays free",
    config: pools((pool) => ({ ...pool, generations: 1_000_000 })),
  },
  "free-pool-per-model": {
    breaks: ["service.standard-price-after-pool"],
    bug: "each qualified model has a pool of its own rather than one shared pool across them",
    config: pools((pool) => ({ ...pool, generations: pool.generations * pool.models.length })),
  },
  "cost-quote-without-min-seconds": {
    breaks: ["depth-maps.cost-fields"],
    bug: "a depth-map quote leaves out min_seconds",
    answer: when(isQuote, (answer) => {
      const { min_seconds: _left, ...body } = bodyOf(answer);
      return { ...answer, body };
    }),
  },
  "cost-quote-rate-only-with-seconds": {
    breaks: ["depth-maps.cost-fields"],
    bug: "a depth-map quote gives credits_per_second only when seconds are sent, as if the rate needed them",
    answer: when(
      (answer, call) => isQuote(answer, call) && (call!.body as { seconds?: unknown }).seconds === undefined,
      (answer) => {
        const { credits_per_second: _left, ...body } = bodyOf(answer);
        return { ...answer, body };
      },
    ),
  },
  "cost-quote-ignores-discount": {
    breaks: ["service.cost-quotes-discounted-price"],
    bug: "POST /v1/cost quotes the standard price, not the plan's discounted one that creates are charged",
    answer: when(isQuote, (answer, call, state) => {
      const account = Object.assign(Object.create(call!.account!), {
        plan: new PlanPrices({ discounts: {}, dailyFreePool: null }),
      });
      return { ...answer, body: handlersFor([call!.op]).get(call!.op.operationId)!({ ...call!, account }, state).body };
    }),
  },
} satisfies Record<string, Fault>;
