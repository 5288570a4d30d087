/**
 * Jobs: each runs on the sandbox clock from its creation to its end time, walking the non-terminal
 * statuses in the description's order, then shows its terminal status until it expires. Status is
 * computed when asked, so a job costs no timer. Ended jobs are settled per account in end-time
 * order (billing, concurrency, cooldown); finished jobs expire after the retention and are dropped,
 * so memory stays bounded however many jobs are created.
 */
import type { AreaModel, CreateRouteModel, ServiceModel } from "../model/service-model.ts";
import { MinHeap } from "./heap.ts";

export interface Job {
  /** The id the job is polled with (the decimal text of an integer id). */
  readonly id: string;
  readonly accountName: string;
  readonly route: CreateRouteModel;
  readonly createdAt: number;
  readonly endAt: number;
  readonly expireAt: number;
  /** The terminal status it ends in. */
  readonly outcome: string;
  /** The price charged on success (0 where the description shows none). */
  readonly credits: number;
  /** Reserved at creation and shown as held until the job ends. */
  readonly held: boolean;
  /** Items of array result fields (images). */
  readonly outputs: number;
  settled: boolean;
}

export interface JobTiming {
  /** Clock milliseconds from creation to the terminal status. */
  readonly runMs: number;
  /** Clock milliseconds a finished job can still be polled. */
  readonly retentionMs: number;
}

/** Run time and retention of an area's jobs: the description's figures where shown, else the config's, on the sandbox clock's speed. */
export function timingOf(
  area: AreaModel,
  speed: number,
  defaultSeconds: number,
  defaultRetentionHours: number,
): JobTiming {
  const seconds = area.poll.typicalDurationSeconds?.min ?? defaultSeconds;
  const hours = area.poll.retention?.hours ?? defaultRetentionHours;
  return { runMs: (seconds * 1000) / speed, retentionMs: (hours * 3_600_000) / speed };
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();
  private readonly expiries = new MinHeap<Job>((job) => job.expireAt);
  private readonly progression: readonly string[];
  private sequence = 0;

  constructor(model: ServiceModel) {
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
    if (integer) return String(this.sequence);
    return `${prefix}${this.sequence.toString(36).padStart(6, "0")}${Math.random().toString(36).slice(2, 8)}`;
  }

  add(job: Job): void {
    this.jobs.set(job.id, job);
    this.expiries.push(job);
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  statusAt(job: Job, now: number): string {
    if (now >= job.endAt) return job.outcome;
    const share = (now - job.createdAt) / (job.endAt - job.createdAt);
    // Stryker disable next-line ArithmeticOperator: equivalent: now < endAt keeps share below 1, so the floor never reaches length and the bound never binds
    return this.progression[Math.min(this.progression.length - 1, Math.floor(share * this.progression.length))]!;
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
