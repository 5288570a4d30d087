/**
 * The client's typed errors. Every error from a response keeps its status, headers and parsed body;
 * messages are built from the body only, and the key is redacted from all three (a service or proxy
 * may echo it), so the API key (sent in a request header) never appears.
 *
 * Each error's own fields are declared, not initialised, and copied in by the base constructor: one
 * assignment for all of them instead of one per field and class.
 */

/** The longest message: one line of a log. The whole answer stays on the error (`body`). */
const MAX_MESSAGE_CHARS = 500;

/**
 * A message as an error shows it: control and format characters (line breaks, terminal escape
 * sequences, bidirectional overrides, zero-width characters) written as `\u{XX}`, then cut at
 * MAX_MESSAGE_CHARS, since much of what it quotes came from the upstream (an answer's text, a job's
 * status or id).
 */
const shown = (message: string): string => {
  // Stryker disable next-line MethodExpression: equivalent: the slice only bounds the escaping's work on a long text; the cut below shows the same
  const head = message.slice(0, MAX_MESSAGE_CHARS + 1);
  const escaped = head.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (char) => `\\u{${char.codePointAt(0)?.toString(16)}}`);
  return escaped.length > MAX_MESSAGE_CHARS ? `${escaped.slice(0, MAX_MESSAGE_CHARS)}…` : escaped;
};

export class MediaServiceError extends Error {
  override name = "MediaServiceError";
  constructor(message: string, fields?: object) {
    super(shown(message));
    Object.assign(this, fields);
  }
}

/** What every error response keeps: the status, the headers, the parsed body, and its error type and code. */
export interface ResponseFacts {
  status: number;
  headers: Headers;
  body: unknown;
  /** `error.type` and `error.code` of the body, where it has them, as the response states them. */
  type?: string | undefined;
  code?: string | undefined;
}

/** An HTTP error response. */
export class ApiError extends MediaServiceError {
  override name = "ApiError";
  // A caller's own facts object may carry more fields, which the error then keeps too.
  declare readonly status: number;
  declare readonly headers: Headers;
  declare readonly body: unknown;
  /** `error.type` of the body, where the response has one. */
  declare readonly type: string | undefined;
  /** `error.code` of the body, where the response has one. */
  declare readonly code: string | undefined;
  constructor(message: string, facts: ResponseFacts) {
    super(message, facts);
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
}

/**
 * 400 with the moderation-block body: reword or change the input, branching on `restrictionReason`.
 * A reason the description does not list is an InvalidRequestError instead (regenerate the client).
 * `Reason` is the description's RestrictionReason enum, bound by generated/client.ts.
 */
export class ModerationBlockError<Reason extends string = string> extends ApiError {
  override name = "ModerationBlockError";
  declare readonly restrictionReason: Reason;
  constructor(message: string, facts: ResponseFacts, restrictionReason: Reason) {
    super(message, { ...facts, restrictionReason } as ResponseFacts);
  }
}

/** ModerationBlockError with its reason bound, so that `instanceof` narrows to the bound reason type. */
export interface ModerationBlockErrorClass<Reason extends string> {
  new (message: string, facts: ResponseFacts, restrictionReason: Reason): ModerationBlockError<Reason>;
  readonly prototype: ModerationBlockError<Reason>;
}

/** 410: the model is retired; use a current model of the same kind. */
export class ModelRetiredError extends ApiError {
  override name = "ModelRetiredError";
}

/**
 * 429 `rate_limited`: the per-minute limit. The whole client waits `retryAfterSeconds` and resends;
 * a wait longer than `maxPauseMs` ends the call in this error instead, and the client still sends
 * nothing before it is over (PausedError).
 */
export class RateLimitedError extends ApiError {
  override name = "RateLimitedError";
  declare readonly retryAfterSeconds: number | null;
  constructor(message: string, facts: ResponseFacts, retryAfterSeconds: number | null) {
    super(message, { ...facts, retryAfterSeconds } as ResponseFacts);
  }
}

/**
 * 429 with `retry_after_seconds`: the repeated-failure cooldown of the content-filtered model family
 * (ten minutes, ten more with each further failure). The whole client waits `retryAfterSeconds` and
 * resends, as after a rate limit; a wait longer than `maxPauseMs` ends the call in this error.
 */
export class CooldownError extends ApiError {
  override name = "CooldownError";
  declare readonly retryAfterSeconds: number;
  constructor(message: string, facts: ResponseFacts, retryAfterSeconds: number) {
    super(message, { ...facts, retryAfterSeconds } as ResponseFacts);
  }
}

/**
 * Any other 429: the queue is full (concurrency cap) or the monthly spend limit is reached. The specification
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
 * No usable response arrived: the connection was refused or reset, dropped while the body streamed,
 * the answer took longer than `requestTimeoutMs` or passed `maxResponseBytes`. The message never
 * quotes the answer's body. After a POST the request may have taken effect (a create's job may exist), so it is never
 * resent: a duplicate create is charged twice.
 */
export class TransportError extends MediaServiceError {
  override name = "TransportError";
  declare readonly mayHaveCreatedJob: boolean;
  constructor(message: string, mayHaveCreatedJob: boolean) {
    super(message, { mayHaveCreatedJob });
  }
}

/**
 * Not sent: a 429 paused the client (its `Retry-After` or cooldown) for longer than `maxPauseMs`
 * from now. `retryAfterSeconds` is the wait left; the client sends nothing before it is over.
 */
export class PausedError extends MediaServiceError {
  override name = "PausedError";
  declare readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`not sent: a 429 paused the client ${retryAfterSeconds} s more, longer than maxPauseMs`, {
      retryAfterSeconds,
    });
  }
}

/**
 * A 200 answer that is not what the description shows: a poll answer with no job (an empty body,
 * `null`), a create answer with no job id, a succeeded job without its result.
 */
export class InvalidResponseError extends MediaServiceError {
  override name = "InvalidResponseError";
}

/** A job reached the terminal status `failed` (not charged). `job` is its poll response, the API key redacted. */
export class JobFailedError extends MediaServiceError {
  override name = "JobFailedError";
  declare readonly jobId: string;
  declare readonly job: unknown;
  constructor(jobId: string, job: unknown) {
    super(`job ${jobId} failed`, { jobId, job });
  }
}

/** A job reached the terminal status `timeout` on the service (not charged). `job` is its poll response, the API key redacted. */
export class JobTimedOutError extends MediaServiceError {
  override name = "JobTimedOutError";
  declare readonly jobId: string;
  declare readonly job: unknown;
  constructor(jobId: string, job: unknown) {
    super(`job ${jobId} timed out`, { jobId, job });
  }
}

/** The caller's overall deadline passed before the job reached a terminal status; resume with `wait`. */
export class WaitDeadlineError extends MediaServiceError {
  override name = "WaitDeadlineError";
  declare readonly jobId: string;
  declare readonly lastStatus: string | null;
  declare readonly deadlineMs: number;
  constructor(jobId: string, lastStatus: string | null, deadlineMs: number) {
    super(`job ${jobId} not terminal after ${deadlineMs} ms (last status ${lastStatus})`, {
      jobId,
      lastStatus,
      deadlineMs,
    });
  }
}

/** Bad input caught before anything was sent: names the field and the rule broken. */
export class InvalidInputError extends MediaServiceError {
  override name = "InvalidInputError";
  declare readonly field: string;
  declare readonly rule: string;
  constructor(field: string, rule: string) {
    super(`${field}: ${rule}`, { field, rule });
  }
}
