/**
 * The client's one retry policy: when a failed request is sent again, and after how long. Every
 * typed method goes through it; the client-wide Retry-After pause itself is the gate's job (its
 * middleware holds every request), so a rate-limit 429 with Retry-After is resent with no delay of
 * its own.
 */
import { RateLimitedError, TooManyRequestsError, TransportError, UnexpectedStatusError } from "./errors.ts";

/** What the policy knows about the request that failed. */
export interface Attempt {
  /** Resends made so far. */
  readonly resends: number;
  readonly maxResends: number;
  /** The request neither creates anything nor is charged per request, so a lost response may be resent. */
  readonly resendable: boolean;
  /** A create with this client's own jobs still running: a full queue clears when one of them finishes. */
  readonly ownJobsRunning: boolean;
}

/** Resend after this many milliseconds, or once one of the client's own jobs finished; null: give up. */
export type RetryDecision = number | "own-job-finished" | null;

/** 1 s, 2 s, 4 s, ..., each spread by ±50 % so that clients failing together do not resend together. */
export const backoffMs = (resends: number): number => 1000 * 2 ** resends * (0.5 + Math.random());

const transient = (error: unknown): boolean =>
  error instanceof TransportError || (error instanceof UnexpectedStatusError && error.status >= 500);

export function retryDecision(error: unknown, attempt: Attempt): RetryDecision {
  if (attempt.resends >= attempt.maxResends) return null;
  // The service refused the request before doing anything: resending is always safe.
  if (error instanceof RateLimitedError) return error.retryAfterSeconds === null ? backoffMs(attempt.resends) : 0;
  if (attempt.resendable && transient(error)) return backoffMs(attempt.resends);
  // Queue full and spend limit look alike; only own running jobs make "queue full" the likely cause,
  // and a fixed wait is the wrong response to it.
  if (error instanceof TooManyRequestsError && attempt.ownJobsRunning) return "own-job-finished";
  return null;
}
