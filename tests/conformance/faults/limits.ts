/** Faults of the limits: rate-limit windows and their headers, the concurrency cap, the cooldown, the uploads window. */
import { SANDBOX_CODES } from "../../../behaviour/responses.ts";
import { bodyOf, isCreate, isPoll, limits, queueFull, tooManyCode, when, wrap, type Fault } from "./support.ts";

/**
 * The per-IP limit of the source-IP fault's sandbox, which the self-test declares (support/mutation.ts):
 * small, so that its burst of twice the limit plus one is quick.
 */
export const SELF_TEST_PER_SOURCE_IP = 40;

export const LIMIT_FAULTS = {
  "source-ip-limit-missing": {
    breaks: ["limits.rate.per-ip"],
    bug: "requests are counted per key only: an address spreading its requests over keys is never refused",
    config: (config) =>
      limits(config, (old) => ({ ...old, requests: { ...old.requests, perSourceIp: SELF_TEST_PER_SOURCE_IP } })),
    rules: wrap("request-windows", (original) => (call, state) => {
      const reply = original(call, state);
      if (!reply || call.key === null || !state.accounts.byKey.has(call.key)) return reply;
      const own = state.keyWindows.peek(call.key, call.now);
      if (own.exceeded) return reply;
      call.window = own;
      return undefined;
    }),
  },
  "rate-limit-one-past": {
    breaks: ["limits.rate.per-key"],
    bug: "the per-key window lets one request past X-RateLimit-Limit through",
    rules: (rules) => {
      const letThrough = new Set<string>();
      return wrap("request-windows", (original) => (call, state) => {
        const reply = original(call, state);
        const window = `${call.key}@${Math.round(call.now / 1000) + (call.window?.resetSeconds ?? 0)}`;
        if (!reply || letThrough.has(window)) return reply;
        letThrough.add(window);
        return undefined;
      })(rules);
    },
  },
  "rejected-requests-not-counted": {
    breaks: ["limits.rejected-count"],
    bug: "X-RateLimit-Remaining leaves out the requests the service refused",
    answer: () => {
      const refused = new Map<string, number>();
      return (answer, call, state) => {
        if (!call?.account || !call.window) return answer;
        const window = `${call.key}@${Math.round(call.now / 1000) + call.window.resetSeconds}`;
        if (answer.status >= 400) refused.set(window, (refused.get(window) ?? 0) + 1);
        const header = state.model.rateLimitHeaders.remaining;
        return {
          ...answer,
          headers: { ...answer.headers, [header]: Number(answer.headers[header]) + (refused.get(window) ?? 0) },
        };
      };
    },
  },
  "rate-limited-without-retry-after": {
    breaks: ["errors.429-rate-limited"],
    bug: "the rate limiter's 429 omits Retry-After",
    answer: when(
      (answer, _call, state) =>
        answer.status === 429 &&
        bodyOf(answer).error?.code ===
          state.model.errors.tooManyRequests.variants.find((variant) => variant.condition === "rate-limited")?.code,
      (answer, _call, state) => {
        const headers = { ...answer.headers };
        delete headers[state.model.retryAfterHeader];
        return { ...answer, headers };
      },
    ),
  },
  "queue-full-with-retry-after": {
    breaks: ["errors.queue-full-no-retry-after"],
    bug: "the queue-full 429 sends Retry-After, as if a fixed wait would help",
    answer: when(
      (answer) => answer.status === 429 && bodyOf(answer).error?.code === SANDBOX_CODES["queue-full"].code,
      (answer, _call, state) => ({ ...answer, headers: { ...answer.headers, [state.model.retryAfterHeader]: "5" } }),
    ),
  },
  "cap-one-short": {
    breaks: ["limits.concurrency"],
    bug: "the concurrency cap refuses a create with one job fewer than the cap in flight",
    rules: wrap(
      "concurrency",
      (original) => (call, state) =>
        isCreate(call) && call.account!.inFlight >= call.account!.config.concurrency - 1
          ? queueFull(state)
          : original(call, state),
    ),
  },
  "cap-one-past": {
    breaks: ["limits.concurrency"],
    bug: "the concurrency cap accepts one job more than the cap",
    rules: wrap(
      "concurrency",
      () => (call, state) =>
        isCreate(call) && call.account!.inFlight > call.account!.config.concurrency ? queueFull(state) : undefined,
    ),
  },
  "polling-counts": {
    breaks: ["states.polling-not-counted"],
    bug: "polling is refused as queue full while the cap is reached",
    rules: wrap(
      "concurrency",
      (original) => (call, state) =>
        isPoll(call) && call.account!.inFlight >= call.account!.config.concurrency
          ? queueFull(state)
          : original(call, state),
    ),
  },
  "cooldown-after-two": {
    breaks: ["limits.cooldown"],
    bug: "the cooldown starts after two failures, not three",
    config: (config) =>
      limits(config, (old) => ({
        ...old,
        cooldown: { ...old.cooldown, consecutiveFailures: old.cooldown.consecutiveFailures - 1 },
      })),
  },
  "cooldown-after-four": {
    breaks: ["limits.cooldown"],
    bug: "the cooldown starts only after four failures",
    config: (config) =>
      limits(config, (old) => ({
        ...old,
        cooldown: { ...old.cooldown, consecutiveFailures: old.cooldown.consecutiveFailures + 1 },
      })),
  },
  "cooldown-does-not-grow": {
    breaks: ["limits.cooldown"],
    bug: "the cooldown's pause stays at its first length however many failures follow",
    config: (config) => limits(config, (old) => ({ ...old, cooldown: { ...old.cooldown, growthSeconds: 0 } })),
  },
  "cooldown-grows-twice-as-fast": {
    breaks: ["limits.cooldown"],
    bug: "each further failure lengthens the cooldown's pause by two steps, not one",
    config: (config) =>
      limits(config, (old) => ({
        ...old,
        cooldown: { ...old.cooldown, growthSeconds: 2 * old.cooldown.growthSeconds },
      })),
  },
  "cooldown-forgets-failures-after-pause": {
    breaks: ["limits.cooldown"],
    bug: "a cooldown's pause, once over, forgets the failures before it, so one more failure does not pause the family again",
    rules: (rules) => {
      const paused = new Set<string>();
      return wrap("cooldown", (original) => (call, state) => {
        const reply = original(call, state);
        const family = isCreate(call) ? state.routes.get(call.op.path)?.family : undefined;
        if (!family) return reply;
        const id = state.cooldownId(call.account!, call.key!, family);
        if (reply) paused.add(id);
        else if (paused.delete(id)) state.cooldowns.succeeded(id);
        return reply;
      })(rules);
    },
  },
  "cooldown-kept-after-success": {
    breaks: ["limits.cooldown"],
    bug: "a success does not clear the failures before it: they count towards the cooldown with those after it",
    answer: () => (answer, _call, state) => {
      state.cooldowns.succeeded = () => undefined;
      return answer;
    },
  },
  "cooldown-without-retry-after": {
    breaks: ["errors.429-cooldown"],
    bug: "the cooldown's 429 omits Retry-After",
    answer: when(
      (answer) => answer.status === 429 && bodyOf(answer).error?.code === SANDBOX_CODES.cooldown.code,
      (answer, _call, state) => {
        const headers = { ...answer.headers };
        delete headers[state.model.retryAfterHeader];
        return { ...answer, headers };
      },
    ),
  },
  "uploads-one-past": {
    breaks: ["limits.uploads"],
    bug: "the uploads window takes one upload more than the description's",
    config: (config) =>
      limits(config, (old) => ({ ...old, uploads: { ...old.uploads, perAccount: old.uploads.perAccount + 1 } })),
  },
  "remaining-off-by-one": {
    breaks: ["limits.header-remaining"],
    bug: "X-RateLimit-Remaining is one more than the requests left (the current request is counted after the header is written)",
    answer: when(
      (_answer, call) => call?.window !== null && call?.window !== undefined,
      (answer, _call, state) => {
        const header = state.model.rateLimitHeaders.remaining;
        return { ...answer, headers: { ...answer.headers, [header]: Number(answer.headers[header]) + 1 } };
      },
    ),
  },
  "retry-after-in-milliseconds": {
    breaks: ["errors.429-rate-limited", "limits.header-reset"],
    bug: "the rate limiter's Retry-After is in milliseconds",
    answer: when(
      (answer, _call, state) =>
        answer.status === 429 && bodyOf(answer).error?.code === tooManyCode(state, "rate-limited"),
      (answer, _call, state) => {
        const header = state.model.retryAfterHeader;
        return { ...answer, headers: { ...answer.headers, [header]: Number(answer.headers[header]) * 1000 } };
      },
    ),
  },
  "rate-limit-headers-swapped": {
    breaks: ["limits.header-limit", "limits.header-remaining"],
    bug: "X-RateLimit-Limit and X-RateLimit-Remaining are written the wrong way round",
    answer: when(
      (_answer, call) => call?.window !== null && call?.window !== undefined,
      (answer, _call, state) => {
        const { limit, remaining } = state.model.rateLimitHeaders;
        return {
          ...answer,
          headers: {
            ...answer.headers,
            [limit]: answer.headers[remaining] ?? "",
            [remaining]: answer.headers[limit] ?? "",
          },
        };
      },
    ),
  },
  "reset-as-epoch-time": {
    breaks: ["limits.header-reset"],
    bug: "X-RateLimit-Reset is the time the window resets, in Unix seconds, not the seconds until it does",
    answer: when(
      (_answer, call) => call?.window !== null && call?.window !== undefined,
      (answer, call, state) => {
        const header = state.model.rateLimitHeaders.reset;
        return {
          ...answer,
          headers: { ...answer.headers, [header]: Math.floor(call!.now / 1000) + Number(answer.headers[header]) },
        };
      },
    ),
  },
  "rate-limit-message-without-seconds": {
    breaks: ["errors.429-rate-limited"],
    bug: "the rate-limited 429's message does not say how long to wait",
    answer: when(
      (answer, _call, state) =>
        answer.status === 429 && bodyOf(answer).error?.code === tooManyCode(state, "rate-limited"),
      (answer) => ({
        ...answer,
        body: { ...bodyOf(answer), error: { ...bodyOf(answer).error, message: "Rate limit exceeded." } },
      }),
    ),
  },
  "spend-limit-with-retry-after": {
    breaks: ["errors.spend-limit-no-retry-after"],
    bug: "the spend-limit 429 sends Retry-After, as the rate limiter's does (a wait never clears it)",
    answer: when(
      (answer, _call, state) =>
        answer.status === 429 && bodyOf(answer).error?.code === tooManyCode(state, "spend-limit"),
      (answer, _call, state) => ({ ...answer, headers: { ...answer.headers, [state.model.retryAfterHeader]: "60" } }),
    ),
  },
  "spend-limit-cleared-by-retry": {
    breaks: ["errors.spend-limit-not-cleared-by-retry"],
    bug: "the spend limit refuses a create once, then lets the same create through when it is sent again",
    rules: (rules) => {
      const refused = new Set<string>();
      return wrap("spend-limit", (original) => (call, state) => {
        const reply = original(call, state);
        const id = `${call.key}:${call.text}`;
        if (!reply || !refused.has(id)) {
          if (reply) refused.add(id);
          return reply;
        }
        return undefined;
      })(rules);
    },
  },
  "cooldown-pauses-every-model": {
    breaks: ["limits.cooldown", "images.i-b.cooldown-family"],
    bug: "the cooldown pauses every model of the account, not only the family's",
    rules: wrap("cooldown", (original) => (call, state) => {
      const seconds = isCreate(call)
        ? state.cooldowns.pausedFor(
            state.cooldownId(call.account!, call.key!, state.model.limits.cooldown.family),
            call.now,
          )
        : null;
      return seconds === null
        ? original(call, state)
        : state.responses.tooMany("cooldown", "Paused after repeated failures.", seconds);
    }),
  },
} satisfies Record<string, Fault>;
