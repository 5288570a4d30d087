/**
 * The sequence phase (conformance/sequences/): sequences of requests over every declared account and
 * key, models, outcomes and moments, each answer judged against the service model of behaviour/ by
 * the oracle. The phase owns the second paid account (`otherAccount`) and runs beside the other
 * checks; without it, it owns the main account and runs alone once they are done.
 */
import { needing, STAGE, type Check } from "../check.ts";
import { total, type PlannedSpend } from "../cost.ts";
import type { Session } from "../session.ts";
import { idFieldOf } from "../jobs.ts";
import { partiesOf } from "../sequences/parties.ts";
import { runPhase, type PhaseOutcome } from "../sequences/phase.ts";
import { curlScript, describeFailure } from "../sequences/script.ts";
import { KIND_RULES, ROUTE_RULES, RULE_RULES, type StepKind } from "../sequences/steps.ts";

const GROUP = "sequences";

/** Credits the phase's jobs may be charged at most, at the standard prices, where no budget says less. */
export const SEQUENCE_CREDITS = 20_000;
/** Random sequences after the tour, and commands in each, when `--sequences` is not given. */
export const DEFAULT_SEQUENCES = 3;
export const SEQUENCE_STEPS = 12;

const KINDS: Readonly<Record<StepKind, string>> = {
  create: "create",
  poll: "poll",
  credits: "credits read",
  quote: "quote",
  upload: "upload",
  post: "post",
  search: "stock search",
};

const template = (kind: StepKind): string =>
  `every ${KINDS[kind]} in the sequences answers as the service model allows{where}`;

/** The rules each kind's result observes: its kind's, its routes', and those of the refusals it may meet. */
const RULES: Record<string, readonly string[]> = Object.fromEntries(
  (Object.keys(KINDS) as StepKind[]).map((kind) => [
    template(kind),
    [...KIND_RULES[kind], ...(ROUTE_RULES[kind] ?? []), ...Object.values(RULE_RULES).flat()],
  ]),
);

/** The account the phase owns: the declared second account, else the main one. */
const homeOf = (session: Session): string => (session.config.otherAccount ? "other" : "main");

/** How estimates name the key the phase spends with. */
const homeKeyName = (session: Session): string =>
  homeOf(session) === "other" ? session.client(session.config.otherAccount!.apiKey).name : session.main.name;

/** The credits the phase may spend: SEQUENCE_CREDITS, or what the budget leaves after the other checks' estimate. */
function creditsOf(session: Session, others: () => readonly Check[]): number {
  const budget = session.config.budgetCredits;
  if (budget === null) return SEQUENCE_CREDITS;
  const spent = total(
    others()
      .filter((check) => check.group !== GROUP && session.runs(check.group) && !check.blockedBy?.(session))
      .flatMap((check) => check.spend?.(session) ?? []),
  ).credits;
  return Math.max(0, Math.min(SEQUENCE_CREDITS, budget - spent));
}

export function sequences(others: () => readonly Check[]): Check {
  return {
    group: GROUP,
    summary:
      "Sequences over every declared account and key (a second paid account with a second key: otherAccount), models, bodies (named examples, drawn ones, declared media), outcomes and moments: creates, polls by owner, another key, another account and the Free plan, later polls, waits, credit reads, quotes, uploads, posts, stock searches, repeats; each answer must be one the service model allows from the state the earlier answers led to. A failure is shrunk and reported as numbered requests with the seed and a curl script.",
    rules: RULES,
    blockedBy: needing({ stateful: true }),
    spendsWhatIsLeft: true,
    spend(session): PlannedSpend[] {
      return [
        {
          key: homeKeyName(session),
          what: "sequences (the most their jobs can be charged, within what the account holds beyond the rest of the run)",
          price: { credits: creditsOf(session, others), atMost: true },
          fitsBalance: true,
        },
      ];
    },
    async run({ session, stage, status }) {
      const home = homeOf(session);
      const parties = partiesOf(session.config, session.config.apiKey ?? session.main.apiKey);
      for (const { field, leaves } of parties.missing)
        session.results.skip(GROUP, "*", `sequences: ${leaves}`, `not declared: ${field}`);
      if (home === "main") {
        status("waiting for the other checks: no second account is declared (otherAccount)");
        await stage(STAGE.alone);
      }
      status("running");
      const generated = session.config.generated ?? {};
      const seed = generated.seed ?? 0;
      // The rest of the run's spending with the same key comes first: the phase keeps within what the account holds beyond it.
      const besides = total(
        others()
          .filter((check) => check.group !== GROUP && session.runs(check.group) && !check.blockedBy?.(session))
          .flatMap((check) => check.spend?.(session) ?? [])
          .filter((spend) => spend.key === homeKeyName(session)),
      ).credits;
      const outcome = await runPhase(
        session,
        parties,
        home,
        { most: creditsOf(session, others), besides },
        {
          sequences: generated.sequences ?? DEFAULT_SEQUENCES,
          steps: SEQUENCE_STEPS,
          seed,
          shard: generated.shard ?? { index: 1, count: 1 },
        },
        status,
      );
      record(session, outcome, seed);
    },
  };
}

const outcomes = new WeakMap<Session, PhaseOutcome>();

/** What the sequence phase of `session`'s run found, once it ran (the summary reports its figures and coverage). */
export const phaseOutcome = (session: Session): PhaseOutcome | undefined => outcomes.get(session);

/** One result per kind of step: failed where the phase's failure lies, passed where steps of it were judged, else skipped. */
function record(session: Session, outcome: PhaseOutcome, seed: number): void {
  const { phase, failure } = outcome;
  outcomes.set(session, outcome);
  const judged = new Set(phase.judgedKinds);
  if (outcome.cutShort)
    session.results.skip(
      GROUP,
      "*",
      "every sequence ran",
      `the run's time limit (timeoutSeconds ${session.config.timeoutSeconds} s) drew near after ${phase.sequencesRun} sequences: the others were left out`,
    );
  for (const kind of Object.keys(KINDS) as StepKind[]) {
    const name = template(kind);
    if (failure?.step.kind === kind) {
      const text = describeFailure(failure, seed, outcome.shrunkFrom);
      const script = curlScript(failure, session.transport, (step) =>
        step.kind === "create" ? idFieldOf(session.config, step.op) : null,
      );
      session.results.fail(
        GROUP,
        failure.step.op.route,
        name.replace("{where}", ` (sequence ${failure.sequence}, step ${failure.step.number})`),
        text,
        script,
      );
    } else if (judged.has(kind)) session.results.pass(GROUP, "*", name.replace("{where}", ""));
    else
      session.results.skip(
        GROUP,
        "*",
        name.replace("{where}", ""),
        "no step of this kind was sent (nothing the target implements or the declaration gives)",
      );
  }
}
