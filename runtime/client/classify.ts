/** Turns an HTTP error response into the typed error the seed's Errors section distinguishes. */
import {
  ApiError,
  AuthenticationError,
  CooldownError,
  InvalidRequestError,
  ModelRetiredError,
  ModerationBlockError,
  PermissionError,
  RateLimitedError,
  TooManyRequestsError,
  UnexpectedStatusError,
} from "./errors.ts";
import { retryAfterSeconds } from "./rate-limit.ts";
import { redactBody, redactHeaders } from "./redact.ts";
import type { ErrorShapes } from "./route-table.ts";

/** The class of each status that has one; a 400 or 429 may still turn out to be a more specific kind. */
const BY_STATUS: Readonly<Record<number, typeof ApiError>> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionError,
  410: ModelRetiredError,
  429: TooManyRequestsError,
};

/**
 * The typed error of an error response. Its body, headers and message have the API key redacted,
 * should the service or a proxy echo it.
 */
export function errorFromResponse(response: Response, responseBody: unknown, shapes: ErrorShapes, apiKey: string): ApiError {
  const { status } = response;
  const headers = redactHeaders(response.headers, apiKey);
  // Reads into whatever JSON came back: optional chaining reads a missing or primitive part as undefined.
  const body = redactBody(responseBody, apiKey) as Record<string, unknown> | null | undefined;
  const error = body?.error as Record<string, unknown> | null | undefined;
  // A mock answers with the description's examples, whose unshown type and code are a stand-in text.
  const shown = (value: unknown) => (typeof value === "string" && !shapes.placeholders.includes(value) ? value : undefined);
  const type = shown(error?.type);
  const code = shown(error?.code);
  const text = shown(error?.message) ?? shown(body?.error) ?? shown(body);
  // Built from the redacted body, so the message cannot hold the key either.
  const message = `HTTP ${status}${code ? ` ${code}` : ""}${text ? `: ${text}` : ""}`;
  const facts = { status, headers, body, type, code };
  // Only a reason the description lists makes a moderation block (an unknown one: regenerate the client).
  const reason = body?.[shapes.moderation.field] as string;
  if (status === 400 && shapes.moderation.reasons.includes(reason)) return new ModerationBlockError(message, facts, reason);
  if (status === 429 && code === shapes.rateLimitedCode) return new RateLimitedError(message, facts, retryAfterSeconds(headers));
  // The seed does not show whether a cooldown's seconds sit at the top of the body or in `error`.
  const cooldown = body?.[shapes.cooldownField] ?? error?.[shapes.cooldownField];
  if (status === 429 && typeof cooldown === "number") return new CooldownError(message, facts, cooldown);
  return new (BY_STATUS[status] ?? UnexpectedStatusError)(message, facts);
}
