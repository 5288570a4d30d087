/**
 * The client's typed errors. Every error from a response keeps its status, headers and parsed body;
 * messages are built from the body only, and the key is redacted from all three (a service or proxy
 * may echo it), so the API key (sent in a request header) never appears.
 */
import type { components } from "../../generated/types.ts";

/** Why moderation blocked a request: the description's RestrictionReason enum. */
export type RestrictionReason = components["schemas"]["RestrictionReason"];

export class MediaServiceError extends Error {
  override name = "MediaServiceError";
}

/** What every error response keeps: the status, the headers and the parsed body. */
export interface ResponseFacts {
  status: number;
  headers: Headers;
  body: unknown;
}

/** An HTTP error response. */
export class ApiError extends MediaServiceError {
  override name = "ApiError";
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  constructor(message: string, { status, headers, body }: ResponseFacts) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/** 401: the API key is missing or invalid. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}

/** 403: authenticated but not permitted (plan gate, ownership, account restriction). */
export class PermissionError extends ApiError {
  override name = "PermissionError";
}

/** 400 with the error body: malformed request or unavailable model. */
export class InvalidRequestError extends ApiError {
  override name = "InvalidRequestError";
  constructor(message: string, facts: ResponseFacts, readonly type: string, readonly code: string) {
    super(message, facts);
  }
}

/**
 * 400 with the moderation-block body: reword or change the input, branching on `restrictionReason`.
 * A reason the description does not list is an InvalidRequestError instead (regenerate the client).
 */
export class ModerationBlockError extends ApiError {
  override name = "ModerationBlockError";
  constructor(message: string, facts: ResponseFacts, readonly restrictionReason: RestrictionReason) {
    super(message, facts);
  }
}

/** 410: the model is retired; use a current model of the same kind. */
export class ModelRetiredError extends ApiError {
  override name = "ModelRetiredError";
}

/** 429 `rate_limited`: the per-minute limit; the whole client waits `retryAfterSeconds`. */
export class RateLimitedError extends ApiError {
  override name = "RateLimitedError";
  constructor(message: string, facts: ResponseFacts, readonly retryAfterSeconds: number | null) {
    super(message, facts);
  }
}

/** 429 with `retry_after_seconds`: the repeated-failure cooldown of the content-filtered model family. */
export class CooldownError extends ApiError {
  override name = "CooldownError";
  constructor(message: string, facts: ResponseFacts, readonly retryAfterSeconds: number) {
    super(message, facts);
  }
}

/**
 * Any other 429: the queue is full (concurrency cap) or the monthly spend limit is reached. The seed
 * shows neither code, so the two cannot be told apart; neither sends `Retry-After`.
 */
export class TooManyRequestsError extends ApiError {
  override name = "TooManyRequestsError";
}

/** Any other status (5xx included). */
export class UnexpectedStatusError extends ApiError {
  override name = "UnexpectedStatusError";
}

/**
 * No response arrived (connection refused or reset, response lost). For a create call the job may
 * exist anyway, so it is never resent: a duplicate create is charged twice.
 */
export class TransportError extends MediaServiceError {
  override name = "TransportError";
  constructor(
    message: string,
    readonly mayHaveCreatedJob: boolean,
  ) {
    super(message);
  }
}

/** A job reached the terminal status `failed` (not charged). */
export class JobFailedError extends MediaServiceError {
  override name = "JobFailedError";
  constructor(
    readonly jobId: string,
    readonly job: unknown,
  ) {
    super(`job ${jobId} failed`);
  }
}

/** A job reached the terminal status `timeout` on the service (not charged). */
export class JobTimedOutError extends MediaServiceError {
  override name = "JobTimedOutError";
  constructor(
    readonly jobId: string,
    readonly job: unknown,
  ) {
    super(`job ${jobId} timed out on the service`);
  }
}

/** The caller's overall deadline passed before the job reached a terminal status; resume with `wait`. */
export class WaitDeadlineError extends MediaServiceError {
  override name = "WaitDeadlineError";
  constructor(
    readonly jobId: string,
    readonly lastStatus: string | null,
    readonly deadlineMs: number,
  ) {
    super(`job ${jobId} was not terminal after ${deadlineMs} ms (last status: ${lastStatus ?? "unknown"}); resume with wait()`);
  }
}

/** Bad input caught before anything was sent: names the field and the rule broken. */
export class InvalidInputError extends MediaServiceError {
  override name = "InvalidInputError";
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}
