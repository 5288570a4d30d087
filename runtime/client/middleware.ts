/**
 * The openapi-fetch middleware every request of the client passes, the typed methods' and the raw
 * `api` client's alike: it keeps the last rate-limit headers and, after a 429 with `Retry-After`,
 * holds every request until the pause is over (the seed says the client waits the full time before
 * sending anything else).
 */
import type { Middleware } from "openapi-fetch";
import { carriesRateLimit, retryAfterSeconds } from "./rate-limit.ts";
import { sleep } from "./sleep.ts";

/** What the middleware keeps for the client to show. */
export interface ServiceState {
  /** Epoch milliseconds until which nothing is sent (0 or past: none). */
  pausedUntil: number;
  /** The headers of the last response that carried rate-limit headers. */
  rateLimitHeaders: Headers | null;
}

export function serviceMiddleware(state: ServiceState): Middleware {
  const waitOut = async (signal: AbortSignal) => {
    while (Date.now() < state.pausedUntil) await sleep(state.pausedUntil - Date.now(), signal);
  };
  return {
    // No promise at all while no pause holds: a request then waits for nothing.
    onRequest: ({ request }) => (Date.now() < state.pausedUntil ? waitOut(request.signal) : undefined),
    onResponse({ response: { status, headers } }) {
      if (carriesRateLimit(headers)) state.rateLimitHeaders = headers;
      const seconds = status === 429 ? retryAfterSeconds(headers) : null;
      // A later, shorter Retry-After never shortens the pause.
      if (seconds !== null) state.pausedUntil = Math.max(state.pausedUntil, Date.now() + seconds * 1000);
    },
  };
}
