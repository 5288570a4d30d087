/** Turns an HTTP error response into the typed error the specification's Errors section distinguishes. */
import {
  type ApiError,
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
import type { RouteTable } from "./route-table.ts";

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
export function errorFromResponse(
  response: Response,
  responseBody: unknown,
  table: Pick<RouteTable, "errors" | "headers">,
  apiKey: string,
): ApiError {
  const shapes = table.errors;
  const { status } = response;
  const headers = redactHeaders(response.headers, apiKey);
  // Reads into whatever JSON came back: optional chaining reads a missing or primitive part as undefined.
  const body = redactBody(responseBody, apiKey) as Record<string, unknown> | null | undefined;
  const error = body?.error as Record<string, unknown> | null | undefined;
  const string = (value: unknown) => (typeof value === "string" ? value : undefined);
  const type = string(error?.type);
  const code = string(error?.code);
  const text = string(error?.message) ?? string(body?.error) ?? string(body);
  // Built from the redacted body, so the message cannot hold the key either (the error bounds and escapes it).
  const message = `HTTP ${status}${code ? ` ${code}` : ""}${text ? `: ${text}` : ""}`;
  const facts = { status, headers, body, type, code };
  // Only a reason the description lists makes a moderation block (an unknown one: regenerate the client).
  const reason = body?.[shapes.moderation.field] as string;
  if (status === 400 && shapes.moderation.reasons.includes(reason))
    return new ModerationBlockError(message, facts, reason);
  if (status === 429 && code === shapes.rateLimitedCode)
    return new RateLimitedError(message, facts, retryAfterSeconds(headers, table.headers));
  // The specification does not show whether a cooldown's seconds sit at the top of the body or in `error`.
  const cooldown = body?.[shapes.cooldownField] ?? error?.[shapes.cooldownField];
  if (status === 429 && typeof cooldown === "number") return new CooldownError(message, facts, cooldown);
  return new (BY_STATUS[status] ?? UnexpectedStatusError)(message, facts);
}
