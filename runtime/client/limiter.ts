/**
 * An optional in-flight limiter: keeps this client's running jobs under the account's concurrency
 * cap. A slot is taken before a create is sent and given back when the job is seen terminal (or the
 * create failed), so polling, which never counts against the cap, needs no slot.
 */
export class InFlightLimiter {
  #used = 0;
  #jobs = new Set<string>();
  #waiters: Array<() => void> = [];

  constructor(readonly max: number) {}

  /** Slots taken: creates being sent plus jobs not yet seen terminal. */
  get inFlight(): number {
    return this.#used;
  }

  /** Job ids created through this client and not yet seen terminal. */
  get runningJobs(): readonly string[] {
    return [...this.#jobs];
  }

  /** Waits for a free slot and takes it. */
  async acquire(signal?: AbortSignal): Promise<void> {
    while (this.#used >= this.max) await this.nextRelease(signal);
    this.#used += 1;
  }

  /** Marks a taken slot as held by a created job, released when `finished(jobId)` is called. */
  hold(jobId: string): void {
    this.#jobs.add(jobId);
  }

  /** Gives back a slot that holds no job (the create failed, or its response names no job). */
  giveBack(): void {
    this.#used -= 1;
    this.#wake();
  }

  /** The job was seen terminal: its slot is free. Unknown ids (other clients' jobs) are ignored. */
  finished(jobId: string): void {
    if (this.#jobs.delete(jobId)) this.giveBack();
  }

  /** Resolves the next time any slot is given back; rejects with the signal's reason on abort. */
  nextRelease(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== onRelease);
        reject(signal?.reason);
      };
      const onRelease = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      this.#waiters.push(onRelease);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter();
  }
}
