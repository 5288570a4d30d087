/**
 * One call of the client: a request sent under the client's policy, apart from any route. It waits
 * out the client-wide pause, bounds each request's time, resends what the retry policy
 * (retry-policy.ts) allows, and turns what came back into the answer's data or a typed error.
 *
 * Cheap per call, since every call of a program pays it: the request's time is a timer raced
 * against the request rather than an AbortSignal of its own (a signal on a Request costs more than
 * openapi-fetch's whole call in Node).
 */
import type { Client } from "openapi-fetch";
import type { Attempt, Handing } from "./answer-cap.ts";
import { errorFromResponse } from "./classify.ts";
import { CooldownError, TransportError } from "./errors.ts";
import type { RequestOptions, ResolvedOptions } from "./options.ts";
import type { Pause } from "./pause.ts";
import { redact } from "./redact.ts";
import { retryDelay } from "./retry-policy.ts";
import type { RouteTable } from "./route-table.ts";
import { sleep } from "./sleep.ts";

/** What the typed methods send, as openapi-fetch sees an operation it knows nothing about. */
interface AnyOperation {
  parameters: { path?: Record<string, string>; query?: Record<string, unknown> };
  requestBody?: { content: { "application/json": unknown } };
  responses: { default: { content: { "application/json": unknown } } };
}
/** Route-agnostic paths: code generic over the generated `paths` cannot name a typed route. */
export type AnyPaths = Record<string, Record<"get" | "post", AnyOperation>>;

/** A request's body or parameters. A type literal, not an interface: openapi-fetch's init type has an index signature. */
export type RouteInit = {
  body?: unknown;
  params?: { path?: Record<string, string>; query?: Record<string, unknown> };
};

export type Method = "get" | "post";

/** The numbers of the client's options a call follows. */
export type CallBounds = Pick<ResolvedOptions, "maxRetries" | "maxPauseMs" | "requestTimeoutMs">;

/**
 * Sends `method path` and resolves to the 200 answer's data; throws the typed error of an error
 * answer, or a TransportError when no usable answer came. `resendable`: the request neither creates
 * anything nor is charged per request, so a transient failure may be resent.
 */
export type Call = (
  method: Method,
  path: string,
  route: RouteInit,
  requestOptions: RequestOptions | undefined,
  resendable: boolean,
) => Promise<unknown>;

/** Why no usable answer came, as text that holds none of the answer's body. */
function reasonOf(cause: unknown): string {
  // V8's JSON parse errors quote the body they failed on.
  if (cause instanceof SyntaxError) return "the body is not valid JSON";
  // fetch's own failure names the network error as its cause ("fetch failed" alone says little).
  const inner = (cause as Error | undefined)?.cause;
  return `${cause}${inner ? ` (${inner})` : ""}`;
}

/** A failure before a usable answer: the connection failed, dropped while the body streamed, or took too long. */
function lostResponse(method: Method, path: string, reason: string, apiKey: string): TransportError {
  const sent = method === "post";
  return new TransportError(
    redact(
      `${method.toUpperCase()} ${path}: no usable response (${reason})${sent ? "; it may have taken effect (a create's job may exist)" : ""}`,
      apiKey,
    ),
    sent,
  );
}

/**
 * `work` (a request and the reading of its answer), or a rejection once `ms` pass: the attempt is
 * then late, and the reading under way stops. A request still waiting for its answer's head is
 * left to the fetch's own bounds (Node's closes it after 300 s), and its answer let go unread.
 */
const within = <T>(ms: number, attempt: Attempt, work: Promise<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      attempt.late = true;
      attempt.stop?.();
      reject(attempt);
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/**
 * The client's `call`: its requests go through `api`, whose fetch waits out `pause`, hears each
 * answer and bounds its reading (`handing` gives each request its attempt).
 */
export function caller(
  api: Client<AnyPaths>,
  handing: Handing,
  table: Pick<RouteTable, "errors" | "headers">,
  apiKey: string,
  pause: Pause,
  { maxRetries, maxPauseMs, requestTimeoutMs }: CallBounds,
): Call {
  return async (method, path, route, requestOptions, resendable) => {
    const signal = requestOptions?.signal;
    const headers = requestOptions?.headers;
    // Only keys with values: each key openapi-fetch finds beyond the route's costs it a tenth of a call.
    // Stryker disable next-line ConditionalExpression: equivalent: a signal and headers that are undefined send the same request; only openapi-fetch's cost differs
    const init = signal || headers ? { ...route, signal, headers } : route;
    for (let resends = 0; ; resends += 1) {
      // Waited out before the request's own time starts.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: pause.wait resolves at once when no pause holds; the test spares the call an await
      if (pause.until > Date.now()) await pause.wait(signal);
      const attempt: Attempt = {};
      let failure: unknown;
      try {
        const { response, error, data } = await within(
          requestTimeoutMs,
          attempt,
          handing(attempt, () => api.request(method, path, init)),
        );
        if (response.ok) return data;
        failure = errorFromResponse(response, error, table, apiKey);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        failure = lostResponse(
          method,
          path,
          attempt.late ? `no answer within requestTimeoutMs, ${requestTimeoutMs} ms` : reasonOf(error),
          apiKey,
        );
      }
      // The cooldown's wait holds the whole client, as a Retry-After does (the client's fetch holds that one).
      if (failure instanceof CooldownError) pause.hold(failure.retryAfterSeconds);
      const delay = retryDelay(failure, resends, maxRetries, resendable, maxPauseMs);
      if (delay === null) throw failure;
      await sleep(delay, signal);
    }
  };
}
