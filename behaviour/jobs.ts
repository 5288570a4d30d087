/**
 * Jobs: each runs from its creation to its end time, walking the non-terminal statuses in the
 * description's order, then shows its terminal status until it expires. Status is computed when
 * asked, so a job costs no timer. Ended jobs are settled per account in end-time order (billing,
 * concurrency, cooldown); finished jobs expire after the retention and are dropped, so memory stays
 * bounded however many jobs are created. A job whose end the choices leave open (an end time of
 * Infinity) ends when told (`end`): the oracle ends it where a target's answers show it ended.
 */
import type { CreateRouteModel, ServiceModel } from "../model/service-model.ts";
import type { Choices } from "./choices.ts";
import { MinHeap } from "./heap.ts";

export interface Job {
  /** The id the job is polled with (the decimal text of an integer id). */
  readonly id: string;
  readonly accountName: string;
  /** The key that created it. */
  readonly key: string;
  readonly route: CreateRouteModel;
  readonly createdAt: number;
  /** When it ends; Infinity until told (`JobStore.end`). */
  endAt: number;
  expireAt: number;
  /** The terminal status it ends in. */
  outcome: string;
  /** The price charged on success (0 where the description shows none). */
  readonly credits: number;
  /** Reserved at creation and shown as held until the job ends. */
  readonly held: boolean;
  /** Items of array result fields (images). */
  readonly outputs: number;
  settled: boolean;
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();
  private readonly expiries = new MinHeap<Job>((job) => job.expireAt);
  private readonly progression: readonly string[];
  private sequence = 0;

  constructor(
    model: ServiceModel,
    private readonly choices: Pick<Choices, "jobId">,
  ) {
    const { values, terminal, initial } = model.jobStatus;
    const running = values.filter((status) => !terminal.includes(status));
    // The transitions are not shown: the sandbox walks the running statuses in the enum's order from the initial one.
    this.progression = running.slice(running.indexOf(initial));
    if (this.progression[0] !== initial)
      throw new Error(`JobStatus's initial status ${initial} is not a running status`);
  }

  get size(): number {
    return this.jobs.size;
  }

  /** A new job id: the area's prefix and an opaque part, or the next integer where the id is one. */
  nextId(prefix: string, integer: boolean): string {
    this.sequence += 1;
    return this.choices.jobId(prefix, integer, this.sequence);
  }

  add(job: Job): void {
    this.jobs.set(job.id, job);
    this.expiries.push(job);
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Every job kept (not yet expired). */
  all(): IterableIterator<Job> {
    return this.jobs.values();
  }

  statusAt(job: Job, now: number): string {
    if (now >= job.endAt) return job.outcome;
    const share = (now - job.createdAt) / (job.endAt - job.createdAt);
    // Stryker disable next-line ArithmeticOperator: equivalent: now < endAt keeps share below 1, so the floor never reaches length and the bound never binds
    return this.progression[Math.min(this.progression.length - 1, Math.floor(share * this.progression.length))]!;
  }

  /** Ends a job whose end was left open, at `at` in `outcome`, to be kept `retentionMs` after. */
  end(job: Job, outcome: string, at: number, retentionMs: number): void {
    job.endAt = at;
    job.outcome = outcome;
    job.expireAt = at + retentionMs;
    this.expiries.reorder();
  }

  /** Drops the jobs whose retention has passed; `settle` runs first for any not yet settled. */
  expire(now: number, settle: (job: Job) => void): void {
    for (let job = this.expiries.peek(); job !== undefined && job.expireAt <= now; job = this.expiries.peek()) {
      this.expiries.pop();
      // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent: settling a settled job again does nothing (its account's heap no longer holds it)
      if (!job.settled) settle(job);
      this.jobs.delete(job.id);
    }
  }
}
