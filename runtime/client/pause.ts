/**
 * The client-wide `Retry-After` pause: after a 429 with `Retry-After` the specification says the
 * client waits the full time before sending anything else, so every request of a client waits it out.
 */
import { sleep } from "./sleep.ts";

export interface Pause {
  /** Epoch milliseconds until which every request waits (0: no pause yet). */
  readonly until: number;
  /** Holds every request for `seconds` from now, at most the pause's maximum. */
  hold(seconds: number): void;
  /** Resolves once no pause holds (a pause lengthened meanwhile included); rejects when `signal` aborts. */
  wait(signal?: AbortSignal | null): Promise<void>;
}

/** A pause never longer than `maxMs` (the client's `maxPauseMs`, itself below setTimeout's longest delay). */
export function retryAfterPause(maxMs: number): Pause {
  let until = 0;
  return {
    get until() {
      return until;
    },
    hold(seconds) {
      // A later, shorter Retry-After never shortens the pause.
      until = Math.max(until, Date.now() + Math.min(seconds * 1000, maxMs));
    },
    async wait(signal) {
      // A later 429 may lengthen the pause while a request waits it out.
      while (Date.now() < until) await sleep(until - Date.now(), signal ?? undefined);
    },
  };
}
