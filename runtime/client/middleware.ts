/**
 * The openapi-fetch middleware every request of the client passes, the typed methods' and the raw
 * `api` client's alike: it waits out a client-wide `Retry-After` pause, keeps the last rate-limit
 * headers, and starts a new pause on a 429 with `Retry-After`.
 */
import type { Middleware } from "openapi-fetch";
import { carriesRateLimit, retryAfterSeconds, type RetryAfterGate } from "./rate-limit.ts";

export function serviceMiddleware(gate: RetryAfterGate, onRateLimit: (headers: Headers) => void): Middleware {
  return {
    onRequest: ({ request }) => gate.pass(request.signal),
    onResponse({ response: { status, headers } }) {
      if (carriesRateLimit(headers)) onRateLimit(headers);
      const wait = status === 429 ? retryAfterSeconds(headers) : null;
      if (wait !== null) gate.block(wait);
    },
  };
}
