/**
 * What an agent is told when a call to the service fails: what happened, whether anything was
 * created or charged, and what to do next, in the specification's terms. Messages the service sent
 * are quoted as data; the API key never appears (the typed client redacts its errors, and the
 * server redacts every result again).
 */
import {
  ApiError,
  AuthenticationError,
  CooldownError,
  InvalidRequestError,
  JobFailedError,
  JobTimedOutError,
  MediaServiceError,
  ModelRetiredError,
  ModerationBlockError,
  PausedError,
  PermissionError,
  RateLimitedError,
  TooManyRequestsError,
  TransportError,
  WaitDeadlineError,
} from "../../generated/client.ts";
import { CATALOG, type Catalog } from "./catalog.ts";
import { QuoteInputError } from "./quoting.ts";

/** What the service said, as data: its code and message, cut short. */
function said(error: ApiError): string {
  const body = error.body as { error?: { message?: unknown } | string } | null;
  const message = typeof body?.error === "string" ? body.error : body?.error?.message;
  const parts = [
    error.code && `code ${error.code}`,
    typeof message === "string" && JSON.stringify(message.slice(0, 300)),
  ];
  const text = parts.filter(Boolean).join(", ");
  return text ? ` The service said: ${text}.` : "";
}

export interface ErrorContext {
  /** Jobs of this session not yet seen to end: with some running, a 429 without Retry-After is most likely the queue. */
  readonly jobsInFlight: number;
  /** The call was a create (a lost answer may then have made a job). */
  readonly create: boolean;
}

/** The text an agent is given for an error of the typed client (or of the quote). */
export function agentMessage(error: unknown, context: ErrorContext, catalog: Catalog = CATALOG): string {
  const nothing = context.create ? " Nothing was created or charged." : "";
  if (error instanceof QuoteInputError) return `Invalid input, refused before sending: ${error.message}.${nothing}`;
  if (error instanceof ModerationBlockError) {
    const reason = error.restrictionReason;
    const meaning = catalog.moderation.reasons[reason];
    return `Blocked by content moderation before generation: ${catalog.moderation.field} = ${reason}${meaning ? ` (${meaning})` : ""}. Reword the prompt or change the input media, then create again; do not resend the same input.${nothing}`;
  }
  if (error instanceof CooldownError)
    return `The content-filtered model family is cooling down after repeated failed generations: wait ${error.retryAfterSeconds} seconds before another request to this family (other models are unaffected; a success clears the cooldown).${nothing}${said(error)}`;
  if (error instanceof PausedError)
    return `Not sent: an earlier 429 asked to wait, and the service is not called again for ${error.retryAfterSeconds} more seconds (longer than this server holds a call). Try again after that.${nothing}`;
  if (error instanceof RateLimitedError)
    return `Rate limited (too many requests per minute) and the wait is longer than this server holds a call: wait ${error.retryAfterSeconds ?? "the Retry-After"} seconds, then try again.${nothing}`;
  if (error instanceof TooManyRequestsError) {
    const queue = `the account's queue is full (as many jobs in flight as its plan allows): wait for running jobs to finish (wait_job) and submit the next as one ends; a fixed wait is the wrong response`;
    const spend = `the monthly spend limit the account owner set is reached: retrying does not clear it; stop creating, and ask the owner to raise or remove it in the developer console's billing area`;
    const first =
      context.jobsInFlight > 0
        ? `${queue} (this session has ${context.jobsInFlight} job(s) running), or ${spend}`
        : `${spend}, or ${queue}`;
    return `Too many requests, without Retry-After: the service does not say which of two causes it is. Either ${first}.${nothing}${said(error)}`;
  }
  if (error instanceof AuthenticationError)
    return `The service refused the API key (401): the user must set a valid key in MEDIA_API_KEY in the server's configuration.${nothing}`;
  if (error instanceof PermissionError)
    return `Not permitted (403): a Free-plan key on a paid route, a job of another account, or an account restriction such as credits that cannot cover the price (the credits tool shows the balance).${nothing}${said(error)}`;
  if (error instanceof ModelRetiredError)
    return `This model is retired (410): use a current model of the same kind (list_models).${nothing}${said(error)}`;
  if (error instanceof InvalidRequestError)
    return `The service refused the request as invalid (400): fix the input (describe_model shows its schema).${nothing}${said(error)}`;
  if (error instanceof TransportError)
    return error.mayHaveCreatedJob
      ? `The answer to the create was lost (${error.message}): the job may exist and may be charged. Do not create again blindly: the server will not resend it; check the balance with credits, and ask the user before another create of the same input.`
      : `The service could not be reached (${error.message}); try again later.${nothing}`;
  if (error instanceof JobTimedOutError)
    return `Job ${error.jobId} ended in timeout: nothing is charged. It may be created again.`;
  if (error instanceof JobFailedError) return `Job ${error.jobId} failed: nothing is charged. It may be created again.`;
  if (error instanceof WaitDeadlineError)
    return `Job ${error.jobId} did not end in time (last status ${error.lastStatus ?? "unknown"}); wait for it again with wait_job.`;
  if (error instanceof ApiError) return `The service answered ${error.status}.${nothing}${said(error)}`;
  if (error instanceof MediaServiceError) return `${error.message}${nothing}`;
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}
