/**
 * Injected faults: each one a plausible bug of an implementation of the description, for proving
 * that the conformance suite catches it (tests/conformance/mutation.test.ts). A fault changes the
 * config, the rules, or an answer before it is sent, through startSandbox's hooks:
 * `startSandbox({ hooks: hooksFor(["wrong-id-prefix"]) })` serves the description with that bug.
 * Test code only: the sandbox that ships knows nothing of it.
 */
import { quoteRoute } from "../../../runtime/costs/quote.ts";
import type { SandboxConfig } from "../../../sandbox/config.ts";
import { SANDBOX_CODES } from "../../../sandbox/responses.ts";
import type { Call, Rule } from "../../../sandbox/rules.ts";
import type { Answer, SandboxHooks } from "../../../sandbox/server.ts";
import type { SandboxState } from "../../../sandbox/state.ts";

type AnswerHook = NonNullable<SandboxHooks["answer"]>;

interface Fault {
  /** The implementation bug the fault stands for. */
  readonly bug: string;
  readonly config?: (config: SandboxConfig) => SandboxConfig;
  readonly rules?: (rules: readonly Rule[]) => readonly Rule[];
  /** Made per sandbox, so that a fault may keep state (jobs it has seen). */
  readonly answer?: () => AnswerHook;
}

type Body = Record<string, unknown> & { error?: Record<string, unknown> };

const bodyOf = (answer: Answer): Body => (typeof answer.body === "object" && answer.body !== null ? (answer.body as Body) : {});

const isCreate = (call: Call | undefined): call is Call => call?.op.kind === "create";
const isPoll = (call: Call | undefined): call is Call => call?.op.kind === "poll";

/** The rules with the one named `name` replaced by `check` (given the original). */
const wrap = (name: string, check: (original: Rule["check"]) => Rule["check"]) => (rules: readonly Rule[]): readonly Rule[] =>
  rules.map((rule) => (rule.name === name ? { name, check: check(rule.check.bind(rule)) } : rule));

const without = (name: string) => (rules: readonly Rule[]): readonly Rule[] => rules.filter((rule) => rule.name !== name);

/** An answer hook that only looks at answers `applies` picks. */
const when = (applies: (answer: Answer, call: Call | undefined, state: SandboxState) => boolean, change: AnswerHook): (() => AnswerHook) => () => (answer, call, state) =>
  applies(answer, call, state) ? change(answer, call, state) : answer;

const limits = (config: SandboxConfig, change: (limits: SandboxConfig["limits"]) => SandboxConfig["limits"]): SandboxConfig => ({ ...config, limits: change(config.limits) });

/** The job a poll asks for. */
const polledJob = (call: Call, state: SandboxState) => state.jobs.get(call.params.id ?? "");

/** Put before a job id by the wrong-id-prefix fault. */
const WRONG_PREFIX = "id_";

/** A running status after the initial one (JobStatus's order): what a job may say later, never at creation. */
function laterRunningStatus(state: SandboxState): string {
  const { values, terminal, initial } = state.model.jobStatus;
  const running = values.filter((status) => !terminal.includes(status));
  const later = running[running.indexOf(initial) + 1];
  if (later === undefined) throw new Error(`JobStatus has no running status after ${initial}`);
  return later;
}

/** A queue-full answer where the concurrency rule would not give one. */
const queueFull = (state: SandboxState): ReturnType<Rule["check"]> => state.responses.tooMany("queue-full", "As many generations are in flight as the account's concurrency cap allows.");

export const FAULTS = {
  "wrong-id-prefix": {
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
    answer: when((answer, call) => isCreate(call) && typeof bodyOf(answer).id === "string", (answer) => ({ ...answer, body: { ...bodyOf(answer), id: `${WRONG_PREFIX}${String(bodyOf(answer).id)}` } })),
  },
  "rate-limit-one-past": {
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
    bug: "X-RateLimit-Remaining leaves out the requests the service refused",
    answer: () => {
      const refused = new Map<string, number>();
      return (answer, call, state) => {
        if (!call?.account || !call.window) return answer;
        const window = `${call.key}@${Math.round(call.now / 1000) + call.window.resetSeconds}`;
        if (answer.status >= 400) refused.set(window, (refused.get(window) ?? 0) + 1);
        const header = state.model.rateLimitHeaders.remaining;
        return { ...answer, headers: { ...answer.headers, [header]: Number(answer.headers[header]) + (refused.get(window) ?? 0) } };
      };
    },
  },
  "rate-limited-without-retry-after": {
    bug: "the rate limiter's 429 omits Retry-After",
    answer: when((answer, _call, state) => answer.status === 429 && bodyOf(answer).error?.code === state.model.errors.tooManyRequests.variants.find((variant) => variant.condition === "rate-limited")?.code, (answer, _call, state) => {
      const headers = { ...answer.headers };
      delete headers[state.model.retryAfterHeader];
      return { ...answer, headers };
    }),
  },
  "missing-rate-limit-header": {
    bug: "poll responses lack X-RateLimit-Remaining",
    answer: when((_answer, call) => isPoll(call), (answer, _call, state) => {
      const headers = { ...answer.headers };
      delete headers[state.model.rateLimitHeaders.remaining];
      return { ...answer, headers };
    }),
  },
  "queue-full-with-retry-after": {
    bug: "the queue-full 429 sends Retry-After, as if a fixed wait would help",
    answer: when((answer) => answer.status === 429 && bodyOf(answer).error?.code === SANDBOX_CODES["queue-full"].code, (answer, _call, state) => ({ ...answer, headers: { ...answer.headers, [state.model.retryAfterHeader]: "5" } })),
  },
  "cap-one-short": {
    bug: "the concurrency cap refuses a create with one job fewer than the cap in flight",
    rules: wrap("concurrency", (original) => (call, state) => (isCreate(call) && call.account!.inFlight >= call.account!.config.concurrency - 1 ? queueFull(state) : original(call, state))),
  },
  "cap-one-past": {
    bug: "the concurrency cap accepts one job more than the cap",
    rules: wrap("concurrency", () => (call, state) => (isCreate(call) && call.account!.inFlight > call.account!.config.concurrency ? queueFull(state) : undefined)),
  },
  "polling-counts": {
    bug: "polling is refused as queue full while the cap is reached",
    rules: wrap("concurrency", (original) => (call, state) => (isPoll(call) && call.account!.inFlight >= call.account!.config.concurrency ? queueFull(state) : original(call, state))),
  },
  "charge-on-failure": {
    bug: "failed and timed-out jobs are charged their price",
    answer: () => {
      const charged = new Set<string>();
      return when((answer, call, state) => isPoll(call) && state.model.jobStatus.failure.includes(String(bodyOf(answer).status)), (answer, call, state) => {
        const job = polledJob(call!, state);
        if (job && !charged.has(job.id)) {
          charged.add(job.id);
          call!.account!.ledger.charge(job.credits);
        }
        return answer;
      })();
    },
  },
  "moderation-charged": {
    bug: "a request blocked by moderation is charged its price",
    answer: when((answer, call, state) => isCreate(call) && answer.status === 400 && state.model.errors.moderation.reasonField in bodyOf(answer), (answer, call, state) => {
      const quote = quoteRoute(state.model.priceTables, call!.op.path, call!.body ?? {});
      call!.account!.ledger.charge(quote.credits ?? 0);
      return answer;
    }),
  },
  "reservation-not-shown": {
    bug: "the credits available do not subtract the prices held for running jobs",
    answer: when((answer, call, state) => call?.op.operationId === state.model.account.creditsOperationId && answer.status === 200, (answer, call, state) => {
      const balance = call!.account!.ledger.balance();
      return { ...answer, body: { ...bodyOf(answer), [state.model.account.availableField]: balance.monthlyRemaining + balance.extra } };
    }),
  },
  "search-not-charged": {
    bug: "stock searches, priced per request, are not charged",
    answer: when((answer, call) => answer.status === 200 && call?.quote?.charged === "per-request", (answer, call) => {
      call!.account!.ledger.charge(-(call!.quote!.credits ?? 0));
      return answer;
    }),
  },
  "credits-figure-off": {
    bug: "the create response's credits is one more than the price",
    answer: when(
      (answer, call, state) => isCreate(call) && answer.status === 200 && typeof bodyOf(answer)[state.model.account.priceField] === "number",
      (answer, _call, state) => ({ ...answer, body: { ...bodyOf(answer), [state.model.account.priceField]: Number(bodyOf(answer)[state.model.account.priceField]) + 1 } }),
    ),
  },
  "wrong-initial-status": {
    bug: "a create response gives a later running status instead of the initial one",
    answer: when((answer, call) => isCreate(call) && answer.status === 200 && "status" in bodyOf(answer), (answer, _call, state) => ({ ...answer, body: { ...bodyOf(answer), status: laterRunningStatus(state) } })),
  },
  "result-before-succeeded": {
    bug: "a running job's poll response already carries the result fields",
    answer: when(
      (answer, call, state) => isPoll(call) && answer.status === 200 && !state.model.jobStatus.terminal.includes(String(bodyOf(answer).status)),
      (answer, call, state) => {
        const job = polledJob(call!, state)!;
        const finished = state.responses.job(state.areas.get(job.route.areaId)!, job, state.model.jobStatus.success).body as Body;
        return { ...answer, body: { ...finished, status: bodyOf(answer).status } };
      },
    ),
  },
  "status-after-terminal": {
    bug: "a finished job shows a running status again on a later poll",
    answer: () => {
      const seen = new Set<string>();
      return when((answer, call, state) => isPoll(call) && state.model.jobStatus.terminal.includes(String(bodyOf(answer).status)), (answer, call, state) => {
        const id = call!.params.id ?? "";
        if (seen.has(id)) return { ...answer, body: { ...bodyOf(answer), status: laterRunningStatus(state) } };
        seen.add(id);
        return answer;
      })();
    },
  },
  "unknown-status": {
    bug: "a succeeded job reports the status done, which JobStatus does not have",
    answer: when((answer, call, state) => isPoll(call) && bodyOf(answer).status === state.model.jobStatus.success, (answer) => ({ ...answer, body: { ...bodyOf(answer), status: "done" } })),
  },
  "accepts-invalid-body": {
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
    bug: "a request without a key is served as the first account's",
    rules: wrap("authentication", (original) => (call, state) => {
      if (call.key !== null) return original(call, state);
      call.account = [...state.accounts.byName.values()].find((account) => account.config.plan !== "free") ?? null;
      return undefined;
    }),
  },
  "error-body-without-code": {
    bug: "401 error bodies lack error.code",
    answer: when((answer) => answer.status === 401, (answer) => {
      const { code: _dropped, ...error } = bodyOf(answer).error ?? {};
      return { ...answer, body: { ...bodyOf(answer), error } };
    }),
  },
  "errors-as-text": {
    bug: "error responses are sent as text/plain",
    answer: when((answer) => answer.status >= 400, (answer) => ({ ...answer, headers: { ...answer.headers, "content-type": "text/plain" } })),
  },
  "plan-gate-open": {
    bug: "keys on the Free plan may call every operation",
    rules: without("plan-gate"),
  },
  "retired-model-served": {
    bug: "a retired model still takes jobs",
    rules: without("retired-model"),
  },
  "retired-wrong-code": {
    bug: "a retired model answers 410 with another code than the description's",
    answer: when((answer) => answer.status === 410, (answer) => ({ ...answer, body: { ...bodyOf(answer), error: { ...bodyOf(answer).error, code: "model_deprecated" } } })),
  },
  "cooldown-after-two": {
    bug: "the cooldown starts after two failures, not three",
    config: (config) => limits(config, (old) => ({ ...old, cooldown: { ...old.cooldown, consecutiveFailures: old.cooldown.consecutiveFailures - 1 } })),
  },
  "cooldown-after-four": {
    bug: "the cooldown starts only after four failures",
    config: (config) => limits(config, (old) => ({ ...old, cooldown: { ...old.cooldown, consecutiveFailures: old.cooldown.consecutiveFailures + 1 } })),
  },
  "cooldown-without-retry-after": {
    bug: "the cooldown's 429 omits Retry-After",
    answer: when((answer) => answer.status === 429 && bodyOf(answer).error?.code === SANDBOX_CODES.cooldown.code, (answer, _call, state) => {
      const headers = { ...answer.headers };
      delete headers[state.model.retryAfterHeader];
      return { ...answer, headers };
    }),
  },
  "uploads-one-past": {
    bug: "the uploads window takes one upload more than the description's",
    config: (config) => limits(config, (old) => ({ ...old, uploads: { ...old.uploads, perAccount: old.uploads.perAccount + 1 } })),
  },
} satisfies Record<string, Fault>;

export type FaultName = keyof typeof FAULTS;

export class UnknownFaultError extends Error {}

/** The sandbox hooks that make the named faults; throws naming the faults it knows for any other name. */
export function hooksFor(names: readonly string[]): Required<SandboxHooks> {
  const faults: Fault[] = names.map((name) => {
    if (!(name in FAULTS)) throw new UnknownFaultError(`unknown fault "${name}"; the faults are: ${Object.keys(FAULTS).join(", ")}`);
    return FAULTS[name as FaultName];
  });
  const answers = faults.flatMap((fault) => (fault.answer ? [fault.answer()] : []));
  return {
    config: (config) => faults.reduce((changed, fault) => fault.config?.(changed) ?? changed, config),
    rules: (rules) => faults.reduce((changed, fault) => fault.rules?.(changed) ?? changed, rules),
    answer: (answer, call, state) => answers.reduce((changed, hook) => hook(changed, call, state), answer),
  };
}
