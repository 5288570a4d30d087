import { CHECK_GROUPS, CHECKS } from "../../../conformance/checks/index.ts";
import type { TargetConfig } from "../../../conformance/config.ts";
import { Contract } from "../../../contract/contract.ts";
import { Semaphore } from "../../../conformance/coordination.ts";
import type { CheckResult } from "../../../conformance/results.ts";
import { templateOf } from "../../../conformance/rules.ts";
import type { NearMissKind } from "../../../contract/bodies/near-misses.ts";
import { runConformance } from "../../../conformance/run.ts";
import { FIELD_CATCHES } from "../faults/fields.ts";
import { SELF_TEST_PER_SOURCE_IP } from "../faults/limits.ts";
import { CATCHES, faultNamed, hooksFor, type FaultName, type WrittenFaultName } from "../faults/registry.ts";
import { named, type CheckName } from "../faults/support.ts";
import { TERMINAL_REACHED } from "../faults/states.ts";
import { startSandbox } from "../../../sandbox/server.ts";
import { FAST_WINDOW_SECONDS, fastSandboxConfig } from "../../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./sandbox-declaration.ts";

const contract = new Contract();
/**
 * Rates for the models whose rates the description does not show, given to the sandbox and
 * declared alike, so that their prices are checked and their faults caught (the default sandbox
 * charges those models nothing, and its declaration gives no rates).
 */
export const SELF_TEST_RATES = {
  "V-B": { "480p": 20, "720p": 40, "1080p": 80 },
  "V-C": { "480p": 30, "720p": 50, "1080p": 70, "4k": 140 },
  "A-A": 12,
};
const declared: TargetConfig = { ...sandboxDeclaration(contract), rates: SELF_TEST_RATES };
const defaults = { ...sandboxDefaults(), rates: SELF_TEST_RATES };

export type { CheckName } from "../faults/support.ts";

/** The generated requests' failure for a near miss of `kind` accepted. */
const nearMiss = (kind: NearMissKind): CheckName =>
  named("generated-requests", "near-miss negative refused: {kind}", `near-miss negative refused: ${kind}`);
/** True when `result` was written from that check's declared name (and is that exact result, or one of those on that route, where given). */
export const isResultOf = (
  result: CheckResult,
  { group, check, result: exact, route, results }: CheckName,
): boolean => {
  const registered = CHECKS.find((candidate) => candidate.group === group);
  return (
    result.group === group &&
    registered !== undefined &&
    templateOf(registered, result.name) === check &&
    (exact === undefined || result.name === exact) &&
    (route === undefined || result.route === route) &&
    (results === undefined || results.includes(result.name))
  );
};

const BEYOND_THE_CAP = "a create beyond the cap{cap} is refused as queue full";
const AFTER_ZERO = "the request after {remaining} reached 0 gets the rate-limited 429";
const SOURCE_IP = "requests from one address past its per-IP limit get the rate-limited 429, whichever keys they carry";
const RETRY_AFTER_WHERE_SENT = "429 variant{prefer}: Retry-After exactly where the specification sends it";
const POLLS_MATCH = "every poll response matches the description{example}";
const REJECTS = "rejects a body breaking {constraint}";
const RETIRED = "a retired model answers {status} {code}";
const PRICE = "{price} with the price";
const PRICES = "{model}: each rate of the price table is charged its quote";
const MEDIA_SECONDS = "{model}: each second of {field} is charged";
const GROWS = "each further failure lengthens the pause by one step{step}";
const STOCK_PAGE = "a page holds at most {count} results, each with its credit line";
const DISCOUNTED = "a create of {model} is charged its price less the plan's discount{percent}";
const POOL = "the day's free pool pays {count} creates across its models";
const AFTER_POOL = "once the day's pool is used, a create is charged its price";
const HEADERS_MEAN = "{remaining} never exceeds {limit}, and {reset} counts seconds within the {seconds}-second window";

/** For each hand-written fault, the check written for the rule it breaks: it must fail. */
const WRITTEN_CAUGHT_BY: Record<WrittenFaultName, CheckName> = {
  "wrong-id-prefix": named("lifecycle", "valid request {name} accepted"),
  "wrong-id-prefix-one-route": named("lifecycle", "valid request {name} accepted"),
  "source-ip-limit-missing": named("source-ip-limit", SOURCE_IP),
  "rate-limit-one-past": named("rate-limits", AFTER_ZERO),
  "rejected-requests-not-counted": named("rate-limits", "{remaining} counts down by one per request{rejected}"),
  "remaining-off-by-one": named("rate-limits", AFTER_ZERO),
  "rate-limited-without-retry-after": named("rate-limits", RETRY_AFTER_WHERE_SENT),
  "retry-after-in-milliseconds": named("rate-limits", "the rate-limited 429's Retry-After is within {reset}"),
  "missing-rate-limit-header": named("lifecycle", POLLS_MATCH),
  "rate-limit-header-missing-one-route": named("operations", "valid request {name} accepted"),
  "queue-full-with-retry-after": named("concurrency", "the queue-full 429 carries no Retry-After"),
  "cap-one-short": named("concurrency", "no create is refused as queue full below the cap"),
  "cap-one-past": named("concurrency", BEYOND_THE_CAP),
  "polling-counts": named("concurrency", "polling never counts against the concurrency cap"),
  "charge-on-failure": named("billing", "a failed job is charged nothing"),
  "timeout-charged": named("billing", "a timed-out job is charged nothing"),
  "charged-per-poll": named("billing", "a succeeded job is charged exactly its quote"),
  "hold-not-released": named("billing", "a held price is charged when its job succeeds"),
  "moderation-charged": named("billing", "a request blocked by moderation is charged nothing"),
  "models-type-filter-ignored": named("model-prices", "the type filter 3d lists only models of type 3d"),
  "models-size-pricing-stale": named(
    "model-prices",
    "the model list shows {model}'s type and size_pricing at the standard prices",
  ),
  "models-resolution-pricing-missing": named(
    "model-prices",
    "the model list shows {model}'s resolution_pricing at the standard prices",
  ),
  "stock-page-one-past": named("stock-results", STOCK_PAGE),
  "stock-result-without-html-credit": named("stock-results", STOCK_PAGE),
  "moderation-without-reason": named(
    "billing",
    "{role}: the request is blocked",
    "a request blocked by moderation is charged nothing: the request is blocked",
  ),
  "reservation-not-shown": named("billing", "a held price is reserved when the job is created"),
  "search-not-charged": named("billing", "a search priced per request is charged its price"),
  "credits-figure-off": named("create-response", PRICE),
  "billed-seconds-rounded-down": named("create-response", PRICE, "credits and seconds agree with the price"),
  "wrong-initial-status": named("create-response", "the create response's status is the initial status"),
  "result-before-succeeded": named("lifecycle", "result fields exactly once succeeded{example}"),
  "status-after-terminal": named("lifecycle", "no return from a terminal state, terminal state stable{example}"),
  "unknown-status": named("lifecycle", POLLS_MATCH),
  "running-status-other-vocabulary": named("lifecycle", POLLS_MATCH),
  "accepts-invalid-body": named("request-validation", REJECTS),
  "unauthenticated-accepted": named("auth", "401 for {case}", "401 for no Authorization header"),
  "unknown-key-forbidden": named("auth", "401 for {case}", "401 for unknown bearer key"),
  "error-body-without-code": named("auth", "401 for {case}"),
  "errors-as-text": named("request-validation", REJECTS),
  "plan-gate-open": named("plan-gate", "403 for a Free-plan key"),
  "plan-gate-unauthorized": named("plan-gate", "403 for a Free-plan key"),
  "paid-plan-gated": named("lifecycle", "valid request {name} accepted"),
  "retired-model-served": named("retired-model", RETIRED),
  "retired-wrong-code": named("retired-model", RETIRED),
  "retired-model-forbidden": named("retired-model", RETIRED),
  "rate-limit-headers-swapped": named("rate-limits", HEADERS_MEAN),
  "reset-as-epoch-time": named("rate-limits", HEADERS_MEAN),
  "rate-limit-message-without-seconds": named(
    "rate-limits",
    "the rate-limited 429's message states the seconds to wait",
  ),
  "spend-limit-with-retry-after": named("spend-limit", "the spend-limit 429 carries no Retry-After"),
  "spend-limit-cleared-by-retry": named("spend-limit", "retrying does not clear the spend limit"),
  "cooldown-pauses-every-model": named("cooldown", "models outside the paused family are not paused"),
  "cooldown-after-two": named("cooldown", "creates are accepted until {count} consecutive failures"),
  "cooldown-after-four": named(
    "cooldown",
    "after {count} consecutive failures the family is paused with the cooldown 429",
  ),
  "cooldown-kept-after-success": named("cooldown", "a success clears the failures before it"),
  "cooldown-without-retry-after": named("cooldown", "the cooldown's Retry-After and seconds left agree with the pause"),
  "cooldown-does-not-grow": named("cooldown", GROWS),
  "cooldown-grows-twice-as-fast": named("cooldown", GROWS),
  "cooldown-forgets-failures-after-pause": named(
    "cooldown",
    "one more failure after the pause pauses the family again",
  ),
  "uploads-one-past": named("uploads-window", "{count} uploads per {seconds} s are accepted, the next is refused"),
  "enum-union-of-area": nearMiss("sibling-value"),
  "maximum-one-past": nearMiss("off-by-one"),
  "minimum-one-short": nearMiss("off-by-one"),
  "enum-case-insensitive": nearMiss("case-variant"),
  "max-items-one-past": nearMiss("one-too-many"),
  "required-null-accepted": nearMiss("required-null"),
  "numbers-as-strings": nearMiss("wrong-type"),
  "exclusive-fields-accepted": nearMiss("exclusive-pair"),
  "mode-needs-ignored": nearMiss("other-mode-value"),
  "media-forms-unchecked": nearMiss("other-form"),
  "upscale-input-length-unchecked": named(
    "media-limits",
    "refuses {field} of {measured}, past its {limit}",
    "refuses video of 25 s, past its most of 20 s",
    "POST /v1/video-upscales/vu-a",
  ),
  "input-plus-output-length-unchecked": named(
    "media-limits",
    "refuses {field} of {measured} with {other} of {value}, past their most of {limit} together",
    "refuses reference_videos of 3 s with length_seconds of 28, past their most of 30 s together",
    "POST /v1/videos/v-b",
  ),
  "discount-not-applied": named("plan-prices", DISCOUNTED),
  "free-pool-web-only": named("plan-prices", POOL),
  "free-pool-never-used-up": named("plan-prices", AFTER_POOL),
  "free-pool-per-model": named("plan-prices", AFTER_POOL),
  "cost-quote-without-min-seconds": named(
    "cost-quotes",
    "a depth-map quote with seconds carries credits_per_second, size_pricing, min_seconds and credits{example}",
  ),
  "cost-quote-rate-only-with-seconds": named(
    "cost-quotes",
    "a depth-map quote without seconds still carries credits_per_second, size_pricing and min_seconds{example}",
  ),
  "cost-quote-ignores-discount": named(
    "cost-quotes",
    "a depth-map quote on a discounted plan is the standard price less the discount{example}",
  ),
  "i-a-tier-at-another-price": named("prices", PRICES),
  "billed-for-one-image": named("prices", "{model}: the price is charged per {field}"),
  "i-b-input-image-charged": named("prices", "{model}: the inputs the price does not name are free"),
  "i-a-reference-images-charged": named("prices", "{model}: the inputs the price does not name are free"),
  "v-a-reference-image-surcharge-missing": named(
    "prices",
    "{model}: each of {field} beyond the first {free} is charged",
  ),
  "d-b-rigging-not-added": named("prices", "{model}: the held price adds {fields}"),
  "v-a-input-video-free": named("prices", MEDIA_SECONDS, "V-A: each second of video is charged"),
  "v-a-reference-videos-free": named("prices", MEDIA_SECONDS, "V-A: each second of reference_videos is charged"),
  "depth-map-minimum-missing": named("prices", MEDIA_SECONDS, "DM-A: each second of video is charged"),
  "depth-map-seconds-rounded-down": named("prices", MEDIA_SECONDS, "DM-A: each second of video is charged"),
  "v-c-video-edit-input-at-full-rate": named("prices", MEDIA_SECONDS, "V-C: each second of video is charged"),
  "a-a-minimum-missing": named("prices", MEDIA_SECONDS, "A-A: each second of video is charged"),
  "vu-a-creative-at-precise-rate": named("prices", PRICES, "VU-A: each rate of the price table is charged its quote"),
};

/** For each fault, the check written for the rule it breaks: it must fail (for a field fault, a negative case within its rule on its route). */
export const CAUGHT_BY: Readonly<Record<FaultName, CheckName>> = {
  ...WRITTEN_CAUGHT_BY,
  ...CATCHES,
  ...Object.fromEntries(
    Object.entries(FIELD_CATCHES).map(([fault, { route, results }]) => [
      fault,
      { ...named("request-validation", REJECTS), route, results },
    ]),
  ),
};

/** The check that must fail for `fault`. */
export function caughtBy(fault: FaultName): CheckName {
  const check = CAUGHT_BY[fault];
  if (!check) throw new Error(`fault "${fault}" names no check that must catch it (CAUGHT_BY)`);
  return check;
}

/** What the faultless run must show passed: the stateful checks, which a regression could make skip. */
export const MUST_PASS: readonly CheckName[] = [
  named("lifecycle", "terminal state reached{example}"),
  named("lifecycle", "result fields exactly once succeeded{example}"),
  named("create-response", "the create response's status is the initial status"),
  named("create-response", PRICE, "credits and seconds agree with the price"),
  named("billing", "a succeeded job is charged exactly its quote"),
  named("billing", "a failed job is charged nothing"),
  named("billing", "a timed-out job is charged nothing"),
  named("billing", "a request blocked by moderation is charged nothing"),
  named("billing", "a held price is reserved when the job is created"),
  named("billing", "a held price is charged when its job succeeds"),
  named("billing", "a search priced per request is charged its price"),
  named("concurrency", "polls answer while the cap is reached"),
  named("concurrency", BEYOND_THE_CAP),
  named("concurrency", "the queue-full 429 carries no Retry-After"),
  named("plan-gate", "403 for a Free-plan key"),
  named("retired-model", RETIRED),
  named("spend-limit", "a create past the monthly spend limit is refused with the spend-limit 429"),
  named("spend-limit", "the spend-limit 429 carries no Retry-After"),
  named("spend-limit", "retrying does not clear the spend limit"),
  named("cooldown", "creates are accepted until {count} consecutive failures"),
  named("cooldown", "models outside the paused family are not paused"),
  named("cooldown", "a success clears the failures before it"),
  named("cooldown", "the cooldown's Retry-After and seconds left agree with the pause"),
  named("cooldown", "after the pause, one more failed job is accepted"),
  named("cooldown", "one more failure after the pause pauses the family again"),
  named("cooldown", GROWS),
  named("uploads-window", "{count} uploads per {seconds} s are accepted, the next is refused"),
  named("rate-limits", "{remaining} counts down by one per request{rejected}"),
  named("rate-limits", AFTER_ZERO),
  named("rate-limits", "the rate-limited 429's Retry-After is within {reset}"),
  named("rate-limits", "the rate-limited 429's message states the seconds to wait"),
  named("rate-limits", HEADERS_MEAN),
  named("request-validation", REJECTS),
  named("stock-results", STOCK_PAGE),
  named("model-prices", "the model list shows {model}'s type and size_pricing at the standard prices"),
  named("model-prices", "the model list shows {model}'s resolution_pricing at the standard prices"),
  named("model-prices", "the type filter 3d lists only models of type 3d"),
  named("auth", "401 for {case}", "401 for unknown bearer key"),
  named("plan-prices", DISCOUNTED),
  named("plan-prices", POOL),
  named("plan-prices", AFTER_POOL),
  named(
    "cost-quotes",
    "a depth-map quote with seconds carries credits_per_second, size_pricing, min_seconds and credits{example}",
  ),
  named(
    "cost-quotes",
    "a depth-map quote without seconds still carries credits_per_second, size_pricing and min_seconds{example}",
  ),
  named("cost-quotes", "a depth-map quote's figures are the standard prices{example}"),
  named("cost-quotes", "a depth-map quote on a discounted plan is the standard price less the discount{example}"),
  named("prices", PRICES),
  named("prices", "{model}: the held price adds {fields}"),
  named("prices", MEDIA_SECONDS),
];

/** Fault runs at once. */
const AT_ONCE = 12;

/**
 * Jobs of 0.6 s. Polls are given up after 3 s only where that is the verdict (a fault that keeps
 * jobs from ending is caught by the give-up); elsewhere after 20 s, so that a loaded machine, whose
 * polls come late, does not end a job the fault leaves alone before its result is seen. The
 * concurrency probe needs the cap's jobs to outlast it, also on a loaded machine, so the faults it
 * must catch run with jobs of 3 s.
 */
function timing(faults: FaultName[]): { jobSeconds: number; pollTimeoutSeconds: number } {
  if (faults.some((fault) => caughtBy(fault).group === "concurrency")) return { jobSeconds: 3, pollTimeoutSeconds: 8 };
  const givenUp = faults.some((fault) => caughtBy(fault).check === TERMINAL_REACHED);
  return { jobSeconds: 0.6, pollTimeoutSeconds: givenUp ? 3 : 20 };
}

/** The generated requests' seed, so that a run repeats. */
const MUTATION_SEED = 2026;

/**
 * Generated cases per operation and kind in the runs of faults the near misses must catch: enough
 * that each kind is drawn on every operation that has it, whatever the seed (at the default 3, a
 * kind that one or two operations have is missed by some seeds).
 */
export const NEAR_MISS_CASES = 20;

/**
 * A fault's run runs only the check that must catch it (the self-test's cost grows with the faults,
 * not with faults × the whole suite); the faultless run runs every check, to show that none fails.
 */
/** The checks whose requests a catching check judges (it observes them, or its jobs run in their measurement). */
const FED_BY: Readonly<Record<string, readonly string[]>> = {
  "create-response": ["lifecycle"],
  "stock-results": ["operations"],
  prices: ["billing"],
};

const needs = (faults: FaultName[], group: string): boolean =>
  faults.length === 0 ||
  faults.some((fault) => {
    const caught = caughtBy(fault).group;
    return caught === group || (FED_BY[caught] ?? []).includes(group);
  });

/**
 * Where every fault names the areas its check needs, only those are run; else, where every fault's
 * catch lies on one route, only those routes' areas and models (the self-test's cost grows with the
 * faults' operations).
 */
function onlyTheirOperations(faults: FaultName[]): Pick<TargetConfig, "areas" | "models"> {
  const areas = faults.map((fault) => faultNamed(fault).areas);
  if (faults.length > 0 && areas.every((list) => list !== undefined)) return { areas: [...new Set(areas.flat())] };
  const routes = faults.map((fault) => caughtBy(fault).route);
  if (faults.length === 0 || routes.some((route) => route === undefined)) return {};
  const ops = contract.operations.filter((op) => routes.includes(op.route));
  return {
    areas: [...new Set(ops.map((op) => op.area))],
    models: [...new Set(ops.flatMap((op) => (op.create ? [op.create.label] : [])))],
  };
}

/** The suite's results against the sandbox with `faults`; `cases` generated requests per operation and kind (the default: 3, or NEAR_MISS_CASES for faults the near misses catch). */
export async function resultsWith(
  faults: FaultName[],
  cases = faults.length > 0 && needs(faults, "generated-requests") ? NEAR_MISS_CASES : undefined,
): Promise<CheckResult[]> {
  const { jobSeconds, pollTimeoutSeconds } = timing(faults);
  const sandbox = await startSandbox({ config: fastSandboxConfig(defaults, jobSeconds), hooks: hooksFor(faults) });
  try {
    const config: TargetConfig = {
      ...declared,
      ...onlyTheirOperations(faults),
      rateLimitBurst: needs(faults, "rate-limits"),
      // Only the source-IP fault's sandbox has the per-IP limit declared; the others' is wide, in windows of 10 s.
      sourceIpBurst:
        faults.length > 0 && needs(faults, "source-ip-limit")
          ? { ...declared.sourceIpBurst!, perSourceIp: SELF_TEST_PER_SOURCE_IP, windowSeconds: FAST_WINDOW_SECONDS }
          : undefined,
      skipGroups: CHECK_GROUPS.filter((group) => !needs(faults, group)),
      generated: { seed: MUTATION_SEED, ...(cases === undefined ? {} : { cases }) },
      poll: { intervalMs: 150, timeoutSeconds: pollTimeoutSeconds, stablePolls: 1 },
    };
    return (await runConformance({ target: sandbox.url, config, contract })).results;
  } finally {
    await sandbox.close();
  }
}

const expected = ({ check, result, route, results }: CheckName): string =>
  results ? `${route} ${results.join(" or ")}` : `${result ?? check}${route ? ` on ${route}` : ""}`;

/** Runs the suite against each fault; the faults whose check did not fail, each with what failed instead. */
export async function missedFaults(faults: readonly FaultName[]): Promise<string[]> {
  // A few runs at a time: all at once, a loaded machine would starve their polls.
  const runs = new Semaphore(AT_ONCE);
  const verdicts = await Promise.all(
    faults.map((fault) =>
      runs.use(async () => ({
        fault,
        failures: (await resultsWith([fault])).filter((result) => result.outcome === "fail"),
      })),
    ),
  );
  const missed = verdicts
    .filter(({ fault, failures }) => !failures.some((failure) => isResultOf(failure, caughtBy(fault))))
    .map(
      ({ fault, failures }) =>
        `${fault} (${faultNamed(fault).bug}): expected [${caughtBy(fault).group}] ${expected(caughtBy(fault))} to fail, got ${failures.map((failure) => `[${failure.group}] ${failure.name}`).join("; ") || "none"}`,
    );
  console.log(`mutation: ${faults.length - missed.length} of ${faults.length} injected faults caught`);
  return missed;
}
