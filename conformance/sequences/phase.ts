/**
 * The sequence phase of a run: the tour (every condition once, tour.ts), then random sequences drawn
 * by fast-check (`fc.commands`, `fc.asyncModelRun`) from the run's seed, every answer judged by the
 * oracle. The first failure ends the phase: it is shrunk (fast-check's shrinking for a random
 * sequence, dropping steps one at a time for a tour's) to the shortest sequence that still fails,
 * within a bounded number of replays against the target.
 */
import fc from "fast-check";
import type { Session } from "../session.ts";
import { commandArbitraries, PollCommand, Steps } from "./commands.ts";
import { Coverage } from "./coverage.ts";
import { applicableConditions } from "./domain.ts";
import { drain, settle } from "./drain.ts";
import type { Parties } from "./parties.ts";
import { Phase, SequenceFailure, type Sequence } from "./sequence.ts";
import { tourSequences } from "./tour.ts";

type Command = fc.AsyncCommand<Sequence, Phase>;

export interface PhaseSettings {
  /** Random sequences after the tour. */
  readonly sequences: number;
  /** Commands a random sequence holds at most. */
  readonly steps: number;
  readonly seed: number;
  /** This run's share of the sequences: the `index`-th (1-based) of `count`. */
  readonly shard: { readonly index: number; readonly count: number };
}

/** Replays of a failing sequence, at most, while it is shrunk: each is real requests to the target. */
const SHRINK_RUNS = 12;
/** Jobs polled again at the end of the phase, the first that ended. */
const LATE_POLLS = 4;

export interface PhaseOutcome {
  readonly phase: Phase;
  readonly tourSequences: number;
  readonly randomSequences: number;
  /** The shortest failing sequence found, or none. */
  readonly failure?: SequenceFailure;
  /** Steps of the failing sequence before it was shrunk. */
  readonly shrunkFrom?: number;
  /** Sequences were left out: the run's time limit was near. */
  readonly cutShort?: boolean;
  /** How long the phase took. */
  readonly seconds: number;
}

/** Sequences start only while this share of the run's time limit is left: the other checks' last stages need the rest. */
const TIME_LEFT_SHARE = 0.5;

function outOfTime(session: Session): boolean {
  const left = session.deadline - Date.now();
  return left < session.config.timeoutSeconds * 1000 * TIME_LEFT_SHARE;
}

/** Runs `commands` as one sequence: judged throughout, its jobs polled to their end after (unjudged after a failure). */
async function runSequence(phase: Phase, commands: readonly Command[]): Promise<Sequence> {
  const sequence = await phase.begin(phase.sequencesRun + 1);
  try {
    for (const [index, command] of commands.entries()) {
      // Past the phase's share of the run's time, the sequence stops: its jobs are left to end on their own.
      if (outOfTime(phase.session)) {
        phase.left.push(...sequence.jobs.filter((job) => job.terminal === null));
        return sequence;
      }
      sequence.command = index;
      if (command.check(sequence)) await command.run(sequence, phase);
    }
    await drain(sequence);
  } catch (error) {
    if (error instanceof SequenceFailure) await settle(sequence);
    throw error;
  }
  return sequence;
}

/**
 * The failing sequence shrunk by dropping commands (delta debugging: halves, then smaller parts) while
 * it still fails, within SHRINK_RUNS replays; a replay that cannot finish (the run's time is up) ends it.
 */
async function shrinkTour(
  phase: Phase,
  commands: readonly Command[],
  failure: SequenceFailure,
): Promise<SequenceFailure> {
  let best = failure;
  let kept = commands.slice(0, commandIndex(failure) + 1);
  let parts = 2;
  let runs = 0;
  while (kept.length > 1 && parts <= kept.length && runs < SHRINK_RUNS) {
    const size = Math.ceil(kept.length / parts);
    let shrunk = false;
    // The last part holds the failing command: the others are dropped in turn.
    for (let start = 0; start + size < kept.length && runs < SHRINK_RUNS; start += size) {
      const candidate = [...kept.slice(0, start), ...kept.slice(start + size)];
      runs++;
      try {
        await runSequence(phase, candidate);
      } catch (error) {
        if (!(error instanceof SequenceFailure)) return best;
        kept = candidate.slice(0, commandIndex(error) + 1);
        if (error.log.length <= best.log.length) best = error;
        shrunk = true;
        break;
      }
    }
    parts = shrunk ? Math.max(parts - 1, 2) : parts * 2;
  }
  return best;
}

/** The command of the sequence during which the failing step was sent. */
const commandIndex = (failure: SequenceFailure): number => failure.commandOf[failure.step.number - 1] ?? 0;

export async function runPhase(
  session: Session,
  parties: Parties,
  home: string,
  credits: { readonly most: number; readonly besides: number },
  settings: PhaseSettings,
  status: (text: string) => void = () => {},
): Promise<PhaseOutcome> {
  const started = Date.now();
  const outcome = await runPhaseSteps(session, parties, home, credits, settings, status);
  return { ...outcome, seconds: (Date.now() - started) / 1000 };
}

async function runPhaseSteps(
  session: Session,
  parties: Parties,
  home: string,
  /** The most its jobs may be charged, and what the rest of the run may spend with the same key (the phase keeps within the balance beyond it). */
  credits: { readonly most: number; readonly besides: number },
  settings: PhaseSettings,
  status: (text: string) => void,
): Promise<Omit<PhaseOutcome, "seconds">> {
  const phase = new Phase(session, parties, home, credits);
  const steps = new Steps(phase);
  phase.coverage = new Coverage(applicableConditions(steps));
  const { index, count } = settings.shard;
  const mine = <T>(items: readonly T[]): T[] => items.filter((_, position) => position % count === index - 1);
  const tour = mine(tourSequences(steps, phase.openJobs - 1, settings.seed));
  for (const [position, commands] of tour.entries()) {
    if (outOfTime(session)) return { phase, tourSequences: position, randomSequences: 0, cutShort: true };
    status(`tour ${position + 1} of ${tour.length}`);
    try {
      await runSequence(phase, commands);
    } catch (error) {
      if (!(error instanceof SequenceFailure)) throw error;
      const shrunk = await shrinkTour(phase, commands, error);
      return { phase, tourSequences: tour.length, randomSequences: 0, failure: shrunk, shrunkFrom: error.log.length };
    }
  }
  const runs = outOfTime(session) ? 0 : Math.max(0, Math.ceil((settings.sequences - (index - 1)) / count));
  const random = runs > 0 ? await randomSequences(phase, steps, settings, runs, tour.length, status) : {};
  if (random.failure || random.cutShort || outOfTime(session))
    return { phase, tourSequences: tour.length, randomSequences: runs, ...random, cutShort: !random.failure };
  // Last, the jobs that ended first, polled again long after their end (the whole phase later).
  status("polling the first jobs again, long after their end");
  try {
    await runSequence(phase, lateCommands(phase));
  } catch (error) {
    if (!(error instanceof SequenceFailure)) throw error;
    return { phase, tourSequences: tour.length, randomSequences: runs, failure: error, shrunkFrom: error.log.length };
  }
  return { phase, tourSequences: tour.length, randomSequences: runs };
}

/** Polls of the jobs that ended first, by their creator and by another account. */
function lateCommands(phase: Phase): Command[] {
  // The first job of each poll route to end, and the first few of all.
  const firsts = new Map<string, number>();
  for (const [index, job] of phase.ended.entries()) if (!firsts.has(job.poll.route)) firsts.set(job.poll.route, index);
  const jobs = [
    ...new Set([
      ...Array.from({ length: Math.min(phase.ended.length, LATE_POLLS) }, (_, index) => index),
      ...firsts.values(),
    ]),
  ];
  return jobs.flatMap((job) => [new PollCommand(job, "owner", true), new PollCommand(job, "other-account", true)]);
}

/** The random sequences, fast-check's; a failure shrunk within SHRINK_RUNS replays. */
async function randomSequences(
  phase: Phase,
  steps: Steps,
  settings: PhaseSettings,
  runs: number,
  tour: number,
  status: (text: string) => void,
): Promise<Pick<PhaseOutcome, "failure" | "shrunkFrom" | "cutShort">> {
  const { index } = settings.shard;
  let replays = 0;
  let cut = false;
  // An error that is not the target's (the run stopped, a wait past its time limit) ends the search; it is thrown after.
  let stopped: unknown;
  const property = fc.asyncProperty(
    fc.commands(commandArbitraries(steps), { maxCommands: settings.steps }),
    async (commands) => {
      // Past the shrinking budget every candidate is skipped: the shortest failure so far stands; so is every sequence past the phase's time.
      if (stopped !== undefined || (phase.failures.length > 0 && ++replays > SHRINK_RUNS)) fc.pre(false);
      if (phase.failures.length === 0 && outOfTime(phase.session)) {
        cut = true;
        fc.pre(false);
      }
      status(
        phase.failures.length
          ? `shrinking a failing sequence (replay ${replays} of at most ${SHRINK_RUNS})`
          : `random sequence ${phase.sequencesRun + 1 - tour} of ${runs}`,
      );
      try {
        await runSequence(phase, [...commands]);
      } catch (error) {
        if (error instanceof SequenceFailure) throw error;
        stopped = error;
      }
    },
  );
  const result = await fc.check(property, { seed: settings.seed + index - 1, numRuns: runs });
  const failures = phase.failures;
  // A failure found stands, though its shrinking could not finish.
  if (stopped !== undefined && failures.length === 0) throw stopped;
  if (!result.failed || failures.length === 0) return cut ? { cutShort: true } : {};
  const shortest = failures.reduce((best, next) => (next.log.length < best.log.length ? next : best));
  return { failure: shortest, shrunkFrom: failures[0]!.log.length };
}
