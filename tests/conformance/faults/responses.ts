/** Faults of what answers say: job ids and statuses, result fields, error bodies, authentication, the plan gate, retired models. */
import type { ServiceState } from "../../../behaviour/state.ts";
import {
  bodyOf,
  isCreate,
  isPoll,
  laterRunningStatus,
  polledJob,
  when,
  without,
  withoutHeader,
  wrap,
  WRONG_PREFIX,
  type Fault,
} from "./support.ts";

/** The id prefix of the last area with one, and the prefix of the area before it that it takes by mistake. */
function prefixSwap(state: ServiceState): [string, string] {
  const prefixes = [
    ...new Set(
      state.model.areas
        .map((area) => area.jobIdPrefix)
        .filter((prefix): prefix is string => typeof prefix === "string" && prefix !== ""),
    ),
  ];
  if (prefixes.length < 2) throw new Error("the description has fewer than two id prefixes");
  return [prefixes.at(-1)!, prefixes.at(-2)!];
}

export const RESPONSE_FAULTS = {
  "wrong-id-prefix": {
    breaks: ["resources.create-response.id-prefixes"],
    bug: "job ids are minted with a prefix the description's id pattern does not allow (img_1 becomes id_img_1), and polls take that id",
    rules: (rules) => [
      {
        name: "id-alias",
        check: (call) => {
          const params = call.params as Record<string, string>;
          if (isPoll(call) && params.id?.startsWith(WRONG_PREFIX)) params.id = params.id.slice(WRONG_PREFIX.length);
          return undefined;
        },
      },
      ...rules,
    ],
    answer: when(
      (answer, call) => isCreate(call) && typeof bodyOf(answer).id === "string",
      (answer) => ({ ...answer, body: { ...bodyOf(answer), id: `${WRONG_PREFIX}${String(bodyOf(answer).id)}` } }),
    ),
  },
  "missing-rate-limit-header": {
    breaks: ["limits.headers-on-every-response"],
    bug: "poll responses lack X-RateLimit-Remaining",
    answer: when(
      (_answer, call) => isPoll(call),
      (answer, _call, state) => {
        const headers = { ...answer.headers };
        delete headers[state.model.rateLimitHeaders.remaining];
        return { ...answer, headers };
      },
    ),
  },
  "wrong-initial-status": {
    breaks: ["resources.create-response.status-initial", "states.pending"],
    bug: "a create response gives a later running status instead of the initial one",
    answer: when(
      (answer, call) => isCreate(call) && answer.status === 200 && "status" in bodyOf(answer),
      (answer, _call, state) => ({ ...answer, body: { ...bodyOf(answer), status: laterRunningStatus(state) } }),
    ),
  },
  "result-before-succeeded": {
    breaks: ["states.succeeded"],
    bug: "a running job's poll response already carries the result fields",
    answer: when(
      (answer, call, state) =>
        isPoll(call) &&
        answer.status === 200 &&
        !state.model.jobStatus.terminal.includes(String(bodyOf(answer).status)),
      (answer, call, state) => {
        const job = polledJob(call!, state)!;
        const finished = state.responses.job(state.areas.get(job.route.areaId)!, job, state.model.jobStatus.success)
          .body as Body;
        return { ...answer, body: { ...finished, status: bodyOf(answer).status } };
      },
    ),
  },
  "status-after-terminal": {
    breaks: ["resources.job-status.terminal"],
    bug: "a finished job shows a running status again on a later poll",
    answer: () => {
      const seen = new Set<string>();
      return when(
        (answer, call, state) => isPoll(call) && state.model.jobStatus.terminal.includes(String(bodyOf(answer).status)),
        (answer, call, state) => {
          const id = call!.params.id ?? "";
          if (seen.has(id)) return { ...answer, body: { ...bodyOf(answer), status: laterRunningStatus(state) } };
          seen.add(id);
          return answer;
        },
      )();
    },
  },
  "unknown-status": {
    breaks: ["resources.job-status.values"],
    bug: "a succeeded job reports the status done, which JobStatus does not have",
    answer: when(
      (answer, call, state) => isPoll(call) && bodyOf(answer).status === state.model.jobStatus.success,
      (answer) => ({ ...answer, body: { ...bodyOf(answer), status: "done" } }),
    ),
  },
  "accepts-invalid-body": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "request bodies are parsed but not validated",
    rules: wrap("request-body", () => (call) => {
      try {
        call.body = call.text.trim() === "" ? undefined : JSON.parse(call.text);
      } catch {
        call.body = undefined;
      }
      return undefined;
    }),
  },
  "unauthenticated-accepted": {
    breaks: ["auth.401", "errors.401"],
    bug: "a request without a key is served as the first account's",
    rules: wrap("authentication", (original) => (call, state) => {
      if (call.key !== null) return original(call, state);
      call.account = [...state.accounts.byName.values()].find((account) => account.config.plan !== "free") ?? null;
      return undefined;
    }),
  },
  "error-body-without-code": {
    breaks: ["resources.error-body.shape"],
    bug: "401 error bodies lack error.code",
    answer: when(
      (answer) => answer.status === 401,
      (answer) => {
        const { code: _dropped, ...error } = bodyOf(answer).error ?? {};
        return { ...answer, body: { ...bodyOf(answer), error } };
      },
    ),
  },
  "errors-as-text": {
    breaks: ["errors.error-body"],
    bug: "error responses are sent as text/plain",
    answer: when(
      (answer) => answer.status >= 400,
      (answer) => ({ ...answer, headers: { ...answer.headers, "content-type": "text/plain" } }),
    ),
  },
  "plan-gate-open": {
    breaks: ["auth.free-plan-gate", "service.free-plan-stock-only"],
    bug: "keys on the Free plan may call every operation",
    rules: without("plan-gate"),
  },
  "retired-model-served": {
    breaks: ["versioning.retired-410"],
    bug: "a retired model still takes jobs",
    rules: without("retired-model"),
  },
  "retired-wrong-code": {
    breaks: ["errors.410-model-retired"],
    bug: "a retired model answers 410 with another code than the description's",
    answer: when(
      (answer) => answer.status === 410,
      (answer) => ({
        ...answer,
        body: { ...bodyOf(answer), error: { ...bodyOf(answer).error, code: "model_deprecated" } },
      }),
    ),
  },
  "wrong-id-prefix-one-route": {
    breaks: ["resources.create-response.id-prefixes"],
    bug: "one area's create responses give ids with another area's prefix (copied from a sibling handler); its polls take them",
    rules: (rules) => [
      {
        name: "id-alias",
        check: (call, state) => {
          const params = call.params as Record<string, string>;
          const [area, sibling] = prefixSwap(state);
          if (isPoll(call) && params.id?.startsWith(sibling)) params.id = `${area}${params.id.slice(sibling.length)}`;
          return undefined;
        },
      },
      ...rules,
    ],
    answer: when(
      (answer, call, state) =>
        isCreate(call) &&
        typeof bodyOf(answer).id === "string" &&
        String(bodyOf(answer).id).startsWith(prefixSwap(state)[0]),
      (answer, _call, state) => {
        const [area, sibling] = prefixSwap(state);
        return {
          ...answer,
          body: { ...bodyOf(answer), id: `${sibling}${String(bodyOf(answer).id).slice(area.length)}` },
        };
      },
    ),
  },
  "running-status-other-vocabulary": {
    breaks: ["resources.job-status.values"],
    bug: "a running job reports in_progress, a status word of another API, not one of JobStatus",
    answer: when(
      (answer, call, state) =>
        isPoll(call) && answer.status === 200 && bodyOf(answer).status === laterRunningStatus(state),
      (answer) => ({ ...answer, body: { ...bodyOf(answer), status: "in_progress" } }),
    ),
  },
  "rate-limit-header-missing-one-route": {
    breaks: ["limits.headers-on-every-response"],
    bug: "the credits route's answers lack X-RateLimit-Reset (its handler writes its own headers)",
    answer: when(
      (_answer, call, state) => call?.op.operationId === state.model.account.creditsOperationId,
      (answer, _call, state) => withoutHeader(answer, state.model.rateLimitHeaders.reset),
    ),
  },
  "retired-model-forbidden": {
    breaks: ["versioning.retired-410"],
    bug: "a retired model is refused with 403, the status of a plan gate, instead of 410",
    rules: wrap(
      "retired-model",
      (original) => (call, state) =>
        original(call, state) ? state.responses.forbidden("This model is no longer available.") : undefined,
    ),
  },
  "paid-plan-gated": {
    breaks: ["service.api-on-paid-plans"],
    bug: "the plan gate refuses the model routes to every plan, paid ones too",
    rules: wrap(
      "plan-gate",
      (original) => (call, state) =>
        original(call, state) ??
        (call.op.kind === "create" ? state.responses.forbidden("This plan may not call the model routes.") : undefined),
    ),
  },
  "plan-gate-unauthorized": {
    breaks: ["auth.403", "errors.403"],
    bug: "a Free-plan key is refused the gated operations with 401, as if it were unknown",
    rules: wrap(
      "plan-gate",
      (original) => (call, state) =>
        original(call, state) ? state.responses.unauthorized("This key may not call this operation.") : undefined,
    ),
  },
  "unknown-key-forbidden": {
    breaks: ["auth.401", "errors.401"],
    bug: "an unknown API key is answered 403, not 401",
    rules: wrap("authentication", (original) => (call, state) => {
      const reply = original(call, state);
      return reply && call.key !== null ? state.responses.forbidden("Invalid API key.") : reply;
    }),
  },
  "stock-page-one-past": {
    breaks: ["limits.stock-page-size"],
    bug: "a stock search answers a page of one result more than the page size",
    answer: when(
      (answer, call) => call?.op.freePlan === true && answer.status === 200 && Array.isArray(bodyOf(answer).results),
      (answer) => {
        const results = bodyOf(answer).results as unknown[];
        return { ...answer, body: { ...bodyOf(answer), results: [...results, results[0]] } };
      },
    ),
  },
  "stock-result-without-html-credit": {
    breaks: ["resources.stock-result.attribution"],
    bug: "stock search results carry the plain-text credit line only, without attribution.html",
    answer: when(
      (answer, call) => call?.op.freePlan === true && answer.status === 200 && Array.isArray(bodyOf(answer).results),
      (answer) => ({
        ...answer,
        body: {
          ...bodyOf(answer),
          results: (bodyOf(answer).results as Array<{ attribution: { text: string } }>).map((result) => ({
            ...result,
            attribution: { text: result.attribution.text },
          })),
        },
      }),
    ),
  },
  "moderation-without-reason": {
    breaks: ["errors.moderation-reasons", "resources.moderation-body.shape"],
    bug: "the moderation block lacks its restriction reason field",
    answer: when(
      (answer, _call, state) =>
        answer.status === state.model.errors.moderation.status &&
        state.model.errors.moderation.reasonField in bodyOf(answer),
      (answer, _call, state) => {
        const { [state.model.errors.moderation.reasonField]: _dropped, ...body } = bodyOf(answer);
        return { ...answer, body };
      },
    ),
  },
} satisfies Record<string, Fault>;
