/**
 * Waiting that an `AbortSignal` ends at once: `start` begins the wait (a timer, a place in a queue),
 * calls `done` when it is over, and returns how to undo it should the signal abort first; the
 * promise then rejects with the signal's reason.
 */
export function abortable(signal: AbortSignal | undefined, start: (done: () => void) => () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      undo();
      reject(signal?.reason);
    };
    const undo = start(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  abortable(signal, (done) => {
    const timer = setTimeout(done, ms);
    return () => clearTimeout(timer);
  });
