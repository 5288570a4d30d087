/**
 * An optional in-flight limiter: keeps this client's running jobs under the account's concurrency
 * cap. A slot is taken before a create is sent and given back when the job is seen terminal (or the
 * create failed), so polling, which never counts against the cap, needs no slot.
 */
import { abortable } from "./sleep.ts";

export interface InFlightLimiter {
  /** Job ids created through this client and not yet seen terminal; a created job's id is added to hold its slot. */
  readonly jobs: Set<string>;
  /** Waits for a free slot and takes it. */
  acquire(signal?: AbortSignal): Promise<void>;
  /**
   * Gives a slot back: without an id, the slot of a create that failed or named no job; with one,
   * that job's slot, now that it is terminal (an id it does not hold, another client's job, is ignored).
   */
  release(jobId?: string): void;
  /** Resolves the next time any slot is given back; rejects with the signal's reason on abort. */
  nextRelease(signal?: AbortSignal): Promise<void>;
}

export function inFlightLimiter(max: number): InFlightLimiter {
  let used = 0;
  const jobs = new Set<string>();
  const waiters = new Set<() => void>();
  const nextRelease = (signal?: AbortSignal) =>
    abortable(signal, (done) => {
      waiters.add(done);
      return () => waiters.delete(done);
    });
  return {
    jobs,
    async acquire(signal) {
      while (used >= max) await nextRelease(signal);
      used += 1;
    },
    release(jobId) {
      if (jobId !== undefined && !jobs.delete(jobId)) return;
      used -= 1;
      // Resolving settles each waiter's promise later, so none of them touches the set meanwhile.
      for (const waiter of waiters) waiter();
      waiters.clear();
    },
    nextRelease,
  };
}
