/**
 * Jobs of the independent server. Each runs on its own timer for a random time within the
 * configured range, concurrently with the others, passing through every non-terminal status; it
 * ends `failed` or `timeout` when its prompt carries the server's marker for that, else
 * `succeeded`. The charge (or the release of a held price) happens at the moment the job ends, not
 * when it is polled.
 */
import type { Account } from "./accounts.ts";

export type Outcome = "succeeded" | "failed" | "timeout";

const PHASES = [
  { status: "pending", until: 0.1 },
  { status: "starting", until: 0.3 },
  { status: "processing", until: 0.8 },
  { status: "completing", until: 1 },
] as const;

export interface JobSpec {
  readonly id: string;
  /** The poll route's path segment (`images`, `lip-sync`, ...). */
  readonly segment: string;
  readonly label: string;
  readonly account: Account;
  readonly outcome: Outcome;
  /** Credits charged on success (after discount); 0 when the free allowance covers it. */
  readonly price: number;
  /** Credits reserved now and released when the job ends. */
  readonly held: number;
  /** Result fields of a succeeded job. */
  readonly result: (id: string) => Record<string, unknown>;
  readonly onEnd: (job: Job) => void;
}

export interface Job extends JobSpec {
  readonly startedAt: number;
  readonly durationMs: number;
  ended?: Outcome;
}

export interface Durations {
  readonly minMs: number;
  readonly maxMs: number;
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly durations: Durations) {}

  start(spec: JobSpec, now: number): Job {
    const durationMs = this.durations.minMs + Math.random() * (this.durations.maxMs - this.durations.minMs);
    const job: Job = { ...spec, startedAt: now, durationMs };
    this.jobs.set(`${spec.segment}/${spec.id}`, job);
    spec.account.inFlight++;
    spec.account.held += spec.held;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.end(job);
    }, durationMs);
    this.timers.add(timer);
    return job;
  }

  private end(job: Job): void {
    job.ended = job.outcome;
    job.account.inFlight--;
    job.account.held -= job.held;
    if (job.outcome === "succeeded" && job.price > 0) job.account.charge(job.price);
    job.onEnd(job);
  }

  find(segment: string, id: string): Job | undefined {
    return this.jobs.get(`${segment}/${id}`);
  }

  /** The poll answer of a job at `now`. */
  view(job: Job, now: number): Record<string, unknown> {
    const progress = Math.min(0.99, (now - job.startedAt) / job.durationMs);
    const status = job.ended ?? PHASES.find((phase) => progress < phase.until)?.status ?? "completing";
    const base = { status, progress_percent: job.ended ? 100 : Math.floor(progress * 100), model_label: job.label };
    if (job.ended === "succeeded") return { ...base, ...job.result(job.id) };
    if (job.ended)
      return {
        ...base,
        failure_reason: job.ended === "timeout" ? "Generation ran out of time." : "Generation failed.",
      };
    return base;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
