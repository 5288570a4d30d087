/**
 * The rate-limits check (conformance/checks/rate-limits.ts) run alone against the sandbox, with a
 * per-key window of 8 requests so that its burst spends one in a few requests. The honest sandbox
 * passes every result; each planted fault fails the result of the rule it breaks, the detail
 * naming what was seen (specification, Errors and Limits: 429 with `Retry-After` only for the rate
 * limiter and the cooldown, the rate limiter's message states the seconds to wait; X-RateLimit-Limit,
 * -Remaining and -Reset on every response; rejected requests count against fixed one-minute windows).
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { rateLimits } from "../../conformance/checks/rate-limits.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract } from "../../contract/contract.ts";
import type { OpenApiDocument } from "../../model/document.ts";
import type { Call } from "../../behaviour/rules.ts";
import { startSandbox, type Answer, type SandboxHooks } from "../../sandbox/server.ts";
import type { ServiceState } from "../../behaviour/state.ts";
import { FAST_WINDOW_SECONDS, fastSandboxConfig } from "../support/fast-sandbox.ts";
import { ManualClock } from "../../sandbox/clock.ts";
import { bodyOf, queueFull, replaced, tooManyCode, withoutHeader } from "./faults/support.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const MAIN_KEY = declared.apiKey as string;
const FREE_KEY = declared.freePlanKey as string;
const { limit: LIMIT, remaining: REMAINING, reset: RESET } = contract.model.rateLimitHeaders;
const RETRY_AFTER = contract.model.retryAfterHeader;

/** A per-key window of 8 requests (the description's 600 would make the burst long). */
const PER_KEY = 8;
/** The burst's route: the first GET of the description without required parameters, unpriced, that the Free plan may not call. */
const CREDITS = "GET /v1/account/credits";

const SHAPES = "429 variant has one of the variant shapes";
const UNSHOWN = "429 variant with a code the specification does not show: no Retry-After";
const WHERE = "429 variant: Retry-After exactly where the specification sends it";
const COUNTDOWN = `${REMAINING} counts down by one per request (rejected requests count)`;
const REFUSAL = `the request after ${REMAINING} reached 0 gets the rate-limited 429`;
const WITHIN = `the rate-limited 429's Retry-After is within ${RESET}`;
const MESSAGE = "the rate-limited 429's message states the seconds to wait";
// The description's window is one minute ("fixed one-minute windows"), whatever the sandbox's is.
const MEANING = `${REMAINING} never exceeds ${LIMIT}, and ${RESET} counts seconds within the 60-second window`;

interface RateRun {
  /** The rate-limits group's results. */
  readonly results: CheckResult[];
  /** Requests sent, by key name (`main`, `free plan`). */
  readonly requests: Record<string, number>;
}

/** The rate-limits group alone against the sandbox (a per-key window of `perKey`), with `hooks`. */
async function rateRun(
  hooks: SandboxHooks = {},
  config: Partial<TargetConfig> = {},
  of: Contract = contract,
  perKey = PER_KEY,
): Promise<RateRun> {
  const fast = fastSandboxConfig(defaults) as { limits: { requests: object } };
  const sandbox = await startSandbox({
    config: { ...fast, limits: { ...fast.limits, requests: { ...fast.limits.requests, perKey } } },
    hooks,
    // Time stands still mid-window: a burst the machine's load slows down never straddles the end
    // of a fixed window, whose fresh count the tests' scripted headers would not expect.
    clock: new ManualClock((FAST_WINDOW_SECONDS * 1000) / 2),
  });
  try {
    const run = await runConformance({
      target: sandbox.url,
      contract: of,
      config: {
        ...declared,
        rateLimitBurst: true,
        skipGroups: CHECK_GROUPS.filter((other) => other !== "rate-limits"),
        ...config,
      },
    });
    return {
      results: run.results.filter((result) => result.group === "rate-limits"),
      requests: run.summary.requests,
    };
  } finally {
    await sandbox.close();
  }
}

/** A session of the test's own on `target` (nothing is sent unless the test sends it). */
function sessionOf(config: Partial<TargetConfig>, target = "http://127.0.0.1:9", signal?: AbortSignal): Session {
  const session: Session = checkSession({
    contract,
    config: { ...declared, ...config },
    target,
    apiKey: MAIN_KEY,
    signal: signal ?? new AbortController().signal,
    observe: (session, seen) => rateLimits.observe?.(session, seen),
  });
  return session;
}

/** `route | name | outcome`, sorted: the results as a comparable list. */
const listed = (results: CheckResult[]): string[] =>
  results.map((result) => `${result.route} | ${result.name} | ${result.outcome}`).sort();
const resultOf = (results: CheckResult[], name: string, route = CREDITS): CheckResult | undefined => {
  const matching = results.filter((result) => result.name === name && result.route === route);
  expect(matching.length, `${route} | ${name}`).toBeLessThanOrEqual(1);
  return matching[0];
};
const namesOf = (results: CheckResult[]): string[] => results.map((result) => result.name);

/** An answer hook changing the answers to `key` only, numbered from 1 in the order they are sent. */
function answersTo(
  key: string,
  change: (answer: Answer, n: number, call: Call, state: ServiceState) => Answer,
): NonNullable<SandboxHooks["answer"]> {
  let n = 0;
  return (answer, call, state) => (call?.key === key ? change(answer, ++n, call, state) : answer);
}

const isRateLimited = (answer: Answer, state: ServiceState): boolean =>
  answer.status === 429 && bodyOf(answer).error?.code === tooManyCode(state, "rate-limited");
const withHeaders = (answer: Answer, headers: Record<string, string | number>): Answer => ({
  ...answer,
  headers: { ...answer.headers, ...headers },
});

describe("the rate-limits check against the honest sandbox", () => {
  let run: RateRun;
  beforeAll(async () => {
    run = await rateRun();
  });

  it("passes every result: the variant and its Retry-After, the countdown, the refusal, its wait and message, the headers' meaning", () => {
    expect(listed(run.results)).toEqual(
      [
        `${CREDITS} | ${SHAPES} | pass`,
        `${CREDITS} | ${WHERE} | pass`,
        `${CREDITS} | ${COUNTDOWN} | pass`,
        `${CREDITS} | ${REFUSAL} | pass`,
        `${CREDITS} | ${WITHIN} | pass`,
        `${CREDITS} | ${MESSAGE} | pass`,
        `* | ${MEANING} | pass`,
      ].sort(),
    );
  });

  it("spends the Free-plan key's window on GET /v1/account/credits: 8 requests, then the rate-limited 429", () => {
    expect(run.requests["free plan"]).toBe(PER_KEY + 1);
  });
});

describe("the rate-limit window's countdown and refusal", () => {
  it("fails a count that does not go down, and gives up on a target that never refuses after two windows' worth and one more", async () => {
    // Remaining stays 7, and the 429 the sandbox would send is answered 200.
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer) => ({
        ...answer,
        status: 200,
        headers: { ...answer.headers, [REMAINING]: 7 },
      })),
    });
    expect(resultOf(run.results, COUNTDOWN)?.detail).toBe(
      [2, 3, 4, 5, 6].map((n) => `request ${n} (200): ${REMAINING} went from 7 to 7`).join("; "),
    );
    expect(resultOf(run.results, REFUSAL)).toMatchObject({
      outcome: "fail",
      detail: `no rate-limited 429: the last request answered 200 with ${REMAINING} at 7`,
    });
    // 2 × 8 + 1 requests, then one more: the 18th.
    expect(run.requests["free plan"]).toBe(2 * PER_KEY + 2);
    expect(namesOf(run.results)).not.toContain(WITHIN);
  });

  it("fails a target that answers the request after the count reached 0", async () => {
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, _n, _call, state) =>
        isRateLimited(answer, state) ? { ...answer, status: 200 } : answer,
      ),
    });
    expect(resultOf(run.results, REFUSAL)).toMatchObject({
      outcome: "fail",
      detail: `request ${PER_KEY + 1} answered 200 after ${REMAINING} reached 0`,
    });
    expect(resultOf(run.results, COUNTDOWN)?.outcome).toBe("pass");
    expect(namesOf(run.results)).not.toContain(WITHIN);
  });

  it("fails a rate-limited 429 that comes while requests are left in the window", async () => {
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, n, _call, state) =>
        n === 3 ? replaced(answer, state.responses.tooMany("rate-limited", "Retry in 5 seconds.", 5)) : answer,
      ),
    });
    expect(resultOf(run.results, REFUSAL)).toMatchObject({
      outcome: "fail",
      detail: `the 429 came with ${REMAINING} at ${PER_KEY - 2}`,
    });
  });

  it("takes a higher count for a new window: the countdown starts again without a failure", async () => {
    const counts = [1, 6, 5, 4, 3, 2, 1, 0];
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, n) =>
        n <= counts.length ? withHeaders(answer, { [REMAINING]: counts[n - 1]! }) : answer,
      ),
    });
    expect(resultOf(run.results, COUNTDOWN)?.outcome).toBe("pass");
    expect(resultOf(run.results, REFUSAL)?.outcome).toBe("pass");
  });

  /** The burst's first answers with these `[remaining, reset]` headers, all 200; the sandbox's own 429 ends it. */
  const windows = (headers: [number, number][]): SandboxHooks => ({
    answer: answersTo(FREE_KEY, (answer, n) =>
      n <= headers.length
        ? { ...withHeaders(answer, { [REMAINING]: headers[n - 1]![0], [RESET]: headers[n - 1]![1] }), status: 200 }
        : answer,
    ),
  });

  // Fixed windows: one may end right after its first request, whose count (7 of 8 left) the next
  // request repeats as the first of its own, or right after the request that spent it.
  it.each([
    ["though the count repeats the first of the window before", 7],
    ["after the count reached 0: the request then is not past the limit", 0],
  ])("takes a reset that went up (1 second to 10) for a new window, %s", async (_, first) => {
    const run = await rateRun(
      windows([[first, 1], ...[7, 6, 5, 4, 3, 2, 1, 0].map((left): [number, number] => [left, 10])]),
    );
    expect(resultOf(run.results, COUNTDOWN)?.outcome).toBe("pass");
    expect(resultOf(run.results, REFUSAL)?.outcome).toBe("pass");
    expect(run.requests["free plan"]).toBe(10);
  });

  it("fails a count that repeats, or a request answered after 0, where the reset did not go up", async () => {
    const repeated = await rateRun(
      windows([[7, 5], ...[7, 6, 5, 4, 3, 2, 1, 0].map((left): [number, number] => [left, 5])]),
    );
    expect(resultOf(repeated.results, COUNTDOWN)?.detail).toBe(`request 2 (200): ${REMAINING} went from 7 to 7`);
    const past = await rateRun(
      windows([
        [0, 5],
        [7, 5],
      ]),
    );
    expect(resultOf(past.results, REFUSAL)).toMatchObject({
      outcome: "fail",
      detail: `request 2 answered 200 after ${REMAINING} reached 0`,
    });
  });

  it("counts down the main key's window where no Free-plan key is declared (no rejected requests), after the run's other requests on that key", async () => {
    // Stateful: the cost measure reads the main key's balance; its reads come before the burst,
    // which waits for every check enrolled in the run (suite.ts enrols them all before any starts).
    const run = await rateRun({}, { freePlanKey: undefined });
    expect(resultOf(run.results, `${REMAINING} counts down by one per request`)?.outcome).toBe("pass");
    expect(namesOf(run.results)).not.toContain(COUNTDOWN);
  });

  it("spends the window on GET /v1/models where the account route is not implemented (its one parameter is optional)", async () => {
    const run = await rateRun({}, { areas: ["images", "models", "cost"] });
    expect(resultOf(run.results, COUNTDOWN, "GET /v1/models")?.outcome).toBe("pass");
    expect(resultOf(run.results, REFUSAL, "GET /v1/models")?.outcome).toBe("pass");
  });

  it("reports the burst's progress every hundred requests", async () => {
    const sandbox = await startSandbox({
      config: (() => {
        const fast = fastSandboxConfig(defaults) as { limits: { requests: object } };
        return { ...fast, limits: { ...fast.limits, requests: { ...fast.limits.requests, perKey: 150 } } };
      })(),
      // Mid-window and still, as in rateRun: a burst straddling a window's end sends a second window's worth.
      clock: new ManualClock((FAST_WINDOW_SECONDS * 1000) / 2),
    });
    const stop = new AbortController();
    try {
      const session = sessionOf({ rateLimitBurst: true }, sandbox.url, stop.signal);
      const statuses: string[] = [];
      await rateLimits.run?.({ session, stage: async () => {}, status: (text) => statuses.push(text) });
      expect(session.requestsSent()["free plan"]).toBe(151);
      expect(statuses).toEqual(["100 requests sent"]);
    } finally {
      stop.abort();
      await sandbox.close();
    }
  });
});

describe("the rate-limited 429's Retry-After and message", () => {
  it("fails a rate-limited 429 without Retry-After, which the specification sends", async () => {
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, _n, _call, state) =>
        isRateLimited(answer, state) ? withoutHeader(answer, RETRY_AFTER) : withHeaders(answer, { [RESET]: 5 }),
      ),
    });
    expect(resultOf(run.results, WHERE)).toMatchObject({
      outcome: "fail",
      detail: "Retry-After is missing on a RateLimitedError 429",
    });
    expect(resultOf(run.results, WITHIN)).toMatchObject({
      outcome: "fail",
      detail: `Retry-After is missing, ${RESET} was 5`,
    });
    // Without Retry-After there are no seconds for the message to state.
    expect(namesOf(run.results)).not.toContain(MESSAGE);
  });

  it("takes a Retry-After up to one second past the window's reset", async () => {
    // X-RateLimit-Reset 5 on the burst's answers, the refusal's Retry-After 6.
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, _n, _call, state) =>
        isRateLimited(answer, state) ? withHeaders(answer, { [RETRY_AFTER]: 6 }) : withHeaders(answer, { [RESET]: 5 }),
      ),
    });
    expect(resultOf(run.results, WITHIN)?.outcome).toBe("pass");
  });

  it("fails messages that do not state the seconds to wait, and a Retry-After past the window's reset", async () => {
    // After the start-up probe (the main key's first request), the main key's balance reads get
    // rate-limited 429s (Retry-After 0; each read is sent up to three times): the first read is
    // answered the third time, the second never. The burst's refusal says nothing of its 7 seconds,
    // with X-RateLimit-Reset at 5 before it.
    const slowDown = (n: number) => `the message "Slow down (${n})." does not state the 0 seconds of Retry-After`;
    const run = await rateRun({
      answer: (() => {
        const main = answersTo(MAIN_KEY, (answer, n, _call, state) =>
          n === 1 || n === 4
            ? answer
            : replaced(answer, state.responses.tooMany("rate-limited", `Slow down (${n}).`, 0)),
        );
        const free = answersTo(FREE_KEY, (answer, _n, _call, state) =>
          isRateLimited(answer, state)
            ? {
                ...withHeaders(answer, { [RETRY_AFTER]: 7 }),
                body: { ...bodyOf(answer), error: { ...bodyOf(answer).error, message: "Rate limit exceeded." } },
              }
            : withHeaders(answer, { [RESET]: 5 }),
        );
        return (answer: Answer, call: Call | undefined, state: ServiceState) =>
          free(main(answer, call, state), call, state);
      })(),
    });
    expect(run.requests.main).toBe(6);
    // Six messages lack their seconds (the main key's five and the burst's, whichever comes first
    // of the second read and the burst): five are named.
    const lacking = [
      ...[2, 3, 5, 6, 7].map(slowDown),
      'the message "Rate limit exceeded." does not state the 7 seconds of Retry-After',
    ];
    const named = resultOf(run.results, MESSAGE)?.detail?.split("; ") ?? [];
    expect(named).toHaveLength(5);
    expect(new Set(named).size).toBe(5);
    for (const problem of named) expect(lacking).toContain(problem);
    expect(resultOf(run.results, MESSAGE)?.outcome).toBe("fail");
    expect(resultOf(run.results, WITHIN)).toMatchObject({
      outcome: "fail",
      detail: `Retry-After is 7, ${RESET} was 5`,
    });
  });
});

describe("the other 429 variants", () => {
  it("passes a queue-full 429 without Retry-After, and fails the burst it ends", async () => {
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, n, _call, state) =>
        n === 3 ? replaced(answer, queueFull(state)!) : answer,
      ),
    });
    expect(resultOf(run.results, SHAPES)?.outcome).toBe("pass");
    expect(resultOf(run.results, WHERE)?.outcome).toBe("pass");
    expect(resultOf(run.results, REFUSAL)).toMatchObject({
      outcome: "fail",
      detail: `no rate-limited 429: the last request answered 429 with ${REMAINING} at ${PER_KEY - 2}`,
    });
    expect(namesOf(run.results)).not.toContain(WITHIN);
    expect(namesOf(run.results)).not.toContain(MESSAGE);
  });

  it("fails a 429 of a code the specification does not show that sends Retry-After, as such: not as a variant it cannot tell", async () => {
    // The sandbox's queue-full code, and one of no variant at all: neither is shown by the specification.
    for (const code of ["queue_full", "too_many_requests"]) {
      const run = await rateRun({
        answer: answersTo(FREE_KEY, (answer, n, _call, state) => {
          if (n !== 3) return answer;
          const full = replaced(answer, queueFull(state)!);
          const body = full.body as { error: Record<string, unknown> };
          return withHeaders({ ...full, body: { error: { ...body.error, code } } }, { [RETRY_AFTER]: 3 });
        }),
      });
      expect(resultOf(run.results, UNSHOWN)).toMatchObject({
        outcome: "fail",
        detail: `a 429 with the code "${code}", which the specification does not show, sends Retry-After: the specification's 429s that send it are the rate limiter's (code rate_limited) and the cooldown's (retry_after_seconds in the body), and this is neither; the queue-full and spend-limit 429s, whose codes it does not show, send none`,
      });
      expect(resultOf(run.results, UNSHOWN)?.detail).not.toContain("QueueFullError/SpendLimitError");
      expect(namesOf(run.results)).not.toContain(WHERE);
      // Only the rate limiter's message states the seconds.
      expect(namesOf(run.results)).not.toContain(MESSAGE);
    }
  });

  it("fails a 429 whose body is none of the variants, quoting the body's first 300 characters", async () => {
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, n) =>
        n === 3 ? { ...answer, status: 429, body: { message: "x".repeat(400) } } : answer,
      ),
    });
    expect(resultOf(run.results, SHAPES)).toMatchObject({
      outcome: "fail",
      detail: `body matches none of RateLimitedError, QueueFullError, SpendLimitError, CooldownError: {"message":"${"x".repeat(288)}`,
    });
    expect(namesOf(run.results)).not.toContain(WHERE);
  });

  it("skips the Retry-After result where the variants a body matches disagree on it (x-retry-after)", async () => {
    // A description whose queue-full variant sends Retry-After, and the spend-limit one not: their shared shape disagrees.
    const doc = structuredClone(contract.doc) as OpenApiDocument & {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    doc.components.schemas.QueueFullError!["x-retry-after"] = true;
    const run = await rateRun(
      {
        answer: answersTo(FREE_KEY, (answer, n, _call, state) =>
          n === 3 ? replaced(answer, queueFull(state)!) : answer,
        ),
      },
      {},
      new Contract(doc),
    );
    expect(resultOf(run.results, WHERE)).toMatchObject({
      outcome: "skip",
      detail: "the body matches QueueFullError/SpendLimitError, which disagree on Retry-After (x-retry-after)",
    });
  });

  it("fails a 429 on a route that does not document 429", async () => {
    const doc = structuredClone(contract.doc) as OpenApiDocument & {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    delete doc.paths["/v1/account/credits"]!.get!.responses["429"];
    const run = await rateRun({}, {}, new Contract(doc));
    expect(resultOf(run.results, "429 is documented")).toMatchObject({
      outcome: "fail",
      detail: `${CREDITS} answered 429, which it does not document`,
    });
    expect(namesOf(run.results)).not.toContain(SHAPES);
  });
  it("names the example a Prefer header chose (the mock's) in the results on its 429", async () => {
    const sandbox = await startSandbox({
      hooks: {
        answer: (answer, call, state) =>
          call ? replaced(answer, state.responses.tooMany("rate-limited", "Retry in 5 seconds.", 5)) : answer,
      },
    });
    const stop = new AbortController();
    try {
      const session = sessionOf({}, sandbox.url, stop.signal);
      const op = contract.byPath("get", "/v1/account/credits")!;
      const prefer = "code=429, example=rate-limited";
      await session.main.send(op, { method: "get", path: op.path, headers: { ...session.main.authorized(), prefer } });
      expect(listed(session.results.all)).toEqual([
        `${CREDITS} | 429 variant (${prefer}) has one of the variant shapes | pass`,
        `${CREDITS} | 429 variant (${prefer}): Retry-After exactly where the specification sends it | pass`,
      ]);
    } finally {
      stop.abort();
      await sandbox.close();
    }
  });
});

describe("the X-RateLimit-* headers' meaning over the run", () => {
  it("fails a remaining count above the limit and a reset beyond the one-minute window, naming the first five", async () => {
    // The burst's n-th answer (refused by the plan gate, 403): Remaining = Limit + n, Reset = 60 + n.
    const run = await rateRun({
      answer: answersTo(FREE_KEY, (answer, n) =>
        withHeaders(answer, { [REMAINING]: Number(answer.headers[LIMIT]) + n, [RESET]: 60 + n }),
      ),
    });
    const above = (n: number) => `${CREDITS} answered 403 with ${REMAINING}: ${PER_KEY + n} above ${LIMIT}: ${PER_KEY}`;
    const beyond = (n: number) =>
      `${CREDITS} answered 403 with ${RESET}: ${60 + n}, more seconds than a window of 60 has`;
    expect(resultOf(run.results, MEANING, "*")).toMatchObject({
      outcome: "fail",
      detail: [above(1), beyond(1), above(2), beyond(2), above(3)].join("; "),
    });
  });

  it("passes a remaining count equal to the limit and a reset of the whole 60 seconds", async () => {
    const run = await rateRun({
      answer: answersTo(MAIN_KEY, (answer) =>
        withHeaders(answer, { [REMAINING]: answer.headers[LIMIT]!, [RESET]: 60 }),
      ),
    });
    expect(resultOf(run.results, MEANING, "*")?.outcome).toBe("pass");
  });

  it("skips the headers' meaning and fails the countdown when no response carries the three headers", async () => {
    const run = await rateRun({
      answer: (answer) => withoutHeader(withoutHeader(withoutHeader(answer, LIMIT), REMAINING), RESET),
    });
    expect(listed(run.results.filter((result) => result.route === "*"))).toEqual(
      [`* | 429 responses | skip`, `* | ${MEANING} | skip`].sort(),
    );
    expect(resultOf(run.results, MEANING, "*")?.detail).toBe("no response carried the three headers as numbers");
    expect(resultOf(run.results, "429 responses", "*")?.detail).toBe(
      "no 429 was seen; declare rateLimitBurst to provoke one",
    );
    expect(resultOf(run.results, COUNTDOWN)?.detail).toBe(
      `request 1 answered 403 without numeric ${LIMIT}, ${REMAINING} and ${RESET}`,
    );
    expect(resultOf(run.results, REFUSAL)?.detail).toBe(
      `no rate-limited 429: the last request answered 403 with ${REMAINING} at undefined`,
    );
  });
});

describe("what the rate-limits check needs", () => {
  it("needs rateLimitBurst declared", () => {
    expect(rateLimits.blockedBy?.(sessionOf({ rateLimitBurst: false }))).toBe(
      "the declaration gives no rateLimitBurst",
    );
    expect(rateLimits.blockedBy?.(sessionOf({ rateLimitBurst: true }))).toBeNull();
  });

  it("needs a GET without required parameters that is not priced and not open to the Free plan", () => {
    // The cost and uploads routes are POSTs; the stock searches are priced and open to the Free plan; the polls need an id.
    for (const areas of [["cost", "uploads", "stock"], ["images"]])
      expect(rateLimits.blockedBy?.(sessionOf({ rateLimitBurst: true, areas })), areas.join()).toBe(
        "the target implements no free GET route without parameters to spend a window on",
      );
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`rate-limits\` | ${rateLimits.summary} |`);
  });
});
