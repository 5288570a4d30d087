/** The client's options, their defaults, and the checks that name the bad field and the rule. */
import { InvalidInputError } from "./errors.ts";

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
   * Keep at most this many of this client's jobs in flight (the account's concurrency cap); off when
   * absent. A job's slot is freed when this client sees it terminal (get, wait, createAndWait), so
   * poll the jobs you create. On a 429 without Retry-After while its own jobs run, the create is sent
   * again once one finishes (at most maxRetries times): the description cannot tell a full queue from
   * the spend limit, so a spend-limit 429 is then resent that often before it is thrown.
   */
  maxInFlight?: number;
  /** Polling interval per area, overriding the description's cadence. */
  pollIntervalMs?: Partial<Record<AreaNames, number>>;
  /** Interval for areas whose cadence has no number in the description ("every few seconds" for images). */
  defaultPollIntervalMs?: number;
  /** Overall deadline of a wait. */
  deadlineMs?: number;
  /**
   * Bound on the resends of one call: after a rate-limit 429, after a transient failure of a request
   * that is safe to resend (polls and reads; never creates, posts or per-request charged searches),
   * or after a queue-full 429 with the limiter.
   */
  maxRetries?: number;
}

/** "Every few seconds" (images) and cadences the seed does not show: a few seconds, configurable. */
export const DEFAULT_POLL_INTERVAL_MS = 5_000;
/** Well beyond the typical job durations of the description's x-polling, leaving room for slow queues. */
export const DEFAULT_DEADLINE_MS = 30 * 60_000;
export const DEFAULT_MAX_RETRIES = 3;

export type ResolvedOptions = Required<Omit<ClientOptions, "maxInFlight" | "pollIntervalMs" | "quote">> & {
  maxInFlight: number | null;
  pollIntervalMs: Readonly<Record<string, number>>;
};

/** setTimeout's largest delay; a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `value`, or `fallback` when absent; a duration also fits in a timer. */
export function positiveInteger(field: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new InvalidInputError(field, "must be a positive integer");
  if (value > max) throw new InvalidInputError(field, `must be at most ${max}`);
  return value;
}

export function resolveOptions(options: ClientOptions, areas: readonly string[]): ResolvedOptions {
  if (typeof options !== "object" || options === null) throw new InvalidInputError("options", "must be an object");
  const { apiKey, baseUrl } = options;
  if (typeof apiKey !== "string" || apiKey.trim() === "") throw new InvalidInputError("apiKey", "must be a non-empty string");
  if (/\s/.test(apiKey)) throw new InvalidInputError("apiKey", "must not contain whitespace");
  if (typeof baseUrl !== "string" || !/^https?:\/\/[^\s/]+/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new InvalidInputError("baseUrl", "must be an absolute http(s) URL");
  }
  const pollIntervalMs: Record<string, number> = {};
  for (const [area, ms] of Object.entries(options.pollIntervalMs ?? {})) {
    if (!areas.includes(area)) throw new InvalidInputError(`pollIntervalMs.${area}`, `is not an area (${areas.join(", ")})`);
    // An area given as undefined keeps the description's cadence (a fallback of 0 would poll in a tight loop).
    if (ms !== undefined) pollIntervalMs[area] = positiveInteger(`pollIntervalMs.${area}`, ms, 0, MAX_TIMER_MS);
  }
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new InvalidInputError("maxRetries", "must be an integer of at least 0");
  return {
    apiKey,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    headers: options.headers ?? {},
    maxInFlight: options.maxInFlight === undefined ? null : positiveInteger("maxInFlight", options.maxInFlight, 0),
    pollIntervalMs,
    defaultPollIntervalMs: positiveInteger("defaultPollIntervalMs", options.defaultPollIntervalMs, DEFAULT_POLL_INTERVAL_MS, MAX_TIMER_MS),
    deadlineMs: positiveInteger("deadlineMs", options.deadlineMs, DEFAULT_DEADLINE_MS, MAX_TIMER_MS),
    maxRetries,
  };
}
