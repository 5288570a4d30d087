/**
 * The client's one retry policy: when a failed request is sent again, and after how long. Every
 * typed method goes through it; the client-wide Retry-After pause itself is the middleware's job (it
 * holds every request), so a rate-limit 429 with Retry-After is resent with no delay of its own.
 */
import { RateLimitedError, TooManyRequestsError, TransportError, UnexpectedStatusError } from "./errors.ts";

/**
 * How a request may be resent after a transient failure (no usable response, 5xx): `true` when it
 * neither creates anything nor is charged per request; "create" never, but a full queue clears when
 * one of the client's own jobs finishes; `false` never.
 */
export type Resend = boolean | "create";

/** Resend after this many milliseconds, or once one of the client's own jobs finished; null: give up. */
export type RetryDecision = number | "own-job-finished" | null;

/** 1 s, 2 s, 4 s, ..., each spread by ±50 % so that clients failing together do not resend together. */
export const backoffMs = (resends: number): number => 1000 * 2 ** resends * (0.5 + Math.random());

/** `resends`: made so far, at most `maxResends`; `ownJobsRunning`: the client's limiter holds jobs. */
export function retryDecision(error: unknown, resends: number, maxResends: number, resend: Resend, ownJobsRunning: boolean): RetryDecision {
  if (resends >= maxResends) return null;
  // The service refused the request before doing anything: resending is always safe.
  if (error instanceof RateLimitedError) return error.retryAfterSeconds === null ? backoffMs(resends) : 0;
  if (resend === true && (error instanceof TransportError || (error instanceof UnexpectedStatusError && error.status >= 500))) return backoffMs(resends);
  // Queue full and spend limit look alike; only own running jobs make "queue full" the likely cause,
  // and a fixed wait is the wrong response to it.
  if (error instanceof TooManyRequestsError && resend === "create" && ownJobsRunning) return "own-job-finished";
  return null;
}
