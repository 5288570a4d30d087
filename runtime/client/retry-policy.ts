/**
 * The client's one retry policy: when a failed request is sent again, and after how long. Every
 * typed method goes through it (calling.ts); the client-wide pause itself (pause.ts) holds every
 * request, so a 429 that names its wait is resent with no delay of its own. The optional in-flight
 * limiter adds one rule of its own for creates refused while the queue may be full (limiter.ts).
 */
import { CooldownError, RateLimitedError, TransportError, UnexpectedStatusError } from "./errors.ts";

/** 1 s, 2 s, 4 s, ..., each spread by ±50 % so that clients failing together do not resend together. */
export const backoffMs = (resends: number): number => 1000 * 2 ** resends * (0.5 + Math.random());

/**
 * The milliseconds after which to resend, or null: give up. `resends`: made so far, at most
 * `maxResends`; `resendable`: the request neither creates anything nor is charged per request, so it
 * may be resent after a transient failure (no usable response, 5xx); `maxPauseMs`: a 429's wait
 * (Retry-After, a cooldown) longer than that is not waited out: the caller gets the 429.
 */
export function retryDelay(
  error: unknown,
  resends: number,
  maxResends: number,
  resendable: boolean,
  maxPauseMs: number,
): number | null {
  if (resends >= maxResends) return null;
  // The service refused the request before doing anything: resending is always safe.
  if (error instanceof RateLimitedError || error instanceof CooldownError) {
    const seconds = error.retryAfterSeconds;
    return seconds === null ? backoffMs(resends) : seconds * 1000 > maxPauseMs ? null : 0;
  }
  return resendable &&
    (error instanceof TransportError || (error instanceof UnexpectedStatusError && error.status >= 500))
    ? backoffMs(resends)
    : null;
}
