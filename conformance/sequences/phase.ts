/**
 * The sequence phase of a run: the tour (every condition once, tour.ts), then random sequences drawn
 * by fast-check (`fc.commands`, `fc.asyncModelRun`) from the run's seed, every answer judged by the
 * oracle. The first failure ends the phase: it is shrunk (fast-check's shrinking for a random
 * sequence, dropping steps one at a time for a tour's) to the shortest sequence that still fails,
 * within a bounded number of replays against the target.
 */
import fc from "fast-check";
import type { Session } from "../session.ts";
import { commandArbitraries, Steps } from "./commands.ts";
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
const SHRINK_RUNS = 25;

export interface PhaseOutcome {
  readonly phase: Phase;
  readonly tourSequences: number;
  readonly randomSequences: number;
  /** The shortest failing sequence found, or none. */
  readonly failure?: SequenceFailure;
  /** Steps of the failing sequence before it was shrunk. */
  readonly shrunkFrom?: number;
}

/** Runs `commands` as one sequence: judged throughout, its jobs polled to their end after (unjudged after a failure). */
async function runSequence(phase: Phase, commands: readonly Command[]): Promise<Sequence> {
  const sequence = await phase.begin(phase.sequencesRun + 1);
  try {
    for (const [index, command] of commands.entries()) {
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

/** The failing sequence's commands cut after the failing one, then each dropped in turn while it still fails. */
async function shrinkTour(
  phase: Phase,
  commands: readonly Command[],
  failure: SequenceFailure,
): Promise<SequenceFailure> {
  const at = (found: SequenceFailure): number => found.log.length;
  let best = failure;
  let kept = commands.slice(0, commandIndex(failure) + 1);
  let runs = 0;
  for (let index = kept.length - 2; index >= 0 && runs < SHRINK_RUNS; index--) {
    const candidate = kept.filter((_, position) => position !== index);
    runs++;
    try {
      await runSequence(phase, candidate);
    } catch (error) {
      if (!(error instanceof SequenceFailure)) throw error;
      kept = candidate.slice(0, commandIndex(error) + 1);
      if (at(error) <= at(best)) best = error;
    }
  }
  return best;
}

/** The command of the sequence during which the failing step was sent. */
const commandIndex = (failure: SequenceFailure): number => failure.commandOf[failure.step.number - 1] ?? 0;

export async function runPhase(
  session: Session,
  parties: Parties,
  home: string,
  credits: number,
  settings: PhaseSettings,
  status: (text: string) => void = () => {},
): Promise<PhaseOutcome> {
  const phase = new Phase(session, parties, home, credits);
  const steps = new Steps(phase);
  phase.coverage = new Coverage(applicableConditions(steps));
  const { index, count } = settings.shard;
  const mine = <T>(items: readonly T[]): T[] => items.filter((_, position) => position % count === index - 1);
  const tour = mine(tourSequences(steps, phase.openJobs - 1, settings.seed));
  for (const [position, commands] of tour.entries()) {
    status(`tour ${position + 1} of ${tour.length}`);
    try {
      await runSequence(phase, commands);
    } catch (error) {
      if (!(error instanceof SequenceFailure)) throw error;
      const shrunk = await shrinkTour(phase, commands, error);
      return { phase, tourSequences: tour.length, randomSequences: 0, failure: shrunk, shrunkFrom: error.log.length };
    }
  }
  const runs = Math.ceil((settings.sequences - (index - 1)) / count);
  if (runs <= 0) return { phase, tourSequences: tour.length, randomSequences: 0 };
  let replays = 0;
  // An error that is not the target's (the run stopped, a wait past its time limit) ends the search; it is thrown after.
  let stopped: unknown;
  const property = fc.asyncProperty(
    fc.commands(commandArbitraries(steps), { maxCommands: settings.steps }),
    async (commands) => {
      // Past the shrinking budget every candidate is skipped: the shortest failure so far stands.
      if (stopped !== undefined || (phase.failures.length > 0 && ++replays > SHRINK_RUNS)) fc.pre(false);
      status(
        phase.failures.length
          ? `shrinking a failing sequence (replay ${replays} of at most ${SHRINK_RUNS})`
          : `random sequence ${phase.sequencesRun + 1 - tour.length} of ${runs}`,
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
  if (stopped !== undefined) throw stopped;
  const failures = phase.failures;
  if (!result.failed || failures.length === 0) return { phase, tourSequences: tour.length, randomSequences: runs };
  const shortest = failures.reduce((best, next) => (next.log.length < best.log.length ? next : best));
  return {
    phase,
    tourSequences: tour.length,
    randomSequences: runs,
    failure: shortest,
    shrunkFrom: failures[0]!.log.length,
  };
}
