/**
 * Faults of the error statuses and of what is metered: a moderation block, a malformed body, a full
 * queue, the spend limit and the rate limit each answered with another status or body; request
 * windows reset as if longer than a minute; usage metered per job; a 3D job's held price released on success.
 */
import { SANDBOX_CODES, type Reply } from "../../../behaviour/responses.ts";
import type { Rule } from "../../../behaviour/rules.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import {
  areaOf,
  bodyOf,
  CREDITS_AREA,
  isCreate,
  MODEL,
  named,
  onPolledJob,
  replaced,
  when,
  wrap,
  type CheckName,
  type Fault,
} from "./support.ts";

/** The sandbox rule `name`, its refusals answered `status` with the error body (`code`) instead. */
const refusedWith = (name: string, status: number, code: string): ((rules: readonly Rule[]) => readonly Rule[]) =>
  wrap(name, (original) => (call, state) => {
    const reply = original(call, state);
    return reply ? otherwise(state, reply, status, code) : reply;
  });

/** `reply` as an error of `status` and `code`, its message kept. */
function otherwise(state: ServiceState, reply: Reply, status: number, code: string): Reply {
  const { message } = (reply.body as { error?: { message?: unknown } }).error ?? {};
  return state.responses.error(status, SANDBOX_CODES.internal.type, code, String(message ?? "Refused."));
}

/** The 3D area's id in the service model. */
const model3d = MODEL.areas.find((area) => areaOf(area.poll.path) === "3d")?.id;

const BLOCKED = "a request blocked by moderation is charged nothing: the request is blocked";
const isModerationBlock = (status: number, body: Record<string, unknown>, state: ServiceState): boolean =>
  status === state.model.errors.moderation.status && state.model.errors.moderation.reasonField in body;

export const ERROR_FAULTS = {
  "moderation-block-403": {
    breaks: ["auth.moderation-is-400"],
    bug: "a content-moderation block answers 403 (as a forbidden request), not 400",
    answer: when(
      (answer, _call, state) => isModerationBlock(answer.status, bodyOf(answer), state),
      (answer) => ({ ...answer, status: 403 }),
    ),
  },
  "moderation-block-as-invalid-request": {
    breaks: ["errors.400-moderation"],
    bug: "a content-moderation block answers 400 with the invalid-request error body, without restriction_reason",
    answer: when(
      (answer, _call, state) => isModerationBlock(answer.status, bodyOf(answer), state),
      (answer, _call, state) => replaced(answer, state.responses.invalidRequest("The request was blocked.")),
    ),
  },
  "invalid-body-422": {
    breaks: ["errors.400-model-not-available"],
    bug: "a malformed request body answers 422 Unprocessable Entity, not 400",
    rules: wrap("request-body", (original) => (call, state) => {
      const reply = original(call, state);
      return reply && reply.status === 400 ? { ...reply, status: 422 } : reply;
    }),
  },
  "queue-full-503": {
    breaks: ["errors.429-queue-full", "errors.429-four-conditions"],
    bug: "a create beyond the concurrency cap answers 503 (server busy), not the queue-full 429",
    rules: refusedWith("concurrency", 503, "server_busy"),
  },
  "spend-limit-402": {
    breaks: ["errors.429-spend-limit"],
    bug: "a create past the monthly spend limit answers 402 Payment Required, not the spend-limit 429",
    rules: refusedWith("spend-limit", 402, "payment_required"),
  },
  "rate-limited-503": {
    breaks: ["errors.429-rate-limit"],
    bug: "a request past the per-minute rate limit answers 503 (with Retry-After), not 429",
    rules: wrap("request-windows", (original) => (call, state) => {
      const reply = original(call, state);
      return reply ? { ...reply, status: 503 } : reply;
    }),
  },
  "reset-counts-two-windows": {
    breaks: ["limits.rate.fixed-windows", "limits.header-reset"],
    bug: "X-RateLimit-Reset counts to the end of the window after the current one, as if windows lasted longer than a minute",
    answer: when(
      (answer, _call, state) => state.model.rateLimitHeaders.reset in answer.headers,
      (answer, _call, state) => {
        const header = state.model.rateLimitHeaders.reset;
        return {
          ...answer,
          headers: {
            ...answer.headers,
            [header]: Number(answer.headers[header]) + state.model.limits.requests.windowSeconds,
          },
        };
      },
    ),
  },
  "metered-per-job": {
    breaks: ["service.metered-in-credits"],
    bug: "usage is metered per job: a succeeded job takes one credit, whatever credits its price names",
    rules: wrap("price", (original) => (call, state) => {
      const reply = original(call, state);
      if (!reply && isCreate(call) && call.quote?.credits != null) call.quote = { ...call.quote, credits: 1 };
      return reply;
    }),
  },
  "3d-hold-released-on-success": {
    breaks: ["3d.charged-on-success"],
    bug: "a succeeded 3D job's held price is released as if it had failed: it is never charged",
    areas: ["3d", "images", CREDITS_AREA],
    answer: onPolledJob(
      (status, state) => status === state.model.jobStatus.success,
      (job, account, seenBefore) => !seenBefore && job.route.areaId === model3d && account.ledger.charge(-job.credits),
    ),
  },
} satisfies Record<string, Fault>;

export const ERROR_CATCHES: Record<keyof typeof ERROR_FAULTS, CheckName> = {
  "moderation-block-403": named("billing", "{role}: the request is blocked", BLOCKED),
  "moderation-block-as-invalid-request": named("billing", "{role}: the request is blocked", BLOCKED),
  "invalid-body-422": named("request-validation", "rejects a body breaking {constraint}"),
  "queue-full-503": named("concurrency", "a create beyond the cap{cap} is refused as queue full"),
  "spend-limit-402": named("spend-limit", "a create past the monthly spend limit is refused with the spend-limit 429"),
  "rate-limited-503": named("rate-limits", "the request after {remaining} reached 0 gets the rate-limited 429"),
  "reset-counts-two-windows": named(
    "rate-limits",
    "{remaining} never exceeds {limit}, and {reset} counts seconds within the {seconds}-second window",
  ),
  "metered-per-job": named("billing", "a succeeded job is charged exactly its quote"),
  "3d-hold-released-on-success": named("billing", "a held price is charged when its job succeeds"),
};
