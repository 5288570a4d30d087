/** Faults of billing: what is charged, when, and what the balance and the create responses show. */
import { quoteRoute } from "../../../runtime/costs/quote.ts";
import { handlersFor } from "../../../behaviour/handlers.ts";
import type { Call } from "../../../behaviour/rules.ts";
import type { Answer } from "../../../sandbox/server.ts";
import { bodyOf, isCreate, onPolledJob, when, type Fault } from "./support.ts";

const isModelList = (answer: Answer, call: Call | undefined): boolean =>
  call?.op.operationId === "listModels" && answer.status === 200;

/** The model list's answer with each object's price map `key` changed by `change` (deleted where it gives undefined). */
const changeMaps = (
  answer: Answer,
  key: string,
  change: (map: Record<string, number>) => Record<string, number> | undefined,
): Answer => {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== "object" || value === null) return value;
    const object = Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [name, name === key ? inner : walk(inner)]),
    );
    if (key in object) {
      const changed = change(object[key] as Record<string, number>);
      if (changed === undefined) delete object[key];
      else object[key] = changed;
    }
    return object;
  };
  return { ...answer, body: walk(answer.body) };
};

export const BILLING_FAULTS = {
  "charge-on-failure": {
    breaks: ["states.failed", "service.charged-only-on-success"],
    bug: "failed and timed-out jobs are charged their price",
    answer: onPolledJob(
      (status, state) => state.model.jobStatus.failure.includes(status),
      (job, account, seenBefore) => seenBefore || account.ledger.charge(job.credits),
    ),
  },

  "moderation-charged": {
    breaks: ["service.charged-only-on-success"],
    bug: "a request blocked by moderation is charged its price",
    answer: when(
      (answer, call, state) =>
        isCreate(call) && answer.status === 400 && state.model.errors.moderation.reasonField in bodyOf(answer),
      (answer, call, state) => {
        const quote = quoteRoute(state.priceTables, call!.op.path, call!.body ?? {});
        call!.account!.ledger.charge(quote.credits ?? 0);
        return answer;
      },
    ),
  },
  "reservation-not-shown": {
    breaks: ["states.lip-sync-reserves-quote", "states.3d-credits-held"],
    bug: "the credits available do not subtract the prices held for running jobs",
    answer: when(
      (answer, call, state) => call?.op.operationId === state.model.account.creditsOperationId && answer.status === 200,
      (answer, call, state) => {
        const balance = call!.account!.ledger.balance();
        return {
          ...answer,
          body: { ...bodyOf(answer), [state.model.account.availableField]: balance.monthlyRemaining + balance.extra },
        };
      },
    ),
  },
  "search-not-charged": {
    breaks: ["routes.stock-images", "routes.stock-sound-effects", "routes.stock-music"],
    bug: "stock searches, priced per request, are not charged",
    answer: when(
      (answer, call) => answer.status === 200 && call?.quote?.charged === "per-request",
      (answer, call) => {
        call!.account!.ledger.charge(-(call!.quote!.credits ?? 0));
        return answer;
      },
    ),
  },
  "credits-figure-off": {
    breaks: ["resources.create-response.credits-and-seconds", "resources.create-response.3d-credits"],
    bug: "the create response's credits is one more than the price",
    answer: when(
      (answer, call, state) =>
        isCreate(call) && answer.status === 200 && typeof bodyOf(answer)[state.model.account.priceField] === "number",
      (answer, _call, state) => ({
        ...answer,
        body: {
          ...bodyOf(answer),
          [state.model.account.priceField]: Number(bodyOf(answer)[state.model.account.priceField]) + 1,
        },
      }),
    ),
  },
  "charged-per-poll": {
    breaks: ["states.charged-on-succeeded"],
    bug: "the charge sits in the poll handler: a succeeded job is charged again on every later poll that shows it succeeded",
    answer: onPolledJob(
      (status, state) => status === state.model.jobStatus.success,
      (job, account, seenBefore) => seenBefore && account.ledger.charge(job.credits),
    ),
  },

  "hold-not-released": {
    breaks: ["states.3d-credits-held", "states.lip-sync-reserves-quote"],
    bug: "a held price (lip sync, 3D) is charged when its job succeeds but never released, so it stays unavailable",
    answer: onPolledJob(
      (status, state) => status === state.model.jobStatus.success,
      (job, account, seenBefore) => job.held && !seenBefore && account.ledger.reserve(job.credits, true),
    ),
  },

  "timeout-charged": {
    breaks: ["states.timeout", "service.charged-only-on-success"],
    bug: "a timed-out job is charged its price (only failures are refunded)",
    answer: onPolledJob(
      (status, state) => status === state.model.jobStatus.timeout,
      (job, account, seenBefore) => seenBefore || account.ledger.charge(job.credits),
    ),
  },

  "billed-seconds-rounded-down": {
    breaks: ["resources.create-response.credits-and-seconds", "lip-sync.price"],
    bug: "the create response's billed seconds are rounded down while its credits are rounded up",
    answer: when(
      (answer, call, state) =>
        isCreate(call) &&
        answer.status === 200 &&
        typeof bodyOf(answer)[state.model.account.billedSecondsField] === "number",
      (answer, _call, state) => ({
        ...answer,
        body: {
          ...bodyOf(answer),
          [state.model.account.billedSecondsField]: Number(bodyOf(answer)[state.model.account.billedSecondsField]) - 1,
        },
      }),
    ),
  },

  "models-type-filter-ignored": {
    breaks: ["3d.models-type-filter"],
    bug: "the model list ignores its type filter: GET /v1/models?type=3d lists every model",
    answer: when(
      (answer, call) => isModelList(answer, call) && call!.query.has("type"),
      (answer, call, state) => ({
        ...answer,
        body: handlersFor([call!.op]).get(call!.op.operationId)!({ ...call!, query: new URLSearchParams() }, state)
          .body,
      }),
    ),
  },
  "models-size-pricing-stale": {
    breaks: ["depth-maps.models-entry", "service.models-list-current-prices", "versioning.prices-from-models"],
    bug: "the model list shows the depth-map model's size_pricing with base at an old price (one credit more)",
    answer: when(isModelList, (answer) =>
      changeMaps(answer, "size_pricing", (map) => ("base" in map ? { ...map, base: map.base! + 1 } : map)),
    ),
  },
  "models-resolution-pricing-missing": {
    breaks: ["videos.priced-per-second", "service.models-list-current-prices"],
    bug: "the model list leaves out resolution_pricing",
    answer: when(isModelList, (answer) => changeMaps(answer, "resolution_pricing", () => undefined)),
  },
} satisfies Record<string, Fault>;
