/** The rate-limit headers of a response, and its `Retry-After`. */

/** The `X-RateLimit-*` headers of a response (null where absent or not a number of at least 0). */
export interface RateLimitInfo {
  /** Requests allowed in the current window. */
  limit: number | null;
  /** Requests left in the window. */
  remaining: number | null;
  /** Seconds until the window resets. */
  resetSeconds: number | null;
}

/** A header's number, or null where absent or not a finite number of at least 0 (none of these is negative). */
function numberHeader(headers: Headers, name: string): number | null {
  // Header values come trimmed: an empty one is as absent (Number("") would be 0).
  const value = Number(headers.get(name) || NaN);
  return value >= 0 && value < Infinity ? value : null;
}

/** In the order of RateLimitInfo's fields. */
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

/** Whether a response carries any rate-limit header (its values are read only when asked for). */
export const carriesRateLimit = (headers: Headers): boolean => RATE_LIMIT_HEADERS.some((name) => headers.has(name));

/** The rate-limit headers of a response. */
export function readRateLimit(headers: Headers): RateLimitInfo {
  const [limit, remaining, resetSeconds] = RATE_LIMIT_HEADERS.map((name) => numberHeader(headers, name)) as [number | null, number | null, number | null];
  return { limit, remaining, resetSeconds };
}

/** `Retry-After` in seconds (the seed sends seconds), or null. */
export const retryAfterSeconds = (headers: Headers): number | null => numberHeader(headers, "Retry-After");
