/**
 * The optional in-flight limiter, an entry point of its own (`@media-service/client/limiter`) so
 * that a client without it does not ship it: `createClient({ ..., limiter: inFlightLimiter(4) })`.
 * It keeps the running jobs of the clients given it under the account's concurrency cap. A slot is
 * taken before a create is sent and given back when the job is seen terminal (or the create was
 * refused), so polling, which never counts against the cap, needs no slot. A create whose outcome is
 * unknown (a TransportError with `mayHaveCreatedJob`, or one its caller aborted: the request may
 * have reached the service) keeps its slot until the caller settles it.
 */
import { TooManyRequestsError, TransportError } from "./errors.ts";
import { integer } from "./option-values.ts";
import { sleep } from "./sleep.ts";

export interface InFlightLimiter {
  /** Job ids created through its clients and not yet seen terminal. */
  readonly jobs: ReadonlySet<string>;
  /**
   * Sends a create in a slot: `send` resolves to the create response and the job id it names (null:
   * none), whose job then holds the slot until `release(jobId)`. A 429 that may be the queue being
   * full (TooManyRequestsError) while its own jobs run is sent again once one of them finishes, at
   * most `maxResends` times: the description cannot tell a full queue from the spend limit, so a
   * spend-limit 429 is resent that often before it is thrown.
   */
  create<Created>(
    send: () => Promise<[created: Created, jobId: string | null]>,
    maxResends: number,
    signal?: AbortSignal,
  ): Promise<[Created, string | null]>;
  /** A job was seen terminal: its slot is free (an id it does not hold, another client's job, is ignored). */
  release(jobId: string): void;
  /** Slots held by creates whose outcome is unknown: they got no usable answer, so their job may run. */
  readonly unknown: number;
  /**
   * Settles one create of unknown outcome, once the caller knows what it did: it made job `jobId`
   * (the slot is then that job's, freed when it is seen terminal), or none (null: the slot is free).
   * Ignored when no create's outcome is unknown.
   */
  settleUnknown(jobId: string | null): void;
}

/** A limiter of at most `maxInFlight` jobs; InvalidInputError unless that is a positive integer. */
export function inFlightLimiter(maxInFlight: number): InFlightLimiter {
  // Absent counts as 0, which is refused like any other size that is not a positive integer.
  const max = integer("maxInFlight", maxInFlight ?? 0, 0);
  let used = 0;
  let unknown = 0;
  const jobs = new Set<string>();
  // Aborted, and replaced, whenever a slot is given back: waiting for one sleeps until then (or until
  // the caller's signal aborts; should setTimeout's longest delay pass first, the caller looks again).
  let released = new AbortController();
  const nextRelease = async (signal?: AbortSignal) => {
    const release = released.signal;
    try {
      // Stryker disable next-line ArithmeticOperator: equivalent: sleep caps every delay at setTimeout's longest, 2 ** 31 - 1 ms
      await sleep(2 ** 31 - 1, AbortSignal.any(signal ? [release, signal] : [release]));
    } catch (error) {
      if (!release.aborted) throw error;
    }
  };
  const free = () => {
    used -= 1;
    released.abort();
    released = new AbortController();
  };
  return {
    jobs,
    async create(send, maxResends, signal) {
      while (used >= max) await nextRelease(signal);
      used += 1;
      // What the create did: made a job (its id), made none (null), or may have made one (undefined).
      let outcome: string | null | undefined = null;
      try {
        for (let resends = 0; ; resends += 1) {
          try {
            const sent = await send();
            outcome = sent[1];
            return sent;
          } catch (error) {
            const aborted = signal?.aborted && error === signal.reason;
            if (aborted || (error instanceof TransportError && error.mayHaveCreatedJob)) outcome = undefined;
            // Only its own running jobs make "queue full" the likely cause, and a fixed wait is the wrong response to it.
            if (!(error instanceof TooManyRequestsError && jobs.size > 0 && resends < maxResends)) throw error;
            await nextRelease(signal);
          }
        }
      } finally {
        if (outcome === null) free();
        else if (outcome === undefined) unknown += 1;
        else jobs.add(outcome);
      }
    },
    release(jobId) {
      if (jobs.delete(jobId)) free();
    },
    get unknown() {
      return unknown;
    },
    settleUnknown(jobId) {
      if (unknown === 0) return;
      unknown -= 1;
      if (jobId === null) free();
      else jobs.add(jobId);
    },
  };
}
