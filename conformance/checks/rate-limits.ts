/**
 * 429 responses and rate-limit windows. Every 429 of the run must be one of the description's
 * variants, with `Retry-After` exactly where its variant sends it. With rateLimitBurst, the run's
 * last requests spend a window: `X-RateLimit-Remaining` counts down by one per request (rejected
 * ones too, when the Free-plan key sends requests it is refused), the request after it reaches 0
 * gets the rate-limited 429, and its Retry-After is within the window's reset. Every rate-limited
 * 429 of the run states the seconds of its Retry-After in its message. On every response of the run, the three X-RateLimit-* headers mean what the
 * specification says: the requests left never exceed those allowed, and the reset counts the
 * seconds left of a one-minute window (not a time of day, not milliseconds).
 */
import { needing, STAGE, type Check } from "../check.ts";
import { numericHeader } from "../client.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import type { Exchange } from "../http.ts";
import { documentedResponse } from "../response-check.ts";
import { conditionsOf, retryAfterFor } from "../../contract/retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "rate-limits";
const UNSHOWN_CODE = "429 variant{prefer} with a code the specification does not show: no Retry-After";

/** Runs that saw a 429. */
const seen = new WeakSet<Session>();

/** Per run: how many responses carried the three headers as numbers, and what disagreed with their meaning. */
const headerMeaning = new WeakMap<Session, { responses: number; problems: string[] }>();

/** Per run and route: what the messages of its rate-limited 429s lacked (the seconds of their Retry-After). */
const messages = new WeakMap<Session, Map<string, string[]>>();
const MESSAGE = "the rate-limited 429's message states the seconds to wait";

function observeMessage(session: Session, op: ContractOperation, exchange: Exchange): void {
  const retryAfter = numericHeader(exchange, session.contract.model.retryAfterHeader);
  if (retryAfter === null || !conditionsOf(session.contract, exchange.json).has("rate-limited")) return;
  const message = (exchange.json as { error?: { message?: unknown } } | undefined)?.error?.message;
  const states = typeof message === "string" && new RegExp(`(^|\\D)${retryAfter}(\\D|$)`).test(message);
  const byRoute = messages.get(session) ?? new Map<string, string[]>();
  messages.set(session, byRoute);
  byRoute.set(op.route, [
    ...(byRoute.get(op.route) ?? []),
    ...(states
      ? []
      : [`the message ${JSON.stringify(message)} does not state the ${retryAfter} seconds of Retry-After`]),
  ]);
}

/** The name of the result on the headers' meaning: the description's header names and window. */
function meaningName(session: Session): string {
  const names = session.contract.model.rateLimitHeaders;
  return `${names.remaining} never exceeds ${names.limit}, and ${names.reset} counts seconds within the ${session.contract.model.limits.requests.windowSeconds}-second window`;
}

function observeHeaders(session: Session, op: ContractOperation, exchange: Exchange): void {
  const names = session.contract.model.rateLimitHeaders;
  const limit = numericHeader(exchange, names.limit);
  const remaining = numericHeader(exchange, names.remaining);
  const reset = numericHeader(exchange, names.reset);
  if (limit === null || remaining === null || reset === null) return;
  const seenSoFar = headerMeaning.get(session) ?? { responses: 0, problems: [] };
  headerMeaning.set(session, seenSoFar);
  // Stryker disable next-line UpdateOperator: the count is never read; finish reads the record's presence and problems
  seenSoFar.responses++;
  const windowSeconds = session.contract.model.limits.requests.windowSeconds;
  if (remaining > limit)
    seenSoFar.problems.push(
      `${op.route} answered ${exchange.status} with ${names.remaining}: ${remaining} above ${names.limit}: ${limit}`,
    );
  if (reset > windowSeconds)
    seenSoFar.problems.push(
      `${op.route} answered ${exchange.status} with ${names.reset}: ${reset}, more seconds than a window of ${windowSeconds} has`,
    );
}

/** An unpriced, plan-gated GET without required parameters: the Free-plan key is refused it (a rejected request), the main key answered. */
function burstRequest(session: Session): ContractOperation | undefined {
  return session.unpricedGets().find((op) => !op.facts.freePlan);
}

export const rateLimits: Check = {
  group: GROUP,
  rules: {
    "429 is documented": ["errors.429-four-conditions"],
    "429 variant{prefer} has one of the variant shapes": ["errors.429-four-conditions"],
    "429 variant{prefer}: Retry-After exactly where the specification sends it": [
      "errors.429-rate-limited",
      "errors.queue-full-no-retry-after",
      "errors.spend-limit-no-retry-after",
      "errors.429-cooldown",
    ],
    // Neither the rate limiter's code nor the cooldown's field: which 429 it is cannot be told, only
    // that the specification's 429s that send Retry-After are those two.
    [UNSHOWN_CODE]: ["errors.429-four-conditions"],
    "429 responses": [],
    "{remaining} counts down by one per request{rejected}": [
      "limits.header-remaining",
      "limits.rejected-count",
      "limits.rate.fixed-windows",
    ],
    "the request after {remaining} reached 0 gets the rate-limited 429": [
      "limits.rate.per-key",
      "limits.header-remaining",
      "errors.429-rate-limit",
      "errors.429-rate-limited",
    ],
    "the rate-limited 429's Retry-After is within {reset}": ["limits.header-reset", "errors.429-rate-limited"],
    "the rate-limited 429's message states the seconds to wait": ["errors.429-rate-limited"],
    "{remaining} never exceeds {limit}, and {reset} counts seconds within the {seconds}-second window": [
      "limits.header-limit",
      "limits.header-remaining",
      "limits.header-reset",
      "limits.rate.fixed-windows",
    ],
  },
  summary:
    "Every 429 is one of the description's variants with Retry-After exactly where it sends it (a 429 with Retry-After whose code the specification does not show is failed as such); with rateLimitBurst, a window counts down by one per request (rejected ones too) and ends in the rate-limited 429.",
  blockedBy: needing({ declared: ["rateLimitBurst"] }, (session) =>
    burstRequest(session) ? null : "the target implements no free GET route without parameters to spend a window on",
  ),
  observe(session, { op, exchange }) {
    observeHeaders(session, op, exchange);
    if (exchange.status !== 429) return;
    observeMessage(session, op, exchange);
    seen.add(session);
    const curl = session.curl(exchange.request);
    if (!documentedResponse(op, 429)) {
      session.results.fail(
        GROUP,
        op.route,
        "429 is documented",
        `${op.route} answered 429, which it does not document`,
        curl,
      );
      return;
    }
    const { matching, sends } = retryAfterFor(session.contract, exchange.json);
    const prefer = exchange.request.headers.prefer;
    const label = `429 variant${prefer ? ` (${prefer})` : ""}`;
    const names = session.contract.model.errors.tooManyRequests.variants.map((variant) => variant.schema);
    session.results.expect(
      GROUP,
      op.route,
      `${label} has one of the variant shapes`,
      matching.length ? [] : [`body matches none of ${names.join(", ")}: ${exchange.text.slice(0, 300)}`],
      curl,
    );
    if (matching.length === 0) return;
    const name = `${label}: Retry-After exactly where the specification sends it`;
    const shapes = matching.map((variant) => variant.schema).join("/");
    if (sends === undefined) {
      session.results.skip(
        GROUP,
        op.route,
        name,
        `the body matches ${shapes}, which disagree on Retry-After (x-retry-after)`,
      );
      return;
    }
    const present = exchange.headers.has(session.contract.model.retryAfterHeader);
    if (present && !sends && matching.every((variant) => variant.code === null && variant.secondsField === null)) {
      // A shape only queue full and spend limit share, whose codes are not shown: its code is none the specification shows.
      const { variants } = session.contract.model.errors.tooManyRequests;
      const code = (exchange.json as { error?: { code?: unknown } } | undefined)?.error?.code;
      const shown = variants.flatMap((variant) => (variant.retryAfter && variant.code ? [variant.code] : []));
      const fields = variants.flatMap((variant) =>
        variant.retryAfter && variant.secondsField ? [variant.secondsField] : [],
      );
      session.results.fail(
        GROUP,
        op.route,
        UNSHOWN_CODE.replace("{prefer}", prefer ? ` (${prefer})` : ""),
        `a 429 with the code ${JSON.stringify(code)}, which the specification does not show, sends Retry-After: the specification's 429s that send it are the rate limiter's (code ${shown.join(", ")}) and the cooldown's (${fields.join(", ")} in the body), and this is neither; the ${matching.map((variant) => variant.condition).join(" and ")} 429s, whose codes it does not show, send none`,
        curl,
      );
      return;
    }
    const problems =
      sends && !present
        ? [`Retry-After is missing on a ${shapes} 429`]
        : !sends && present
          ? [`Retry-After is sent on a ${shapes} 429, which the specification sends without it`]
          : [];
    session.results.expect(GROUP, op.route, name, problems, curl);
  },
  finish(session) {
    if (!seen.has(session))
      session.results.skip(GROUP, "*", "429 responses", "no 429 was seen; declare rateLimitBurst to provoke one");
    for (const [route, problems] of messages.get(session) ?? [])
      session.results.expect(GROUP, route, MESSAGE, [...new Set(problems)].slice(0, 5));
    const meaning = headerMeaning.get(session);
    if (!meaning)
      session.results.skip(GROUP, "*", meaningName(session), "no response carried the three headers as numbers");
    else session.results.expect(GROUP, "*", meaningName(session), [...new Set(meaning.problems)].slice(0, 5));
  },
  async run({ session, stage, status }) {
    // Spending a window stops its key until it resets: these are the run's last requests but the per-IP burst.
    await stage(STAGE.keyWindow);
    const freeKey = session.config.freePlanKey;
    const client = freeKey ? session.client(freeKey) : session.main;
    const op = burstRequest(session)!;
    const spec = { method: op.method, path: op.path, headers: client.authorized() };
    const names = session.contract.model.rateLimitHeaders;
    const countdown: string[] = [];
    let previous: { remaining: number; limit: number; reset: number } | undefined;
    let last: Exchange | undefined;
    /** A request answered after the count reached 0, instead of refused. */
    let pastLimit: string | undefined;
    for (let sent = 1; ; sent++) {
      if (sent % 100 === 0) status(`${sent} requests sent`);
      last = await client.send(op, spec, { unpaced: true, expectTooMany: true });
      if (last.status === 429) break;
      const remaining = numericHeader(last, names.remaining);
      const limit = numericHeader(last, names.limit);
      const reset = numericHeader(last, names.reset);
      // A new window began between two requests of the burst when the seconds to the reset went up
      // (within a window they only go down): a fixed window may end at any request, even right
      // after the one that spent it, or after the first of a window, whose count the next repeats.
      const newWindow = previous !== undefined && reset !== null && reset > previous.reset;
      if (previous?.remaining === 0 && !newWindow) {
        pastLimit = `request ${sent} answered ${last.status} after ${names.remaining} reached 0`;
        break;
      }
      if (remaining === null || limit === null || reset === null) {
        countdown.push(
          `request ${sent} answered ${last.status} without numeric ${names.limit}, ${names.remaining} and ${names.reset}`,
        );
        break;
      }
      // A higher count means a new window began too: the count starts again.
      if (previous && !newWindow && remaining <= previous.remaining && remaining !== previous.remaining - 1) {
        countdown.push(
          `request ${sent} (${last.status}): ${names.remaining} went from ${previous.remaining} to ${remaining}`,
        );
      }
      previous = { remaining, limit, reset };
      if (sent > 2 * limit + 1) break;
    }
    const curl = session.curl(spec);
    const rejected = freeKey !== undefined ? " (rejected requests count)" : "";
    session.results.expect(
      GROUP,
      op.route,
      `${names.remaining} counts down by one per request${rejected}`,
      countdown.slice(0, 5),
      curl,
    );
    const refused = last.status === 429 && conditionsOf(session.contract, last.json).has("rate-limited");
    session.results.expect(
      GROUP,
      op.route,
      `the request after ${names.remaining} reached 0 gets the rate-limited 429`,
      pastLimit
        ? [pastLimit]
        : refused && previous?.remaining === 0
          ? []
          : [
              refused
                ? `the 429 came with ${names.remaining} at ${previous?.remaining}`
                : `no rate-limited 429: the last request answered ${last.status} with ${names.remaining} at ${previous?.remaining}`,
            ],
      curl,
    );
    if (!refused) return;
    const retryAfter = numericHeader(last, session.contract.model.retryAfterHeader);
    const reset = previous?.reset ?? 0;
    session.results.expect(
      GROUP,
      op.route,
      `the rate-limited 429's Retry-After is within ${names.reset}`,
      retryAfter !== null && retryAfter <= reset + 1
        ? []
        : [`Retry-After is ${retryAfter ?? "missing"}, ${names.reset} was ${reset}`],
      curl,
    );
  },
};
