/** Turns an HTTP error response into the typed error the seed's Errors section distinguishes. */
import {
  ApiError,
  AuthenticationError,
  CooldownError,
  InvalidRequestError,
  ModelRetiredError,
  ModerationBlockError,
  PermissionError,
  type ResponseFacts,
  RateLimitedError,
  TooManyRequestsError,
  UnexpectedStatusError,
} from "./errors.ts";
import { retryAfterSeconds } from "./rate-limit.ts";
import { redactBody, redactHeaders } from "./redact.ts";
import type { ErrorShapes } from "./route-table.ts";

type Fields = Record<string, unknown>;

const asObject = (value: unknown): Fields | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The seconds of a cooldown body; the seed does not show whether they sit at the top or in `error`. */
function cooldownSeconds(body: Fields | undefined, field: string): number | undefined {
  const value = body?.[field] ?? asObject(body?.error)?.[field];
  return typeof value === "number" ? value : undefined;
}

/** The reason of a moderation-block body, when it is one the description lists. */
function restrictionReason(body: Fields | undefined, { field, reasons }: ErrorShapes["moderation"]): string | undefined {
  const value = body?.[field];
  return typeof value === "string" && reasons.includes(value) ? value : undefined;
}

/**
 * The typed error of an error response. Its body, headers and message have the API key redacted,
 * should the service or a proxy echo it.
 */
export function errorFromResponse(response: ResponseFacts, shapes: ErrorShapes, apiKey: string): ApiError {
  const status = response.status;
  const headers = redactHeaders(response.headers, apiKey);
  const body = redactBody(response.body, apiKey);
  const top = asObject(body);
  const error = asObject(top?.error);
  // A mock answers with the description's examples, whose unshown type and code are a stand-in text.
  const shown = (value: unknown) => {
    const text = asString(value);
    return text && !shapes.placeholders.includes(text) ? text : undefined;
  };
  const type = shown(error?.type);
  const code = shown(error?.code);
  const text = shown(error?.message) ?? shown(top?.error) ?? (typeof body === "string" ? body : "");
  // Built from the redacted body, so the message cannot hold the key either.
  const message = `HTTP ${status}${code ? ` ${code}` : ""}${text ? `: ${text}` : ""}`;
  const facts = { status, headers, body, type, code };

  switch (status) {
    case 400: {
      const reason = restrictionReason(top, shapes.moderation);
      if (reason !== undefined) return new ModerationBlockError(message, facts, reason);
      return new InvalidRequestError(message, facts);
    }
    case 401:
      return new AuthenticationError(message, facts);
    case 403:
      return new PermissionError(message, facts);
    case 410:
      return new ModelRetiredError(message, facts);
    case 429: {
      if (code === shapes.rateLimitedCode) return new RateLimitedError(message, facts, retryAfterSeconds(headers));
      const cooldown = cooldownSeconds(top, shapes.cooldownField);
      if (cooldown !== undefined) return new CooldownError(message, facts, cooldown);
      return new TooManyRequestsError(message, facts);
    }
    default:
      return new UnexpectedStatusError(message, facts);
  }
}
