/** The rate-limit headers, and the client-wide pause after a 429 with `Retry-After`. */
import { sleep } from "./sleep.ts";

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
  if (raw === null || raw.trim() === "") return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

const LIMIT = "X-RateLimit-Limit";
const REMAINING = "X-RateLimit-Remaining";
const RESET = "X-RateLimit-Reset";

/** Whether a response carries any rate-limit header (its values are read only when asked for). */
export const carriesRateLimit = (headers: Headers): boolean => headers.has(REMAINING) || headers.has(LIMIT) || headers.has(RESET);

/** The rate-limit headers of a response. */
export function readRateLimit(headers: Headers): RateLimitInfo {
  return { limit: numberHeader(headers, LIMIT), remaining: numberHeader(headers, REMAINING), resetSeconds: numberHeader(headers, RESET) };
}

/** `Retry-After` in seconds (the seed sends seconds), or null. */
export function retryAfterSeconds(headers: Headers): number | null {
  const seconds = numberHeader(headers, "Retry-After");
  return seconds !== null && seconds >= 0 ? seconds : null;
}

/**
 * After a 429 with `Retry-After` the seed says the client waits the full time before sending anything
 * else, so every request of the client passes this gate first.
 */
export class RetryAfterGate {
  #until = 0;

  /** Closes the gate for `seconds` from now (never shortens an existing pause). */
  block(seconds: number): void {
    this.#until = Math.max(this.#until, Date.now() + seconds * 1000);
  }

  /** Epoch milliseconds until which nothing is sent (0 or past: open). */
  get blockedUntil(): number {
    return this.#until;
  }

  /** Resolves once the gate is open; undefined (no promise to await) when it is open already. */
  pass(signal?: AbortSignal | null): Promise<void> | undefined {
    return Date.now() < this.#until ? this.#wait(signal ?? undefined) : undefined;
  }

  async #wait(signal?: AbortSignal): Promise<void> {
    while (Date.now() < this.#until) await sleep(this.#until - Date.now(), signal);
  }
}
