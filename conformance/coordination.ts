/**
 * The few primitives the checks coordinate with while they run concurrently: a counting semaphore
 * (requests in flight), concurrency slots (jobs in flight on an account), an account's charges as
 * the billing check measures them (charges it cannot add up wait until it is done), stages
 * (checks whose last request starts a long wait run after all others) and work started now but
 * awaited later.
 */
import type { ContractOperation } from "../contract/contract.ts";
import type { RequestSpec } from "./http.ts";

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

/**
 * Work started now and awaited later. A promise kept in a list and awaited only later is left
 * without a handler meanwhile: if it rejects first, Node ends the process (an unhandled rejection).
 * Each task here is handled from the start, and its failure is thrown by `settled`.
 */
export class Pending {
  private readonly tasks: Array<Promise<unknown>> = [];

  add(task: Promise<unknown>): void {
    task.catch(() => undefined);
    this.tasks.push(task);
  }

  get size(): number {
    return this.tasks.length;
  }

  /** Waits for every task, then throws the first failure, if any. */
  async settled(): Promise<void> {
    const failed = (await Promise.allSettled(this.tasks)).find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
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

  constructor(readonly cap: number) {}

  /** A slot once fewer than `cap` are taken. */
  async acquire(): Promise<Slot> {
    while (this.inFlight >= this.cap) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.take();
  }

  /** A slot now, past the cap if need be. */
  take(): Slot {
    this.inFlight++;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.inFlight--;
        for (const resolve of this.onRelease.splice(0)) resolve();
        // Every waiter looks again: slots taken past the cap may leave none free yet.
        for (const resolve of this.waiting.splice(0)) resolve();
      },
    };
  }

  /** Resolves the next time a slot is freed. */
  released(): Promise<void> {
    return new Promise((resolve) => this.onRelease.push(resolve));
  }
}

/** Waits until a predicate holds, re-checked whenever the state it reads changes (`notify`). */
class Condition {
  private readonly waiting: Array<{ holds: () => boolean; resolve: () => void }> = [];

  /** Runs `act` once `holds()` is true, in the same turn as that test, so that nothing changes the state between them. */
  async when<T>(holds: () => boolean, act: () => T): Promise<T> {
    while (!holds()) await new Promise<void>((resolve) => this.waiting.push({ holds, resolve }));
    return act();
  }

  notify(): void {
    for (const waiter of [...this.waiting]) {
      if (!waiter.holds()) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}

/** A charge that ran while the billing check measured: its price, and whether it was charged. */
export interface MeasuredCharge {
  readonly what: string;
  readonly credits: number;
  charged(): boolean;
  /** The request that started the job, to measure it again alone when the balance disagrees. */
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  /**
   * A pledged charge's owner, told the measurement's verdict: true when the balance fell by every
   * quote, false when it did not or could not be read (the owner then measures its charges again itself).
   */
  readonly verdict?: (agreed: boolean) => void;
}

/** The charge with a verdict given once: later ones (the measurement's closing "not known to agree") are dropped. */
function withOneVerdict(charge: MeasuredCharge): MeasuredCharge {
  const tell = charge.verdict;
  if (!tell) return charge;
  let told = false;
  return {
    ...charge,
    verdict: (agreed) => {
      if (told) return;
      told = true;
      tell(agreed);
    },
  };
}

/** Charges pledged to the billing measurement (Charges.pledge). */
export interface Pledge {
  /**
   * Runs one pledged charge of exact price inside the measurement, past its room; `measured` is
   * false where no measurement took it (one had already ended).
   */
  charge<T>(work: (report: (charge: MeasuredCharge) => void, measured: boolean) => Promise<T>): Promise<T>;
  /** Gives up the pledged charges not yet run, so that the measurement does not wait for them. */
  release(): void;
}

interface Measurement {
  open: boolean;
  /** Charges that may still join. */
  room: number;
  /** Joined charges still running. */
  running: number;
  readonly charges: MeasuredCharge[];
}

/**
 * An account's balance as the billing check reads it. The check measures once no charge runs;
 * while it measures, up to the room it opens, charges of an exact price may run beside it and
 * report what they charge, and every other charge waits until it is done.
 */
export class Charges {
  private running = 0;
  private measurement: Measurement | null = null;
  /** Charges pledged to a measurement that have not joined it yet. */
  private pledged = 0;
  /** A measurement has ended: a pledged charge finding none open runs unmeasured. */
  private ended = false;
  private readonly changed = new Condition();

  /**
   * Pledges `count` charges of exact price to the measurement in progress or the next one (the
   * billing check's, which other checks' verdicts on prices ride on): it stays open until each
   * has joined and ended, or the pledge is released.
   */
  pledge(count: number): Pledge {
    let left = count;
    this.pledged += count;
    const drop = (): void => {
      this.pledged -= left;
      left = 0;
      this.changed.notify();
    };
    return {
      charge: async (work) => {
        const measurement = await this.changed.when(
          () => this.measurement?.open === true || (this.measurement === null && this.ended),
          () => {
            if (left > 0) {
              left--;
              this.pledged--;
            }
            return this.enter(this.measurement);
          },
        );
        return this.within(measurement, (report) => work(report, measurement !== null));
      },
      release: drop,
    };
  }

  /** Runs work that may charge `credits` (null: a price not known exactly); `report` tells a measurement what was charged. */
  async charge<T>(credits: number | null, work: (report: (charge: MeasuredCharge) => void) => Promise<T>): Promise<T> {
    const measurement = await this.changed.when(
      () => this.measurement === null || (this.measurement.open && credits !== null && this.measurement.room > 0),
      () => {
        // Counted in the same turn as the test, so that no measurement starts in between.
        if (this.measurement) this.measurement.room--;
        return this.enter(this.measurement);
      },
    );
    return this.within(measurement, work);
  }

  /**
   * Runs work of exact price that cannot wait for a measurement (the cap's probe, whose create should
   * be refused at once but may start a job): it joins a measurement in progress past its room and
   * reports what it charged, and a measurement about to start waits for it.
   */
  unplanned<T>(work: (report: (charge: MeasuredCharge) => void) => Promise<T>): Promise<T> {
    return this.within(this.enter(this.measurement), work);
  }

  /** Counts charging work as running (and in `measurement`, if any). */
  private enter(measurement: Measurement | null): Measurement | null {
    this.running++;
    if (measurement) measurement.running++;
    return measurement;
  }

  /** Runs charging work that `enter` counted, until it is done. */
  private async within<T>(
    measurement: Measurement | null,
    work: (report: (charge: MeasuredCharge) => void) => Promise<T>,
  ): Promise<T> {
    try {
      return await work((charge) => measurement?.charges.push(withOneVerdict(charge)));
    } finally {
      this.running--;
      if (measurement) measurement.running--;
      this.changed.notify();
    }
  }

  /**
   * Runs the billing check's measurement. `open({ cap, own })` opens it to the pledged charges
   * (Charges.pledge) and to as many other charges of exact price as the slots its own and the pledged
   * jobs leave free in their last round of the cap; `settled()` waits for them to end and says what
   * they charged.
   */
  async measure<T>(
    work: (window: {
      open(slots: { readonly cap: number; readonly own: number }): void;
      settled(): Promise<MeasuredCharge[]>;
    }) => Promise<T>,
  ): Promise<T> {
    const measurement: Measurement = { open: false, room: 0, running: 0, charges: [] };
    await this.changed.when(
      () => this.measurement === null,
      () => (this.measurement = measurement),
    );
    await this.changed.when(
      () => this.running === 0,
      () => undefined,
    );
    try {
      return await work({
        open: ({ cap, own }) => {
          // Jobs of about one length run in rounds of the cap: others filling the last round's free
          // slots end with it, and any more would only lengthen the measurement by a round.
          const jobs = own + this.pledged;
          Object.assign(measurement, { open: true, room: (cap - (jobs % cap)) % cap });
          this.changed.notify();
        },
        settled: async () => {
          measurement.room = 0;
          return this.changed.when(
            () => measurement.running === 0 && this.pledged === 0,
            () => measurement.charges,
          );
        },
      });
    } finally {
      // A charge whose verdict the measurement did not give (the balance could not be read) is not known to agree.
      for (const charge of measurement.charges) charge.verdict?.(false);
      this.measurement = null;
      this.ended = true;
      this.changed.notify();
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
