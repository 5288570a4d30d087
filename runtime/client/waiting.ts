/**
 * Waiting for a job: polls at the area's cadence until a terminal status, reports each status
 * change, stops at an overall deadline, and ends in the typed outcome.
 */
import { JobFailedError, JobTimedOutError, MediaServiceError, WaitDeadlineError } from "./errors.ts";
import type { RequestOptions } from "./options.ts";
import { redactBody } from "./redact.ts";
import type { RouteTable } from "./route-table.ts";
import { sleep } from "./sleep.ts";

/** The `status` of a poll response (the description's JobStatus). */
type StatusOf<JobBody> = JobBody extends { status: infer Status } ? Status : string;

/** `signal` aborts the wait, in a poll request or in a sleep; `headers` go with each poll (and the create of `createAndWait`). */
export interface WaitOptions<JobBody> extends RequestOptions {
  /**
   * Called with each new status, and the poll response that carried it (null for the create
   * response's status, reported first by `createAndWait`).
   */
  onStatus?: (status: StatusOf<JobBody>, job: JobBody | null) => void;
  /** Overrides the area's polling interval, in milliseconds. */
  intervalMs?: number;
  /** Overrides the client's overall deadline for this wait, in milliseconds; then WaitDeadlineError. */
  deadlineMs?: number;
}

export interface PollPlan<JobBody> {
  jobId: string;
  intervalMs: number;
  deadlineMs: number;
  /** The description's terminal, success and timeout statuses. */
  statuses: Pick<RouteTable, "terminalStatuses" | "successStatus" | "timeoutStatus">;
  resultFields: readonly string[];
  /** The status already known (from the create response), reported once by the caller. */
  knownStatus?: string;
  /** Sleep one interval before the first poll: the job was created a moment ago. */
  justCreated: boolean;
  /** Redacted from the poll response kept on a JobFailedError or JobTimedOutError. */
  apiKey: string;
  poll(signal: AbortSignal): Promise<JobBody>;
}

export async function waitForTerminal<JobBody extends { status: string }>(
  plan: PollPlan<JobBody>,
  options: WaitOptions<JobBody>,
): Promise<JobBody> {
  let lastStatus: string | null = plan.knownStatus ?? null;
  const controller = new AbortController();
  // The deadline aborts whatever is under way, a poll request or a sleep, with its own error.
  const deadline = setTimeout(
    () => controller.abort(new WaitDeadlineError(plan.jobId, lastStatus, plan.deadlineMs)),
    plan.deadlineMs,
  );
  const forward = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  options.signal?.addEventListener("abort", forward, { once: true });
  try {
    for (let sleepFirst = plan.justCreated; ; sleepFirst = true) {
      if (sleepFirst) await sleep(plan.intervalMs, controller.signal);
      const job = await plan.poll(controller.signal);
      if (job.status !== lastStatus) {
        lastStatus = job.status;
        options.onStatus?.(job.status as StatusOf<JobBody>, job);
      }
      if (plan.statuses.terminalStatuses.includes(job.status)) return outcome(plan, job);
    }
  } finally {
    clearTimeout(deadline);
    options.signal?.removeEventListener("abort", forward);
  }
}

function outcome<JobBody extends { status: string }>(plan: PollPlan<JobBody>, job: JobBody): JobBody {
  if (job.status === plan.statuses.timeoutStatus) throw new JobTimedOutError(plan.jobId, redactBody(job, plan.apiKey));
  if (job.status !== plan.statuses.successStatus) throw new JobFailedError(plan.jobId, redactBody(job, plan.apiKey));
  const missing = plan.resultFields.filter((field) => (job as Record<string, unknown>)[field] == null);
  if (missing.length > 0) {
    throw new MediaServiceError(`job ${plan.jobId} ${job.status} but its poll response lacks ${missing.join(", ")}`);
  }
  return job;
}
