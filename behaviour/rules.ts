/**
 * The service's rules, one per entry, applied in order to every request before its handler. Each
 * rule either lets the request on (undefined) or answers it. Keeping them separate and named lets a
 * later fault-injection option wrap or reorder any one of them without touching the others.
 */
import { mediaFormProblem } from "../contract/bodies/media-forms.ts";
import type { OperationModel } from "../model/service-model.ts";
import { quoteRoute, type Quote } from "../runtime/costs/quote.ts";
import { QuoteError } from "../runtime/costs/quote-error.ts";
import type { Account } from "./accounts.ts";
import { AskError, type Outcome } from "./choices.ts";
import { mediaDurationProblem } from "./media.ts";
import { withOutputCount } from "./outputs.ts";
import type { WindowState } from "./rate-windows.ts";
import { SANDBOX_CODES, type Reply } from "./responses.ts";
import type { ServiceState } from "./state.ts";
import { bodyShapeProblem, describeProblems } from "./validation.ts";

/** `application/json`, in any case, with at most a UTF-8 charset (`application/json; charset=UTF-8`). */
function isJsonMediaType(header: string | null): boolean {
  if (header === null) return false;
  const [type, ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  return (
    type === "application/json" &&
    parameters.every((parameter) => !parameter.startsWith("charset=") || /^charset="?utf-8"?$/.test(parameter))
  );
}

/** A request as the service model reads it: what was sent, and when. */
export interface ServiceRequest {
  readonly op: OperationModel;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly ip: string;
  /** The bearer token, or null when none was sent. */
  readonly key: string | null;
  /** The Authorization header as sent, or null: a bearer token's absence is told apart from another scheme. */
  readonly authorization: string | null;
  readonly now: number;
  /** The request body's text ("" when none). */
  readonly text: string;
  /** The Content-Type header as sent, or null. */
  readonly contentType: string | null;
  /** The body's bytes are UTF-8 (`text` replaced what was not). */
  readonly utf8: boolean;
}

/** A request on its way through the rules: what each rule found out about it. */
export interface Call extends ServiceRequest {
  account: Account | null;
  /** The parsed JSON body. */
  body: unknown;
  /** The window nearest its limit, reported in the X-RateLimit-* headers. */
  window: WindowState | null;
  /** The price of the request, where the description prices it (after the plan's discount, for a create). */
  quote: Quote | null;
  /** Creates: the day's free pool pays it (plans.ts). */
  free: boolean;
  /** Create routes: the outcome asked for. */
  outcome: Outcome | null;
}

/** A request before any rule has run. */
export function newCall(request: ServiceRequest): Call {
  return { ...request, account: null, body: undefined, window: null, quote: null, free: false, outcome: null };
}

export interface Rule {
  readonly name: string;
  check(call: Call, state: ServiceState): Reply | undefined;
}

/** The window of the two that is nearer its limit (the per-key one on a tie). */
const nearer = (a: WindowState, b: WindowState): WindowState => (b.remaining < a.remaining ? b : a);

const isCreate = (call: Call): boolean => call.op.kind === "create";

const credits = (call: Call): number => call.quote?.credits ?? 0;

/**
 * Counts one request in the fixed windows per source IP and per key (when the key is known): every
 * request counts, rejected ones included, whether or not it names a route of the description. Says
 * the window to report and, past either limit, the rate-limited 429.
 */
export function countInWindows(
  request: Pick<ServiceRequest, "ip" | "key" | "now">,
  state: ServiceState,
): { window: WindowState; tooMany?: Reply } {
  const ip = state.ipWindows.hit(request.ip, request.now);
  const key =
    request.key !== null && state.accounts.byKey.has(request.key)
      ? state.keyWindows.hit(request.key, request.now)
      : null;
  const window = key ? nearer(key, ip) : ip;
  const over = [key, ip].find((counted) => counted?.exceeded);
  if (!over) return { window };
  const message = `Rate limit exceeded. Retry in ${over.resetSeconds} seconds.`;
  return { window, tooMany: state.responses.tooMany("rate-limited", message, over.resetSeconds) };
}

export const RULES: readonly Rule[] = [
  {
    name: "request-windows",
    check(call, state) {
      const { window, tooMany } = countInWindows(call, state);
      call.window = window;
      return tooMany;
    },
  },
  {
    name: "authentication",
    check(call, state) {
      const account = call.key === null ? undefined : state.accounts.byKey.get(call.key);
      if (!account)
        return state.responses.unauthorized(
          call.key !== null
            ? "Invalid API key."
            : call.authorization === null
              ? "Missing API key: send Authorization: Bearer <API_KEY>."
              : "Authorization: the scheme is HTTP bearer with a key: send Authorization: Bearer <API_KEY>.",
        );
      call.account = account;
      state.catchUp(account, call.now);
      return undefined;
    },
  },
  {
    name: "plan-gate",
    check(call, state) {
      if (call.account!.config.plan !== "free" || call.op.freePlan) return undefined;
      return state.responses.forbidden(
        `Keys on the Free plan may not call ${call.op.method.toUpperCase()} ${call.op.path}.`,
      );
    },
  },
  {
    // A retired model answers 410 whatever its body holds: the model is gone, not the request wrong.
    name: "retired-model",
    check(call, state) {
      const route = isCreate(call) ? state.routes.get(call.op.path) : undefined;
      return route && call.account!.config.retiredModels.includes(route.slug)
        ? state.responses.retired(route.slug)
        : undefined;
    },
  },
  {
    name: "request-body",
    check(call, state) {
      const request = state.requestSchemas.get(call.op.operationId);
      if (!request) return undefined;
      if (call.text.trim() === "") {
        call.body = undefined;
        return request.required ? state.responses.invalidRequest("body: is required (a JSON object)") : undefined;
      }
      if (!isJsonMediaType(call.contentType)) {
        return state.responses.invalidRequest(
          `content-type: must be application/json, as every body is JSON (got ${call.contentType === null ? "none" : JSON.stringify(call.contentType.slice(0, 80))})`,
        );
      }
      if (!call.utf8) return state.responses.invalidRequest("body: is not UTF-8 (JSON text is UTF-8)");
      const crowded = bodyShapeProblem("body", call.text);
      if (crowded) return state.responses.invalidRequest(crowded);
      try {
        call.body = JSON.parse(call.text);
      } catch (error) {
        return state.responses.invalidRequest(`body: is not JSON (${(error as Error).message})`);
      }
      if (request.validate(call.body)) return undefined;
      return state.responses.invalidRequest(
        describeProblems("body", request.validate.errors, request.schema).join("; "),
      );
    },
  },
  {
    // The input forms each media field takes (x-media.forms), which the request schema cannot hold.
    name: "media-forms",
    check(call, state) {
      const problem = mediaFormProblem(state.requestSchemas.get(call.op.operationId)?.schema, call.body);
      return problem === null ? undefined : state.responses.invalidRequest(`body.${problem}`);
    },
  },
  {
    // The durations each media field allows (x-media), on every route: the price rule reads only priced media.
    name: "media-durations",
    check(call, state) {
      const problem = mediaDurationProblem(state.requestSchemas.get(call.op.operationId)?.schema, call.body, (media) =>
        state.choices.mediaSeconds(media),
      );
      return problem === null ? undefined : state.responses.invalidRequest(problem);
    },
  },
  {
    // The uploads window is rolling and per account, on top of the request windows; only accepted uploads count.
    name: "uploads-window",
    check(call, state) {
      if (call.op.operationId !== state.model.limits.uploads.operationId) return undefined;
      const taken = state.uploads.take(call.account!.name, call.now);
      if (taken.allowed) return undefined;
      return state.responses.tooMany(
        "rate-limited",
        `Upload limit exceeded. Retry in ${taken.retryAfterSeconds} seconds.`,
        taken.retryAfterSeconds,
      );
    },
  },
  {
    name: "cooldown",
    check(call, state) {
      const family = isCreate(call) ? state.routes.get(call.op.path)?.family : null;
      if (!family) return undefined;
      const seconds = state.cooldowns.pausedFor(state.cooldownId(call.account!, call.key!, family), call.now);
      if (seconds === null) return undefined;
      return state.responses.tooMany(
        "cooldown",
        `Requests to this model family are paused after repeated failures. Retry in ${seconds} seconds.`,
        seconds,
      );
    },
  },
  {
    // The outcome a create asks for (the choices: the sandbox's markers); a moderation block answers before any job exists.
    name: "outcome-marker",
    check(call, state) {
      if (!isCreate(call)) return undefined;
      try {
        call.outcome = state.choices.outcome(call.body);
      } catch (error) {
        if (error instanceof AskError) return state.responses.invalidRequest(error.message);
        throw error;
      }
      return call.outcome && "moderation" in call.outcome
        ? state.responses.moderationBlock(call.outcome.moderation)
        : undefined;
    },
  },
  {
    // The description's quote; per-second prices read media durations from the URLs (README: durations).
    name: "price",
    check(call, state) {
      const table = state.priceTables[call.op.path];
      if (!table || table.method !== call.op.method) return undefined;
      const input = (call.op.method === "get" ? Object.fromEntries(call.query) : (call.body ?? {})) as Record<
        string,
        unknown
      >;
      // A create is priced for the results it makes, a count it leaves out included (outputs.ts).
      const route = isCreate(call) ? state.routes.get(call.op.path) : undefined;
      const priced = route ? withOutputCount(state, route, input) : input;
      try {
        call.quote = quoteRoute(state.priceTables, call.op.path, priced, state.priceInputs(priced, table));
      } catch (error) {
        // The quote names a duration `media.<field>`; the request carries it in body.<field>'s #duration.
        if (error instanceof QuoteError)
          return state.responses.invalidRequest(
            // Stryker disable next-line Regex: equivalent: `.+` runs to the end without `$`, and a quote's field names a media key only at its start (the others are path, body, query and the description's field names)
            `${error.field.replace(/^media\.(.+)$/, "body.$1 (#duration)")}: ${error.rule}`,
          );
        throw error;
      }
      return undefined;
    },
  },
  {
    // The plan's model discount, or the day's free pool of qualified image models (plans.ts).
    name: "plan-price",
    check(call, state) {
      const route = isCreate(call) ? state.routes.get(call.op.path) : undefined;
      const standard = call.quote?.credits;
      if (!route || !call.quote || standard === null || standard === undefined) return undefined;
      const plan = call.account!.plan;
      call.free = plan.free(route.slug, call.now);
      call.quote = { ...call.quote, credits: call.free ? 0 : plan.discounted(route.slug, standard) };
      return undefined;
    },
  },
  {
    name: "spend-limit",
    check(call, state) {
      if (!call.quote || !call.account!.ledger.overSpendLimit(credits(call))) return undefined;
      return state.responses.tooMany(
        "spend-limit",
        "The monthly spend limit set by the account owner is reached; raise or remove it in the billing area.",
      );
    },
  },
  {
    // Polling never counts: only a create needs a free slot.
    name: "concurrency",
    check(call, state) {
      const account = call.account!;
      if (!isCreate(call) || account.inFlight < account.config.concurrency) return undefined;
      return state.responses.tooMany(
        "queue-full",
        `As many generations are in flight as the account's concurrency cap (${account.config.concurrency}) allows.`,
      );
    },
  },
  {
    // The specification does not say what happens when credits run out: the model refuses with 403.
    name: "credits",
    check(call, state) {
      if (!call.quote || call.account!.ledger.covers(credits(call))) return undefined;
      return state.responses.forbidden(
        `Not enough credits: the request costs ${credits(call)}.`,
        SANDBOX_CODES.insufficientCredits,
      );
    },
  },
];
