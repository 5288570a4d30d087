/**
 * One call of the client: a request sent under the client's policy, apart from any route. It waits
 * out the client-wide Retry-After pause, bounds each request's time, resends what the retry policy
 * (retry-policy.ts) allows, and turns what came back into the answer's data or a typed error.
 */
import type { Client } from "openapi-fetch";
import { errorFromResponse } from "./classify.ts";
import { TransportError } from "./errors.ts";
import type { RequestOptions } from "./options.ts";
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

export interface CallPolicy {
  api: Client<AnyPaths>;
  table: Pick<RouteTable, "errors" | "headers">;
  apiKey: string;
  pause: Pause;
  /** Bound on the resends of one call. */
  maxRetries: number;
  /** The longest pause a Retry-After may ask for and still be waited out and resent. */
  maxPauseMs: number;
  /** Milliseconds one request may take, its answer's body read to the end included. */
  requestTimeoutMs: number;
}

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

/** The client's `call`, bound to its openapi-fetch client and policy. */
export function caller({ api, table, apiKey, pause, maxRetries, maxPauseMs, requestTimeoutMs }: CallPolicy): Call {
  return async (method, path, route, requestOptions, resendable) => {
    const callerSignal = requestOptions?.signal;
    for (let resends = 0; ; resends += 1) {
      // Waited out before the request's own time starts (the middleware waits again for a pause begun meanwhile).
      await pause.wait(callerSignal);
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), requestTimeoutMs);
      const signal = callerSignal ? AbortSignal.any([timeout.signal, callerSignal]) : timeout.signal;
      let failure: unknown;
      try {
        // openapi-fetch reads the body inside: a connection dropped, or a body dripping, while it streams fails here too.
        const { data, error, response } = await api.request(method, path, {
          ...route,
          signal,
          headers: requestOptions?.headers,
        });
        if (response.ok) return data;
        failure = errorFromResponse(response, error, table, apiKey);
      } catch (error) {
        if (callerSignal?.aborted) throw callerSignal.reason;
        failure = lostResponse(
          method,
          path,
          timeout.signal.aborted ? `no answer within requestTimeoutMs, ${requestTimeoutMs} ms` : reasonOf(error),
          apiKey,
        );
      } finally {
        clearTimeout(timer);
      }
      const delay = retryDelay(failure, resends, maxRetries, resendable, maxPauseMs);
      if (delay === null) throw failure;
      await sleep(delay, callerSignal);
    }
  };
}
