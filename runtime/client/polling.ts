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

/** What a caller may add to a wait (positional arguments otherwise: they cost nothing in the minified bundle). */
export interface PollOptions<Job extends PolledJob> {
  /** Called with each new status and the poll response that carried it (null for the create response's). */
  onStatus?: ((status: string, job: Job | null) => void) | undefined;
  /** Aborts the wait, in a poll or in a sleep, rejecting with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Calls `poll` every `intervalMs` until `isTerminal` says the job's status ends the wait, and returns
 * that poll response; after `deadlineMs` the wait ends in WaitDeadlineError naming `jobId`, whatever
 * is under way. `poll` gets the signal that the deadline and the caller's signal abort, for its
 * request. `created`: the create response of a job created a moment ago, whose status is reported
 * first and whose first poll waits one interval (without it the first poll goes at once).
 */
export async function pollUntilTerminal<Job extends PolledJob>(
  poll: (signal: AbortSignal) => Promise<Job>,
  jobId: string,
  intervalMs: number,
  deadlineMs: number,
  isTerminal: (status: string) => boolean,
  created?: { status?: string | null | undefined },
  { onStatus, signal: callerSignal }: PollOptions<Job> = {},
): Promise<Job> {
  let lastStatus = created?.status || null;
  if (lastStatus) onStatus?.(lastStatus, null);
  // The deadline and the caller's signal abort whatever is under way, a poll request or a sleep.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new WaitDeadlineError(jobId, lastStatus, deadlineMs)), deadlineMs);
  const signal = callerSignal ? AbortSignal.any([deadline.signal, callerSignal]) : deadline.signal;
  try {
    if (created) await sleep(intervalMs, signal);
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
