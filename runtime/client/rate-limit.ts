/** The rate-limit headers of a response, and its `Retry-After`. */

/** The `X-RateLimit-*` headers of a response (null where absent or not a number). */
export interface RateLimitInfo {
  /** Requests allowed in the current window. */
  limit: number | null;
  /** Requests left in the window. */
  remaining: number | null;
  /** Seconds until the window resets. */
  resetSeconds: number | null;
}

function numberHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  const value = raw?.trim() ? Number(raw) : NaN;
  return Number.isFinite(value) ? value : null;
}

/** In the order of RateLimitInfo's fields. */
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

/** Whether a response carries any rate-limit header (its values are read only when asked for). */
export const carriesRateLimit = (headers: Headers): boolean => RATE_LIMIT_HEADERS.some((name) => headers.has(name));

/** The rate-limit headers of a response. */
export function readRateLimit(headers: Headers): RateLimitInfo {
  const [limit = null, remaining = null, resetSeconds = null] = RATE_LIMIT_HEADERS.map((name) => numberHeader(headers, name));
  return { limit, remaining, resetSeconds };
}

/** `Retry-After` in seconds (the seed sends seconds), or null. */
export function retryAfterSeconds(headers: Headers): number | null {
  const seconds = numberHeader(headers, "Retry-After");
  return seconds !== null && seconds >= 0 ? seconds : null;
}
