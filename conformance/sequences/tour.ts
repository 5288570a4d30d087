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
import { hasPrompt } from "../requests.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import {
  type Asked,
  CreateCommand,
  type InputClass,
  OtherCommand,
  PollCommand,
  RepeatCommand,
  type Steps,
} from "./commands.ts";
import { withDeclaredMedia } from "./inputs.ts";
import type { Phase, Sequence } from "./sequence.ts";

type Command = fc.AsyncCommand<Sequence, Phase>;

/** Slots of the cap a tour sequence leaves to jobs that outlast the phase (commands.ts keeps at most that many). */
const OUTLASTING_ROOM = 2;

/** Creates the cap probe sends past the cap. */
const PAST_THE_CAP = 4;

/** Bodies drawn from each create's schema (fast-check's draws favour the bounds of ranges and lists). */
const DRAWN = 1;

/** The outcomes a tour's creates ask for, in turn. */
const ASKED: readonly Asked[] = ["none", "failed", "none", "timeout", "moderation"];

/**
 * Where the home account's cap is declared: creates asking to fail (charged nothing) by its keys in
 * turn, one more than the cap, the last of which must be refused as queue full, and each job polled
 * at once, so that it is seen still running when the last create was refused.
 */
function capProbe(steps: Steps, cap: number): Command[] | null {
  const { config } = steps.phase.session;
  const declared = steps.phase.home === "main" ? config.concurrency : config.otherAccount?.concurrency;
  const op = steps
    .creates()
    .find((candidate) => hasPrompt(candidate) && candidate.requestExamples.length > 0 && !steps.outlasting(candidate));
  if (declared === undefined || declared + 1 !== cap || !op || !config.outcomeMarkers.failed) return null;
  const body = op.requestExamples[0]!.value as Body;
  // Creates past the cap by each key in turn, so that each key is refused though a job or two end meanwhile.
  const creates = Array.from(
    { length: cap + PAST_THE_CAP - 1 },
    (_, turn) => new CreateCommand(op, body, "example", "failed", turn % steps.home.length, turn, turn),
  );
  const polls = Array.from({ length: cap }, (_, job) => new PollCommand(job, "owner"));
  return [...creates, ...polls];
}

/** The bodies the tour sends a create: its named examples, bodies drawn from its schema, and the declaration's own (upscaleRequests). */
export function tourBodies(
  steps: Steps,
  op: ContractOperation,
  seed: number,
): Array<{ body: Body; input: InputClass }> {
  const { contract, config } = steps.phase.session;
  const drawn = positiveArbitrary(contract, op);
  // The declared upscales are the creates whose price reads facts the body does not hold (the mode, the result's size).
  const facts = Object.keys(contract.model.priceTables[op.path]?.facts ?? {}).length > 0;
  const declared = facts ? (config.upscaleRequests ?? []) : [];
  return [
    ...op.requestExamples.map((example) => ({ body: example.value as Body, input: "example" as const })),
    ...(drawn ? fc.sample(drawn, { seed, numRuns: DRAWN }).map((body) => ({ body, input: "drawn" as const })) : []),
    ...declared.map((request) => ({ body: request.body, input: "declared" as const })),
  ];
}

/** The tour's sequences: each starts at most `perSequence` jobs (the open jobs an oracle's state follows at once). */
export function tourSequences(steps: Steps, perSequence: number, seed: number): Command[][] {
  const creates: CreateCommand[] = [];
  let turn = 0;
  // The home account's keys in turn; the Free plan's key, where declared, is the party after them.
  const home = steps.home.length;
  for (const op of steps.creates()) {
    // One body of each class first (as sent: a declared medium in its priced fields), so that each class is sent asking for a job.
    const { config, contract } = steps.phase.session;
    const classOf = (body: Body, input: InputClass): string =>
      withDeclaredMedia(config, contract, op, body, 0).declared ? "declared-media" : input;
    const all = tourBodies(steps, op, seed).map(({ body, input }): [Body, InputClass] => [body, input]);
    const firsts = all.filter(
      ([body, input], index) =>
        all.findIndex(([other, kind]) => classOf(other, kind) === classOf(body, input)) === index,
    );
    const bodies = [...firsts, ...all.filter((entry) => !firsts.includes(entry))];
    const outlasting = steps.outlasting(op);
    // Every outcome a prompt can ask for, where a job does not outlast the phase: the first body again for those its bodies leave out.
    const everyOutcome = !outlasting && hasPrompt(op);
    const sends = Math.max(bodies.length, everyOutcome ? ASKED.length : 0);
    for (let send = 0; send < sends; send++) {
      const [body, input] = bodies[send % bodies.length]!;
      // A job that outlasts the phase holds a slot of the cap to its end: one such job a route, its other
      // bodies blocked by moderation, or, where no prompt takes the marker, sent by the Free plan's key.
      const later = outlasting && send > 0;
      if (later && !hasPrompt(op) && !steps.free) continue;
      const asked = later ? "moderation" : ASKED[send % ASKED.length]!;
      // The account's keys in turn within each route: its first two sends (a job each) by different keys.
      const by = later && !hasPrompt(op) ? home : send % home;
      creates.push(new CreateCommand(op, body, input, asked, by, turn, turn));
      turn++;
    }
    if (steps.free) creates.push(new CreateCommand(op, bodies[0]![0], bodies[0]![1], "none", home, turn, turn));
  }
  const sequences: Command[][] = [];
  let current: Command[] = [];
  let jobs = 0;
  const close = (): void => {
    if (!current.length) return;
    // A job of each model polled by the others while it runs (its creator's polls end the sequence):
    // one a model, since every request spends the address's window, which the other checks need.
    const models = [
      ...new Set(current.flatMap((command) => (command instanceof CreateCommand ? [command.op.create!.label] : []))),
    ];
    for (const model of models)
      current.push(
        new PollCommand(0, "same-account", false, model),
        new PollCommand(0, "other-account", false, model),
        new PollCommand(0, "free", false, model),
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
    const startsJob = create.asked !== "moderation" && create.by < home;
    // Room for the jobs that outlast the phase, which earlier sequences leave running, and for a repeat.
    if (startsJob && jobs >= perSequence - OUTLASTING_ROOM - 1) close();
    current.push(create);
    if (startsJob) jobs++;
    // Each sequence's first create sent again: a second job, charged again.
    if (startsJob && jobs === 1) {
      current.push(new RepeatCommand());
      jobs++;
    }
  }
  close();
  const probe = capProbe(steps, perSequence + 1);
  if (probe) sequences.push(probe);
  // The operations that are neither creates nor polls, each value in turn, and each request again.
  const others: Command[] = [];
  // Each variant by each party in turn (the nine pairs of three searches and three parties).
  for (let detail = 0; detail < 9; detail++)
    for (const kind of ["quote", "upload", "post", "search"] as const)
      others.push(
        new OtherCommand(kind, detail + Math.floor(detail / 3), detail),
        ...(detail === 0 ? [new RepeatCommand()] : []),
      );
  sequences.push([...others, new OtherCommand("credits", 1, 0), new RepeatCommand()]);
  return sequences;
}
