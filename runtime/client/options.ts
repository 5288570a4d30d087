/** The client's options, their defaults, and the checks that name the bad field and the rule. */
import { InvalidInputError } from "./errors.ts";
import type { InFlightLimiter } from "./limiter.ts";
import type { MediaInputCheck } from "./media-inputs.ts";
import { integer, oneOf } from "./option-values.ts";

export type FetchFunction = (input: Request) => Promise<Response>;

/** Options of one call. */
export interface RequestOptions {
  /** Aborts the call, rejecting with the signal's reason. */
  signal?: AbortSignal;
  /** Headers of this call only (a request id), on top of the client's. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The offline quote of the price-table entry point (`quote` of generated/costs.ts). Its parameters
 * are `any` so that the generic, per-route typed function is accepted as it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: only `any` parameters accept the generic per-route function as it is
export type QuoteFunction = (path: any, body?: any, media?: any) => unknown;

export interface ClientOptions<AreaNames extends string = string> {
  /** Sent as `Authorization: Bearer <apiKey>`; never appears in errors or messages. */
  apiKey: string;
  /** The service's root address (routes start with /v1). */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch. */
  fetch?: FetchFunction;
  /** Headers sent with every request (a request id, a user agent); `Authorization` is always the key's. */
  headers?: Readonly<Record<string, string>>;
  /**
   * The offline quote, imported from the separate price-table entry point: with it, each area has
   * `quote(slug, body, media)`. Without it the price tables are not bundled.
   */
  quote?: QuoteFunction;
  /**
   * `inFlightLimiter(n)` of the limiter entry point: keep at most n jobs in flight (the account's
   * concurrency cap); off when absent. A job's slot is freed when a client given the limiter sees it
   * terminal (get, wait, createAndWait), so poll the jobs you create; clients sharing one limiter
   * share its n. On a 429 without Retry-After while the limiter's jobs run, the create is sent again
   * once one finishes (at most maxRetries times): the description cannot tell a full queue from the
   * spend limit, so a spend-limit 429 is then resent that often before it is thrown.
   */
  limiter?: InFlightLimiter;
  /**
   * `checkMediaInputs` of the media-inputs entry point (generated/media-inputs.ts): refuse a create
   * whose media fields hold a form their x-media does not accept (a data URI where only URLs are),
   * before anything is sent.
   */
  checkMediaInputs?: MediaInputCheck;
  /** Polling interval per area, overriding the description's cadence. */
  pollIntervalMs?: Partial<Record<AreaNames, number>>;
  /** Interval for areas whose cadence has no number in the description ("every few seconds" for images). */
  defaultPollIntervalMs?: number;
  /** Overall deadline of a wait. */
  deadlineMs?: number;
  /**
   * Milliseconds one request may take, from sending it to the last byte of its answer (a create's
   * included; any Retry-After pause before it is not counted); then a TransportError, a poll or read
   * being resent like any transient failure.
   */
  requestTimeoutMs?: number;
  /**
   * The longest a call waits out the client-wide pause after a 429 that names its wait (the
   * `Retry-After` of a rate limit, the `retry_after_seconds` of a cooldown). A longer wait is not
   * waited: the call it answered ends in its RateLimitedError or CooldownError, and any call made
   * before the wait is over in a PausedError, each carrying the wait; none is sent early.
   */
  maxPauseMs?: number;
  /** The largest answer body read, in bytes; a larger answer is a TransportError, as one cut short is. */
  maxResponseBytes?: number;
  /**
   * Bound on the resends of one call: after a rate-limit 429, after a transient failure of a request
   * that is safe to resend (polls and reads; never creates, posts or per-request charged searches),
   * or after a queue-full 429 with the limiter.
   */
  maxRetries?: number;
}

/** "Every few seconds" (images) and cadences the specification does not show: a few seconds, configurable. */
export const DEFAULT_POLL_INTERVAL_MS = 5_000;

/** The options that are numbers, besides the polling intervals: each one's default, and its least value where not 1. */
const NUMBERS = {
  // Well beyond the typical job durations of the description's x-polling, leaving room for slow queues.
  deadlineMs: [30 * 60_000],
  maxRetries: [3, 0],
  // Creates answer at once with a job to poll; a minute is far beyond a healthy answer, not a job's duration.
  requestTimeoutMs: [60_000],
  // A cooldown is ten minutes, ten more with each further failure: its first three are waited out, as a wait's deadline is.
  maxPauseMs: [30 * 60_000, 0],
  // Poll answers hold URLs, not media; the largest answers, stock search pages, stay far below.
  maxResponseBytes: [10 * 2 ** 20],
} as const;

/** The numbers of the options, with their defaults: polling intervals, deadline, resend bound, request timeout and the bounds on pauses and answers. */
export type ResolvedOptions = Required<Pick<ClientOptions, keyof typeof NUMBERS>> & {
  pollIntervalMs: Readonly<Record<string, number>>;
};

/** Checks the options (InvalidInputError names the first bad one) and resolves their numbers. */
export function resolveOptions(
  options: ClientOptions,
  areas: Readonly<Record<string, { readonly intervalMs?: number }>>,
): ResolvedOptions {
  const { apiKey, baseUrl, pollIntervalMs = {} } = options;
  // A header value cannot hold whitespace around or inside the key.
  if (typeof apiKey !== "string" || !/^\S+$/.test(apiKey))
    throw new InvalidInputError("apiKey", `must be a non-empty string${apiKey ? " without whitespace" : ""}`);
  // Tested as text, so that anything but a string fails as well.
  if (!/^https?:/i.test(baseUrl) || !URL.canParse(baseUrl))
    throw new InvalidInputError("baseUrl", "must be an absolute http(s) URL");
  // fetch refuses such a URL, and its error quotes it whole; the message names no part of it.
  const { username, password } = new URL(baseUrl);
  if (username || password) throw new InvalidInputError("baseUrl", "must hold no credentials: the key goes in apiKey");
  for (const area in pollIntervalMs) oneOf(`pollIntervalMs.${area}`, areas, area);
  const defaultMs = integer("defaultPollIntervalMs", options.defaultPollIntervalMs, DEFAULT_POLL_INTERVAL_MS);
  const resolved: Record<string, unknown> = {
    // An area's own interval, else the description's cadence, else the default (an area given as undefined included).
    pollIntervalMs: Object.fromEntries(
      Object.entries(areas).map(([area, { intervalMs }]) => [
        area,
        integer(`pollIntervalMs.${area}`, pollIntervalMs[area as never], intervalMs ?? defaultMs),
      ]),
    ),
  };
  for (const [name, [fallback, min]] of Object.entries(NUMBERS) as Array<
    [keyof typeof NUMBERS, readonly [number, number?]]
  >)
    resolved[name] = integer(name, options[name], fallback, min);
  return resolved as ResolvedOptions;
}
