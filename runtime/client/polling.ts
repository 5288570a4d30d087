/**
 * Polling a job until it reaches a terminal status, apart from any client: `poll` sends one poll,
 * this module decides when, reports each new status and ends the wait at the deadline or on the
 * caller's signal. What a terminal status means (a result, a failure) is the caller's to decide.
 */
import { WaitDeadlineError } from "./errors.ts";
import { sleep } from "./sleep.ts";

/** A poll response: the job's status, and whatever else it carries. */
export interface PolledJob {
  status: string;
}

export interface PollOptions<Job extends PolledJob> {
  /** The job's id, named by WaitDeadlineError. */
  jobId: string;
  /** Milliseconds between two polls. */
  intervalMs: number;
  /** Milliseconds after which the wait ends in WaitDeadlineError, whatever is under way. */
  deadlineMs: number;
  /** Whether a status ends the wait. */
  isTerminal: (status: string) => boolean;
  /** The status the job is known to have before the first poll (a create response's), reported first. */
  knownStatus?: string | null | undefined;
  /** Wait one interval before the first poll (a job created a moment ago); else the first poll goes at once. */
  delayFirstPoll?: boolean | undefined;
  /** Called with each new status and the poll response that carried it (null for `knownStatus`). */
  onStatus?: ((status: string, job: Job | null) => void) | undefined;
  /** Aborts the wait, in a poll or in a sleep, rejecting with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Calls `poll` until the job's status is terminal and returns that poll response. `poll` gets the
 * signal that the deadline and the caller's signal abort, for its request.
 */
export async function pollUntilTerminal<Job extends PolledJob>(
  poll: (signal: AbortSignal) => Promise<Job>,
  options: PollOptions<Job>,
): Promise<Job> {
  const { jobId, intervalMs, deadlineMs, isTerminal, knownStatus, delayFirstPoll, onStatus } = options;
  let lastStatus = knownStatus || null;
  if (lastStatus) onStatus?.(lastStatus, null);
  // The deadline and the caller's signal abort whatever is under way, a poll request or a sleep.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new WaitDeadlineError(jobId, lastStatus, deadlineMs)), deadlineMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  try {
    if (delayFirstPoll) await sleep(intervalMs, signal);
    for (;;) {
      const job = await poll(signal);
      if (job.status !== lastStatus) {
        lastStatus = job.status;
        onStatus?.(job.status, job);
      }
      if (isTerminal(job.status)) return job;
      await sleep(intervalMs, signal);
    }
  } finally {
    clearTimeout(timer);
  }
}
