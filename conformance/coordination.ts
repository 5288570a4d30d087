/**
 * The few primitives the checks coordinate with while they run concurrently: a counting semaphore
 * (requests in flight), concurrency slots (jobs in flight on an account), a first-come shared /
 * exclusive lock (the billing check needs an account no other check charges meanwhile) and stages
 * (checks whose last request starts a long wait run after all others).
 */

export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.size) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export interface Slot {
  /** Frees the slot; later calls do nothing. */
  release(): void;
}

/** Jobs in flight on one account, at most `cap` unless taken on purpose (the cap's own probe, a job the target should not have created). */
export class Slots {
  inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly onRelease: Array<() => void> = [];
  private readonly onFull: Array<() => void> = [];

  constructor(readonly cap: number) {}

  /** A slot once fewer than `cap` are taken. */
  async acquire(): Promise<Slot> {
    while (this.inFlight >= this.cap) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.take();
  }

  /** A slot now, past the cap if need be. */
  take(): Slot {
    this.inFlight++;
    if (this.inFlight >= this.cap) for (const resolve of this.onFull.splice(0)) resolve();
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.inFlight--;
        for (const resolve of this.onRelease.splice(0)) resolve();
        this.waiting.shift()?.();
      },
    };
  }

  /** Resolves the next time a slot is freed. */
  released(): Promise<void> {
    return new Promise((resolve) => this.onRelease.push(resolve));
  }

  /** Resolves once `cap` slots are taken. */
  full(): Promise<void> {
    return this.inFlight >= this.cap ? Promise.resolve() : new Promise((resolve) => this.onFull.push(resolve));
  }
}

/** Shared or exclusive use of an account's balance, granted in the order asked. */
export class ChargeLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Array<{ exclusive: boolean; grant: () => void }> = [];

  shared<T>(work: () => Promise<T>): Promise<T> {
    return this.hold(false, work);
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.hold(true, work);
  }

  private async hold<T>(exclusive: boolean, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((grant) => {
      this.queue.push({ exclusive, grant });
      this.grant();
    });
    try {
      return await work();
    } finally {
      if (exclusive) this.writer = false;
      else this.readers--;
      this.grant();
    }
  }

  private grant(): void {
    for (let next = this.queue[0]; next && !this.writer; next = this.queue[0]) {
      if (next.exclusive && this.readers > 0) return;
      this.queue.shift();
      if (next.exclusive) this.writer = true;
      else this.readers++;
      next.grant();
    }
  }
}

/**
 * When a check may go on: every check starts at stage 0; one that waits for stage k goes on once
 * every other check has finished or waits for stage k or later.
 */
export class Stages {
  private readonly at = new Map<symbol, number>();
  private readonly waiting: Array<{ stage: number; resolve: () => void }> = [];

  enroll(): symbol {
    const token = Symbol("check");
    this.at.set(token, 0);
    return token;
  }

  reach(token: symbol, stage: number): Promise<void> {
    this.at.set(token, Math.max(stage, this.at.get(token) ?? 0));
    const reached = new Promise<void>((resolve) => this.waiting.push({ stage, resolve }));
    this.release();
    return reached;
  }

  leave(token: symbol): void {
    this.at.delete(token);
    this.release();
  }

  private release(): void {
    const lowest = Math.min(...this.at.values());
    for (const waiter of this.waiting.filter((candidate) => candidate.stage <= lowest)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
