/**
 * The client-wide pause after a 429 that names a wait (`Retry-After`, or a cooldown's
 * `retry_after_seconds`): the specification says the client waits the full time before sending
 * anything else, so every request of a client waits it out. A request that would wait longer than
 * the caller's maximum is not held: it fails at once with a PausedError carrying the wait, and is
 * not sent early either.
 */
import { PausedError } from "./errors.ts";
import { sleep } from "./sleep.ts";

export interface Pause {
  /** Epoch milliseconds until which every request waits (0: no pause yet). */
  readonly until: number;
  /** Holds every request for `seconds` from now, the whole time asked. */
  hold(seconds: number): void;
  /**
   * Resolves once no pause holds (a pause lengthened meanwhile included); rejects when `signal`
   * aborts, and at once with a PausedError when the pause has longer to run than the maximum.
   */
  wait(signal?: AbortSignal | null): Promise<void>;
}

/** A pause whose requests wait at most `maxMs` (the client's `maxPauseMs`, itself below setTimeout's longest delay). */
export function retryAfterPause(maxMs: number): Pause {
  let until = 0;
  return {
    get until() {
      return until;
    },
    hold(seconds) {
      // A later, shorter wait never shortens the pause.
      until = Math.max(until, Date.now() + seconds * 1000);
    },
    async wait(signal) {
      // A later 429 may lengthen the pause while a request waits it out.
      for (let left: number; (left = until - Date.now()) > 0; ) {
        if (left > maxMs) throw new PausedError(Math.ceil(left / 1000));
        await sleep(left, signal ?? undefined);
      }
    },
  };
}
