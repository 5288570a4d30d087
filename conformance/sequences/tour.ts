/**
 * The tour: sequences laid out so that every run takes every condition the phase can observe a
 * rule in at least once, whatever its seed: every named example of every create, and a body drawn
 * from each create's schema (a declared media input where its price reads one), each asking for an
 * outcome in turn, sent by each key in turn and by the Free plan's; each job polled by another key
 * of its account, by another account and by the Free plan, then by its creator until it ends, and
 * again by its creator in a later sequence; each of the other operations with each of its values.
 * The random sequences (fast-check) then explore how these combine.
 */
import fc from "fast-check";
import type { Body } from "../../contract/bodies/near-misses.ts";
import { positiveArbitrary } from "../generation/generated.ts";
import { type Asked, CreateCommand, OtherCommand, PollCommand, RepeatCommand, type Steps } from "./commands.ts";

type Command = fc.AsyncCommand<import("./sequence.ts").Sequence, import("./sequence.ts").Phase>;

/** The outcomes a tour's creates ask for, in turn. */
const ASKED: readonly Asked[] = ["none", "failed", "none", "moderation", "timeout"];

/** The tour's sequences: each starts at most `perSequence` jobs (the open jobs an oracle's state follows at once). */
export function tourSequences(steps: Steps, perSequence: number, seed: number): Command[][] {
  const { contract } = steps.phase.session;
  const creates: CreateCommand[] = [];
  let turn = 0;
  // The Free plan's key, where declared, is the party after the home account's keys.
  const parties = steps.home.length + (steps.free ? 1 : 0);
  for (const op of steps.creates()) {
    const drawn = positiveArbitrary(contract, op);
    const bodies: Array<[Body, "example" | "drawn"]> = [
      ...op.requestExamples.map((example): [Body, "example"] => [example.value as Body, "example"]),
      ...(drawn ? fc.sample(drawn, { seed, numRuns: 1 }).map((body): [Body, "drawn"] => [body, "drawn"]) : []),
    ];
    for (const [body, input] of bodies) {
      creates.push(new CreateCommand(op, body, input, ASKED[turn % ASKED.length]!, turn % parties, turn, turn));
      turn++;
    }
  }
  const sequences: Command[][] = [];
  let current: Command[] = [];
  let jobs = 0;
  const close = (): void => {
    if (!current.length) return;
    // Each of the sequence's jobs polled by the others while it runs (its creator's polls end the sequence).
    for (let job = 0; job < jobs; job++)
      current.push(
        new PollCommand(job, "same-account"),
        new PollCommand(job, "other-account"),
        new PollCommand(job, "free"),
      );
    // Jobs of earlier sequences, long ended, polled again by their creator and by another account.
    current.push(
      new PollCommand(sequences.length, "owner", true),
      new PollCommand(sequences.length + 1, "other-account", true),
    );
    current.push(new OtherCommand("credits", sequences.length, 0));
    sequences.push(current);
    current = [];
    jobs = 0;
  };
  for (const create of creates) {
    // Asked for no job (moderation), or refused one (the Free plan's key): no slot taken.
    const startsJob = create.asked !== "moderation" && create.by % parties < steps.home.length;
    if (startsJob && jobs === perSequence) close();
    current.push(create);
    if (startsJob) jobs++;
  }
  close();
  // The operations that are neither creates nor polls, each value in turn, and each request again.
  const others: Command[] = [];
  for (let detail = 0; detail < 9; detail++)
    for (const kind of ["quote", "upload", "post", "search"] as const)
      others.push(new OtherCommand(kind, detail, detail), ...(detail === 0 ? [new RepeatCommand()] : []));
  sequences.push([...others, new OtherCommand("credits", 1, 0), new RepeatCommand()]);
  return sequences;
}
