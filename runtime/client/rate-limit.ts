/** The rate-limit headers of a response, and its `Retry-After`, by the names the route table gives them. */
import type { RateLimitHeaderNames } from "./route-table.ts";

/** The rate-limit window headers of a response (null where absent or not a number of at least 0). */
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

/** Whether a response carries any rate-limit window header (its values are read only when asked for). */
export const carriesRateLimit = (headers: Headers, names: RateLimitHeaderNames): boolean =>
  headers.has(names.limit) || headers.has(names.remaining) || headers.has(names.reset);

/** The rate-limit window headers of a response. */
export function readRateLimit(headers: Headers, names: RateLimitHeaderNames): RateLimitInfo {
  return {
    limit: numberHeader(headers, names.limit),
    remaining: numberHeader(headers, names.remaining),
    resetSeconds: numberHeader(headers, names.reset),
  };
}

/** `Retry-After` in seconds (the specification sends seconds), or null. */
export const retryAfterSeconds = (headers: Headers, names: RateLimitHeaderNames): number | null =>
  numberHeader(headers, names.retryAfter);
