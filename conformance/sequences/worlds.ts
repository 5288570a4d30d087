/**
 * The states a target may be in, as the oracle knows it: one service state (behaviour/) per way the
 * target's answers so far can be explained. Where the specification leaves a choice, the oracle
 * keeps every state that explains the answers, and a later answer drops those it does not fit:
 * a job seen running may have ended since (or not), an account's failures before the phase are
 * unknown, a reading of the cooldown the specification leaves open.
 */
import { fork } from "../../behaviour/fork.ts";
import type { Job } from "../../behaviour/jobs.ts";
import type { ServiceState } from "../../behaviour/state.ts";

export interface World {
  readonly state: ServiceState;
  /** The target's job ids, each with the model's id of the same job. */
  readonly jobs: Map<string, string>;
  /** Accounts whose cooldown before the phase is unknown: a pause may be seen until a success of the family clears it. */
  readonly unknownCooldown: Set<string>;
}

export function forkWorld(world: World): World {
  return { state: fork(world.state), jobs: new Map(world.jobs), unknownCooldown: new Set(world.unknownCooldown) };
}

/** The jobs of `account` whose end is still open in `world`. */
export function openJobs(world: World, account: string): Job[] {
  return [...world.state.jobs.all()].filter((job) => job.accountName === account && !Number.isFinite(job.endAt));
}

/** How a branch ends some of the open jobs: each with the outcome it ends in. */
export type Ending = ReadonlyArray<{ readonly job: Job; readonly outcome: string }>;

/**
 * The ways the open `jobs` may stand at `at`, by level: first every job left running or ended as
 * expected (`expected`: the outcome its create asked for, else success), by how many ended (none,
 * then one, then two...); then those with one job ending in an outcome nobody asked for, and so
 * on. The oracle takes the first level some ending of which fits an answer: a job whose end changes
 * nothing seen is left open, to end when an answer shows it. Surprises come last whatever the size:
 * with a dozen jobs in flight, every job ending as asked is a few thousand endings, while every way
 * of a few of them ending in any status is tens of thousands, more than the oracle tries.
 */
export function* endingLevels(
  jobs: readonly Job[],
  outcomes: (job: Job) => readonly string[],
  expected: (job: Job) => string | null,
): Generator<Ending[]> {
  for (let surprises = 0; surprises <= jobs.length; surprises++) {
    for (let size = surprises; size <= jobs.length; size++) {
      const level: Ending[] = [];
      for (const subset of subsetsOf(jobs, size)) level.push(...endingsOf(subset, outcomes, expected, surprises));
      if (level.length) yield level;
    }
  }
}

function* subsetsOf<T>(items: readonly T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) return yield [];
  for (let index = from; index <= items.length - size; index++)
    for (const rest of subsetsOf(items, size - 1, index + 1)) yield [items[index]!, ...rest];
}

/** The endings of all of `jobs` in which exactly `surprises` of them end in an outcome other than the expected one. */
function* endingsOf(
  jobs: readonly Job[],
  outcomes: (job: Job) => readonly string[],
  expected: (job: Job) => string | null,
  surprises: number,
): Generator<Ending> {
  if (surprises > jobs.length) return;
  if (jobs.length === 0) return yield [];
  const [first, ...rest] = jobs as [Job, ...Job[]];
  const asked = expected(first);
  for (const outcome of outcomes(first)) {
    const left = surprises - (asked !== null && asked !== outcome ? 1 : 0);
    if (left < 0) continue;
    for (const tail of endingsOf(rest, outcomes, expected, left)) yield [{ job: first, outcome }, ...tail];
  }
}

/** `world` with the jobs of `ending` ended at `at`, a millisecond apart in creation order (settling, and the cooldown's count, then have one order). */
export function ended(world: World, ending: Ending, at: number): World {
  const branch = forkWorld(world);
  for (const [index, { job, outcome }] of ending.entries())
    branch.state.endJob(branch.state.jobs.get(job.id)!, outcome, at - ending.length + index);
  return branch;
}

/** What tells two worlds apart: everything that changes, in a stable text. */
export function signature(world: World): string {
  const { state } = world;
  const jobs = [...state.jobs.all()].map((job) => `${job.id}:${job.endAt}:${job.outcome}:${job.settled}`);
  const accounts = [...state.accounts.byName.values()].map(
    (account) =>
      `${account.name}:${JSON.stringify(account.ledger.balance())}:${account.ledger.spending()}:${account.inFlight}`,
  );
  return JSON.stringify([
    jobs,
    accounts,
    state.cooldowns.snapshot(),
    state.uploads.snapshot(),
    [...world.unknownCooldown].sort(),
    state.choices.cooldownScope,
    state.choices.cooldownCounts,
    [...world.jobs].sort(),
  ]);
}

/** `worlds` without repeats. */
export function distinct(worlds: readonly World[]): World[] {
  return [...new Map(worlds.map((world) => [signature(world), world])).values()];
}
