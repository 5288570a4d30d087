/**
 * The account's concurrency cap: with the declared cap of the suite's jobs running (the other
 * checks' jobs fill it, topped up with the cheapest job whenever it is not full), polling still
 * answers, one more create is refused as queue full without Retry-After, and no create is refused
 * as queue full while fewer jobs run.
 *
 * The cap is the account's, shared by every key and the web application: a queue-full 429 with
 * fewer of the suite's jobs running may be other jobs' doing (an earlier run's still running, above
 * all). Such a refusal fails only when another comes poll.timeoutSeconds or more after it, as the
 * suite fills the cap again, the suite never saw its own jobs fill it, and no earlier run on the
 * target reported jobs that may still run; the failure says what it assumes.
 */
import { needing, STAGE, type Check } from "../check.ts";
import type { FollowedJob } from "../client.ts";
import { Pending, type MeasuredCharge } from "../coordination.ts";
import { accepted, type Exchange } from "../http.ts";
import { chargedCreate, follow, sendHolding, statusOf, type Job } from "../jobs.ts";
import { pricedCreates, type PricedCreate } from "../requests.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "concurrency";
const BELOW_THE_CAP = "no create is refused as queue full below the cap";
/** Probes of the cap before the check gives up, when a job ended while each was answered. */
const ATTEMPTS = 5;
/**
 * The most jobs the check adds to fill the cap, in caps' worth: one for the first filling, as the
 * other checks' jobs end at their own pace (and some wait for the billing check), and one for each
 * probe, as short jobs may all end between two probes on a loaded machine.
 */
const FILL_ROUNDS = 1 + ATTEMPTS;
const fillers = (session: Session): number => FILL_ROUNDS * session.concurrency;
/**
 * After a refusal below the cap, the cap is filled once more when poll.timeoutSeconds have passed
 * (jobs of the account that held slots then have ended): a cap's worth of jobs more at most.
 */
const refillers = (session: Session): number => session.concurrency;

/** A create refused as queue full while fewer of the suite's jobs than the cap ran. */
interface Refusal {
  readonly running: number;
  readonly at: number;
  readonly route: string;
  readonly curl: string;
}

interface CapState {
  readonly refusals: Refusal[];
  /** The suite's own jobs filled the cap: all of them were seen running after the create that made them the cap's worth. */
  filled: boolean;
}

const states = new WeakMap<Session, CapState>();

function stateOf(session: Session): CapState {
  let state = states.get(session);
  if (!state) states.set(session, (state = { refusals: [], filled: false }));
  return state;
}

const cheapestOf = (session: Session): PricedCreate => pricedCreates(session, false)[0]!;
const exactCredits = (create: PricedCreate): number | null => (create.price.atMost ? null : create.price.credits);

export const concurrency: Check = {
  group: GROUP,
  rules: {
    "polling never counts against the concurrency cap": ["states.polling-not-counted", "limits.concurrency"],
    "polls answer while the cap is reached": ["states.polling-not-counted"],
    "a create beyond the cap{cap} is refused as queue full": [
      "limits.concurrency",
      "errors.429-queue-full",
      "errors.429-four-conditions",
    ],
    "the queue-full 429 carries no Retry-After": ["errors.queue-full-no-retry-after"],
    [BELOW_THE_CAP]: ["limits.concurrency"],
  },
  summary:
    "With concurrency declared and that many jobs running, polls still answer, one more create is refused as queue full without Retry-After, and no create is refused as queue full below the cap.",
  // The cap starts at the plan's limit and rises with usage: no value holds for every honest target.
  blockedBy: needing(
    {
      stateful: true,
      declared: [
        {
          field: "concurrency",
          gives:
            "the account's cap: the specification's starts at the plan's limit and rises with usage, so no value can be assumed",
        },
      ],
    },
    (session) =>
      pricedCreates(session, false)[0]
        ? null
        : "the target implements no create route whose jobs the suite can follow and whose price is not held until the job ends",
  ),
  spend(session) {
    const cheapest = pricedCreates(session, false)[0];
    return cheapest
      ? Array.from({ length: fillers(session) + refillers(session) + ATTEMPTS }, () => ({
          key: session.main.name,
          what: `${cheapest.op.route} (concurrency)`,
          price: cheapest.price,
        }))
      : [];
  },
  observe(session, { client, op, exchange, options }) {
    // A 429 chosen with Prism's Prefer header is the mock's example, not the state of its limits.
    if (client !== session.main || exchange.status !== 429 || exchange.request.headers.prefer !== undefined) return;
    const conditions = conditionsOf(session.contract, exchange.json);
    if (op.facts.kind === "poll" && (conditions.has("queue-full") || conditions.has("spend-limit"))) {
      session.results.fail(
        GROUP,
        op.route,
        "polling never counts against the concurrency cap",
        `a poll was refused with a queue-full 429: ${exchange.text.slice(0, 200)}`,
        session.curl(exchange.request),
      );
    }
    const running = options.jobsInFlight;
    // Jobs the suite lost track of may still run: then the count proves nothing.
    if (
      op.facts.kind === "create" &&
      conditions.has("queue-full") &&
      session.config.concurrency !== undefined &&
      running !== undefined &&
      running < session.concurrency &&
      client.unsure === 0
    ) {
      stateOf(session).refusals.push({
        running,
        at: exchange.receivedAt,
        route: op.route,
        curl: session.curl(exchange.request),
      });
    }
  },
  async run({ session, stage, status }) {
    const state = stateOf(session);
    const filler = new Filler(session, state);
    // Filled by the other checks' jobs and these. Once every other check is done, only these are
    // left: they go on while any may be added, for poll.timeoutSeconds at most.
    let late = false;
    let over = false;
    const lateReached = stage(STAGE.late).then(() => void (late = true));
    const timeUp = lateReached
      .then(() => session.sleep(session.config.poll.timeoutSeconds * 1000))
      .then(
        () => void (over = true),
        () => undefined,
      );
    const stop = (): boolean => over || (late && filler.spent);
    try {
      let done = false;
      let inconclusive = 0;
      while (!done && inconclusive < ATTEMPTS) {
        status("waiting for the cap to fill");
        const jobs = await filler.fill(stop, timeUp);
        if (!jobs) break;
        status(`probing the cap of ${session.main.slots.cap}`);
        if ((await probe(session, state, jobs)) === "done") done = true;
        else inconclusive++;
      }
      if (!done) {
        session.results.skip(
          GROUP,
          "*",
          "a create beyond the cap is refused as queue full",
          inconclusive === 0
            ? "the suite's jobs never filled the cap"
            : `a job ended while the create beyond the cap was answered, ${inconclusive === 1 ? "once" : `${inconclusive} times`}; no verdict`,
        );
      }
      await lateReached;
      await judgeRefusals(session, state, filler, status);
    } finally {
      await filler.pending.settled();
    }
  },
};

/** The cheapest jobs the check adds to fill the cap. */
class Filler {
  readonly pending = new Pending();
  private added = 0;
  /** Added jobs whose create is not yet answered (they may hold no slot yet). */
  private unanswered = 0;
  private readonly begun = Date.now();
  /** The most jobs it may add. */
  private allowed: number;

  /** Every job the check may add has been added and answered. */
  get spent(): boolean {
    return this.added >= this.allowed && this.unanswered === 0;
  }

  constructor(
    private readonly session: Session,
    private readonly state: CapState,
  ) {
    this.allowed = fillers(session);
  }

  /** Allows `jobs` more. */
  allow(jobs: number): void {
    this.allowed += jobs;
  }

  /**
   * Adds jobs until the suite's jobs fill the cap, and gives those jobs; gives null once `stop()`
   * holds first. `wake` cuts a wait short.
   */
  async fill(stop: () => boolean, wake: Promise<unknown>): Promise<FollowedJob[] | null> {
    const { session } = this;
    const client = session.main;
    const cheapest = cheapestOf(session);
    const interval = session.pollIntervalMs(session.contract.pollOf(cheapest.op)!);
    while (client.jobs.size < client.slots.cap) {
      if (stop()) return null;
      // The other checks' jobs get two polls' time to fill the cap before any job is added; after a
      // refusal below the cap, a poll's time passes before the next job, as the specification asks.
      const now = Date.now();
      const due = now - this.begun > 2 * interval && now - (this.state.refusals.at(-1)?.at ?? 0) > interval;
      while (due && client.slots.inFlight + this.unanswered < client.slots.cap && this.added < this.allowed)
        this.add(cheapest);
      await Promise.race([session.sleep(50), wake]);
    }
    return [...client.jobs];
  }

  private add(cheapest: PricedCreate): void {
    this.added++;
    this.unanswered++;
    let counted = false;
    const answered = (created: { job?: Job; exchange: Exchange }): void => {
      // Stryker disable next-line BooleanLiteral: nothing rejects once a create is answered (a job's end never does), so `counted` is read only while false
      counted = true;
      this.unanswered--;
      // A create refused as queue full spent nothing: another may take its place. Any other refusal
      // uses up its place, so that a target refusing every create is not sent them without end.
      if (
        !created.job &&
        created.exchange.status === 429 &&
        conditionsOf(this.session.contract, created.exchange.json).has("queue-full")
      )
        this.added--;
    };
    const job = chargedCreate(
      this.session.main,
      cheapest.op,
      cheapest.spec,
      exactCredits(cheapest),
      undefined,
      answered,
    );
    // A create that got no answer is no longer awaited by the filling (its failure is the suite's, in settled()).
    this.pending.add(
      job.catch((error: unknown) => {
        // Stryker disable next-line ConditionalExpression: the always-true mutant as `counted` above; the always-false one keeps the filling waiting for a create that got no answer until poll.timeoutSeconds past the late stage, which the dropped-connection test makes a timeout
        if (!counted) this.unanswered--;
        throw error;
      }),
    );
  }
}

/**
 * Sends one create more while the suite's `jobs` fill the cap, then polls every one of them. Only the
 * polls sent after its answer tell whether all of them ran while it was answered (a job never
 * returns from a terminal status): an accepted create fails the cap only then, and a job that
 * ended before the create was sent spoils nothing.
 */
async function probe(
  session: Session,
  state: CapState,
  jobs: readonly FollowedJob[],
): Promise<"done" | "inconclusive"> {
  const client = session.main;
  const cap = client.slots.cap;
  const cheapest = cheapestOf(session);
  const credits = exactCredits(cheapest);
  const name = `a create beyond the cap of ${cap} is refused as queue full`;
  const curl = session.curl(cheapest.spec);
  const pollAll = (): Promise<Exchange[]> => pollEvery(session, jobs);
  const allRunning = (polls: Exchange[]): boolean => running(session, polls);
  const recordPolls = (polls: Exchange[]): void => {
    if (
      session.results.all.some(
        (result) => result.group === GROUP && result.name === "polls answer while the cap is reached",
      )
    )
      return;
    const refused = polls.filter((exchange) => exchange.status === 429);
    session.results.expect(
      GROUP,
      // The cap is 1 at least.
      jobs[0]!.poll.route,
      "polls answer while the cap is reached",
      refused.map((exchange) => `a poll answered 429: ${exchange.text.slice(0, 200)}`),
    );
  };
  // A job a slot freed just before the create may let it start and succeed: the billing check must
  // count that charge, or not be measuring meanwhile. An exact price joins a measurement at once.
  const charged = <T>(work: (report: (charge: MeasuredCharge) => void) => Promise<T>): Promise<T> =>
    credits === null ? client.charges.charge(null, work) : client.charges.unplanned(work);
  const { exchange, ranOn } = await charged(async (report) => {
    // Taken only now: a create of unknown price may first wait out the billing check's measurement.
    const slot = client.slots.take();
    const sent = await sendHolding(client, cheapest.op, cheapest.spec, slot, {
      positive: true,
      jobsInFlight: jobs.length,
    });
    if (!accepted(sent)) {
      slot.release();
      const polls = await pollAll();
      recordPolls(polls);
      if (allRunning(polls)) state.filled = true;
      // Whether the jobs ran on matters only for an accepted create.
      return { exchange: sent };
    }
    const job = follow(client, cheapest.op, sent, slot).job;
    if (job && credits !== null)
      report({
        what: `${cheapest.op.route} (${job.id})`,
        credits,
        charged: () => job.terminal === session.contract.model.jobStatus.success,
        op: cheapest.op,
        spec: cheapest.spec,
      });
    const polls = await pollAll();
    recordPolls(polls);
    await job?.ended;
    return { exchange: sent, ranOn: allRunning(polls) };
  });
  if (accepted(exchange)) {
    if (!ranOn) return "inconclusive";
    state.filled = true;
    session.results.fail(
      GROUP,
      cheapest.op.route,
      name,
      `accepted a create while ${jobs.length} of the suite's jobs were running (each seen running by a poll sent after the create was answered)`,
      curl,
    );
    return "done";
  }
  const queueFull = exchange.status === 429 && conditionsOf(session.contract, exchange.json).has("queue-full");
  session.results.expect(
    GROUP,
    cheapest.op.route,
    name,
    queueFull ? [] : [`answered ${exchange.status}, not the queue-full 429: ${exchange.text.slice(0, 200)}`],
    curl,
  );
  const retryAfter = exchange.headers.get(session.contract.model.retryAfterHeader);
  if (queueFull)
    session.results.expect(
      GROUP,
      cheapest.op.route,
      "the queue-full 429 carries no Retry-After",
      retryAfter === null ? [] : [`Retry-After: ${retryAfter} on a queue-full 429`],
      curl,
    );
  return "done";
}

const pollEvery = (session: Session, jobs: readonly FollowedJob[]): Promise<Exchange[]> =>
  Promise.all(jobs.map((job) => session.main.send(job.poll, job.pollSpec, { positive: true })));

/** Every poll saw its job in a status that is not terminal. */
const running = (session: Session, polls: readonly Exchange[]): boolean =>
  polls.every(
    (exchange) => exchange.status === 200 && !session.contract.model.jobStatus.terminal.includes(statusOf(exchange)),
  );

const OTHER_JOBS =
  "other jobs of the account (another key's, the web application's, or an earlier run's still running: a run's report says how many it left and until when)";

/**
 * The creates refused as queue full below the cap. Other jobs of the account may explain them: an
 * earlier run's that its report names, or any while the suite's own jobs filled the cap at another
 * time. Otherwise the check fills the cap again once poll.timeoutSeconds have passed since the first
 * refusal, so that jobs of the account that end in the time the declaration gives a job have ended,
 * and fails only if the refusals persist that long.
 */
async function judgeRefusals(
  session: Session,
  state: CapState,
  filler: Filler,
  status: (text: string) => void,
): Promise<void> {
  const earlier = session.earlierJobs;
  const excused = (refusal: Refusal): boolean => earlier !== undefined && refusal.at <= earlier.until;
  const counted = (): Refusal[] => state.refusals.filter((refusal) => !excused(refusal));
  const persist = session.config.poll.timeoutSeconds * 1000;
  // Asked only once some refusal counts.
  const persisted = (): boolean => {
    const refusals = counted();
    return refusals.at(-1)!.at - refusals[0]!.at >= persist;
  };
  if (counted().length > 0 && !state.filled && !persisted()) {
    status(
      `a create was refused as queue full below the cap: filling it for up to ${session.config.poll.timeoutSeconds} s more`,
    );
    // That long from now, with half as long again for one more refusal to come after it (a refusal
    // needs the suite's jobs back at the cap).
    const margin = Math.max(2 * session.pollIntervalMs(session.contract.pollOf(cheapestOf(session).op)!), persist / 2);
    const end = Math.min(Date.now() + persist + margin, session.deadline);
    let ended = false;
    const over = new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, end - Date.now())).unref()).then(
      () => void (ended = true),
    );
    // The jobs that held slots at the first refusal have ended by poll.timeoutSeconds after it: the
    // cap is filled again then, with a cap's worth of jobs, rather than kept full all that time (the
    // fillers may be spent, and jobs shorter than the timeout would need many rounds).
    filler.allow(refillers(session));
    const refillAt = counted()[0]!.at + persist;
    // A timer may end a millisecond before Date.now(), which timed the refusal, has moved as far.
    while (!ended && Date.now() < refillAt) await Promise.race([session.sleep(refillAt - Date.now()), over]);
    while (!ended) {
      const jobs = await filler.fill(() => ended || Date.now() >= end || persisted(), over);
      if (!jobs) break;
      // All running: the target accepted the last of the cap's worth while the others ran.
      if (running(session, await pollEvery(session, jobs))) {
        state.filled = true;
        break;
      }
      await Promise.race([session.sleep(50), over]);
    }
  }
  const refusals = counted();
  const fewest = Math.min(...state.refusals.map((refusal) => refusal.running));
  if (state.refusals.length === 0) {
    // Only the cap's worth seen running proves that the creates just below it were accepted.
    if (state.filled) session.results.pass(GROUP, "*", BELOW_THE_CAP);
    else
      session.results.skip(
        GROUP,
        "*",
        BELOW_THE_CAP,
        "no create was refused as queue full below the cap, but the suite's own jobs were never seen filling it (all running after the create that made them the cap's worth): no verdict",
      );
  } else if (refusals.length === 0) {
    session.results.skip(
      GROUP,
      state.refusals[0]!.route,
      BELOW_THE_CAP,
      `refused as queue full with ${fewest} of the suite's jobs running while the ${earlier!.jobs} jobs an earlier run left (${earlier!.routes.join(", ")}) may still have run, until ${new Date(earlier!.until).toISOString()}: run again after then`,
    );
  } else if (state.filled) {
    session.results.skip(
      GROUP,
      refusals[0]!.route,
      BELOW_THE_CAP,
      `refused as queue full with ${fewest} of the suite's jobs running, but the suite's own jobs filled the declared cap of ${session.concurrency} at another time: ${OTHER_JOBS} held slots`,
    );
  } else if (persisted()) {
    const last = refusals.at(-1)!;
    const seconds = ((last.at - refusals[0]!.at) / 1000).toFixed(1);
    session.results.fail(
      GROUP,
      last.route,
      BELOW_THE_CAP,
      `refused as queue full with ${last.running} of the suite's jobs running, ${refusals.length} times over ${seconds} s (at least poll.timeoutSeconds), and the suite's jobs never filled the cap; the declared cap is ${session.concurrency}. Only ${OTHER_JOBS} could explain it: none may run while the suite does`,
      last.curl,
    );
  } else {
    session.results.skip(
      GROUP,
      refusals[0]!.route,
      BELOW_THE_CAP,
      `refused as queue full with ${fewest} of the suite's jobs running, and the run could not fill the cap for poll.timeoutSeconds (${session.config.poll.timeoutSeconds} s) after: ${OTHER_JOBS} may have held slots`,
    );
  }
}
