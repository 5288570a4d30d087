/** setTimeout's longest delay: a longer one fires at once (with a TimeoutOverflowWarning in Node). */
const LONGEST = 2 ** 31 - 1;

/** An abortable sleep of at most LONGEST: rejects with the signal's reason as soon as the signal aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.min(ms, LONGEST),
    );
    // Left in place once it ran: a signal aborts only once.
    signal?.addEventListener("abort", onAbort);
  });
