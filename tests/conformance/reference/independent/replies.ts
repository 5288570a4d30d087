/**
 * How the independent server answers: its own error types, codes (where the specification shows
 * none) and message texts, rate-limit headers in lower case before any other header, a request id
 * header, and every connection closed after its answer (no keep-alive).
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { WindowView } from "./windows.ts";

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

const errorBody = (type: string, code: string, message: string, extra: Record<string, unknown> = {}): unknown => ({
  error: { type, code, message, ...extra },
});

export const invalid = (detail: string): Reply =>
  reply(400, errorBody("invalid_request_error", "model_not_available", `Request rejected: ${detail}.`));
export const blocked = (reason: string): Reply =>
  reply(400, { error: `Input moderation stopped this request (${reason}).`, restriction_reason: reason });
export const unauthorized = (): Reply =>
  reply(
    401,
    errorBody("authentication_error", "invalid_api_key", "Send a valid key as 'Authorization: Bearer <key>'."),
  );
export const forbidden = (why: string): Reply => reply(403, errorBody("permission_error", "not_permitted", why));
export const notFound = (what: string): Reply =>
  reply(404, errorBody("invalid_request_error", "not_found", `${what} does not exist.`));
export const notAllowed = (allow: string): Reply =>
  reply(405, errorBody("invalid_request_error", "method_not_allowed", `Use ${allow} on this path.`), { Allow: allow });
export const retired = (label: string): Reply =>
  reply(
    410,
    errorBody(
      "gone",
      "model_retired",
      `${label} has been withdrawn from this account's catalogue; pick a current model of the same kind.`,
    ),
  );

export const rateLimited = (seconds: number): Reply =>
  reply(429, errorBody("rate_limit_error", "rate_limited", `Slow down: try again in ${seconds} s.`), {
    "Retry-After": String(seconds),
  });
export const queueFull = (cap: number): Reply =>
  reply(
    429,
    errorBody(
      "capacity_error",
      "concurrency_cap_reached",
      `All ${cap} generation slots of this account are busy; submit again when one of your jobs ends.`,
    ),
  );
export const spendLimited = (): Reply =>
  reply(
    429,
    errorBody(
      "billing_error",
      "monthly_spend_cap",
      "This account's monthly spend limit is reached. The owner can raise it in the billing console.",
    ),
  );
export const pausedFamily = (seconds: number): Reply =>
  reply(
    429,
    errorBody("cooldown_error", "family_paused", "This model family is paused after repeated failed generations.", {
      retry_after_seconds: seconds,
    }),
    { "Retry-After": String(seconds) },
  );

export function send(res: ServerResponse, answer: Reply, window: WindowView): void {
  res.setHeader("x-ratelimit-limit", String(window.limit));
  res.setHeader("x-ratelimit-remaining", String(window.remaining));
  res.setHeader("x-ratelimit-reset", String(window.reset));
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.setHeader("x-request-id", randomUUID());
  res.setHeader("Connection", "close");
  const text = JSON.stringify(answer.body);
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("content-length", String(Buffer.byteLength(text)));
  res.writeHead(answer.status);
  res.end(text);
}
