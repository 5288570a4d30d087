/**
 * The repeated-failure cooldown of the content-filtered model family, on a key the declaration
 * lends for it: creates are accepted until the description's number of consecutive failed jobs,
 * then the family is paused with a 429 carrying Retry-After and the seconds left, which agree with
 * each other and with the pause; meanwhile a model outside the family is not paused. Where the
 * declaration gives the target's shortened pause (cooldownPauseSeconds), the pause is waited out
 * and one more failure must pause the family again, one step longer; the description's own pause
 * is not waited out, and its probe is then the key's last request. A family paused before the
 * check's own failures are all in (by failures from before it, such as an earlier run's within the
 * hour) is waited out, if briefly, and cleared with a success before the check starts again.
 * First of all, a success must clear the failures before it: a success, one failure fewer than the
 * pause needs and a success are all accepted, and the run of failures after that success must
 * reach the description's number before the family is paused.
 */
import { needing, STAGE, type Check } from "../check.ts";
import { numericHeader, type Client } from "../client.ts";
import { accepted, type Exchange, type RequestSpec } from "../http.ts";
import { chargedCreate, createJob, follow, sendHolding, statusOf, type Created, type Job } from "../jobs.ts";
import { followable, hasPrompt, marked, pricedCreates } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "cooldown";
const GROWS = "each further failure lengthens the pause by one step";

type FamilyCreate = NonNullable<ReturnType<typeof familyCreate>>;

/** The cheapest create request of the family the cooldown concerns. */
const familyCreate = (session: Session) =>
  [...pricedCreates(session, false), ...pricedCreates(session, true)].find(
    (request) =>
      request.op.create?.family === session.contract.model.limits.cooldown.family &&
      followable(session, request.op) &&
      hasPrompt(request.op),
  );

/** The cheapest create request of a model outside the family, which its pause must not touch. */
const outsideCreate = (session: Session) =>
  pricedCreates(session, false).find(
    (request) => request.op.create?.family !== session.contract.model.limits.cooldown.family,
  );

/** While the family is paused, a create of another model on the same account is still accepted. */
async function otherModelsGoOn(session: Session, client: Client): Promise<void> {
  const other = outsideCreate(session);
  const name = "models outside the paused family are not paused";
  if (!other)
    return void session.results.skip(GROUP, "*", name, "the target implements no create route outside the family");
  const spec = { ...other.spec, headers: client.authorized() };
  // Its job is not waited for: the family's pause must still run when its 429 is asked for.
  const { exchange } = await createJob(client, other.op, spec, "accept");
  const paused = exchange.status === 429 && conditionsOf(session.contract, exchange.json).has("cooldown");
  session.results.expect(
    GROUP,
    other.op.route,
    name,
    accepted(exchange)
      ? []
      : [`answered ${exchange.status}${paused ? ", the cooldown 429" : ""}: ${exchange.text.slice(0, 200)}`],
    session.curl(spec),
  );
}

/** A moment before the job ended: the sending of the last poll that showed it running (or of its create). */
function endedAfter(session: Session, job: Job): number {
  const terminal = job.polls.findIndex(
    // Stryker disable next-line ConditionalExpression: a job stops at its first poll answered other than 200, so no such poll precedes its terminal one
    (poll) => poll.status === 200 && session.contract.model.jobStatus.terminal.includes(statusOf(poll)),
  );
  return (terminal > 0 ? job.polls[terminal - 1]! : job.created).sentAt;
}

/**
 * What one create of the family, marked to fail, came to: the moment after which its job failed, or
 * why it broke the run of failures (with, where it was the cooldown's 429, the seconds it asked to wait).
 */
type Failure =
  | { readonly endedAfter: number }
  | { readonly name: string; readonly detail: string; readonly pausedFor?: number | null };

/** The longest pause, left from failures before the check, that the check waits out before clearing them with a success. */
const CLEARING_WAIT_SECONDS = 60;

const CLEARS = "a success clears the failures before it";

/** A create refused with the cooldown's 429. */
const pausedAnswer = (session: Session, exchange: Exchange): boolean =>
  exchange.status === 429 && conditionsOf(session.contract, exchange.json).has("cooldown");

/**
 * What the start of the check came to: it must stop (a failure was recorded); the family was refused
 * before the check's failures (the run of failures then copes with failures from before it); or a
 * success, one failure fewer than the pause needs, and a success were all accepted, so that the
 * verdict on the success clearing the failures before it is the run of failures after it.
 */
type Clearing = "stop" | "refused before" | "to be seen";

/**
 * A success, one failure fewer than pause the family, and a success. The family was not paused
 * that early, so a pause before the run of failures after the last success is complete means the
 * failures before it still counted. Ending with a success, that run starts from none.
 */
async function successClears(
  session: Session,
  client: Client,
  request: FamilyCreate,
  fail: (atOnce: boolean) => Promise<Failure>,
  acceptedUntil: string,
  failCurl: string,
): Promise<Clearing> {
  const { contract } = session;
  const route = request.op.route;
  const spec = { ...request.spec, headers: client.authorized() };
  const curl = session.curl(spec);
  const consecutive = contract.model.limits.cooldown.consecutiveFailures;
  for (const round of [0, 1]) {
    const success = await chargedCreate(client, request.op, spec, request.price.atMost ? null : request.price.credits);
    if (!success.job) {
      if (round === 0) {
        // Paused by failures from before the check: the run of failures below copes with that.
        session.results.skip(
          GROUP,
          route,
          CLEARS,
          `the family was paused or refused before this check's failures: ${success.exchange.status} ${success.exchange.text.slice(0, 120)}`,
        );
        return "refused before";
      }
      const paused = pausedAnswer(session, success.exchange);
      session.results.fail(
        GROUP,
        route,
        paused ? acceptedUntil : CLEARS,
        `a success of the family, after ${consecutive - 1} failures, was refused: ${success.exchange.status} ${success.exchange.text.slice(0, 200)}`,
        curl,
      );
      return "stop";
    }
    if (success.job.terminal !== contract.model.jobStatus.success) {
      session.results.skip(
        GROUP,
        route,
        CLEARS,
        `a job of the family sent to succeed ended ${success.job.terminal ?? success.job.stoppedBy}`,
      );
      return "refused before";
    }
    if (round === 1) break;
    // Failures count whatever their order, and these are too few to pause the family: they go at once.
    const run = await Promise.all(Array.from({ length: consecutive - 1 }, () => fail(true)));
    const failure = run.find((candidate) => !("endedAfter" in candidate));
    if (!failure || "endedAfter" in failure) continue;
    session.results.fail(
      GROUP,
      route,
      // Stryker disable next-line ConditionalExpression: a failure with pausedFor is a refused create, which failures() already names acceptedUntil
      failure.pausedFor !== undefined ? acceptedUntil : failure.name,
      failure.detail,
      // The failing request is the marked one, not the success before it.
      failCurl,
    );
    return "stop";
  }
  return "to be seen";
}

interface Probe {
  /** The create's 429 is the cooldown's. */
  readonly paused: string;
  /** Its Retry-After and seconds left agree with `seconds`, the pause that began after `endedAfter`. */
  readonly agrees: string;
  readonly seconds: number;
  readonly endedAfter: number;
}

/** The problems of a cooldown 429's Retry-After and seconds left, for a pause of `seconds` that began after `endedAfter`. */
function pauseProblems(session: Session, exchange: Exchange, seconds: number, endedAfter: number): string[] {
  const { contract } = session;
  const field =
    contract.model.errors.tooManyRequests.variants.find((variant) => variant.condition === "cooldown")?.secondsField ??
    // Stryker disable next-line StringLiteral: the description's cooldown 429 names its seconds field (model/read-errors.ts finds it), so this fallback is never read
    "";
  const body = exchange.json as Record<string, unknown> & { error?: Record<string, unknown> };
  const left = body[field] ?? body.error?.[field];
  const header = numericHeader(exchange, contract.model.retryAfterHeader);
  const since = (exchange.receivedAt - endedAfter) / 1000;
  // The pause began at most `since` seconds before the target answered; a second of slack for rounding.
  const least = seconds - since - 1;
  return [
    ...(header === null ? [`no ${contract.model.retryAfterHeader}`] : []),
    ...(typeof left === "number" && left >= least && left <= seconds
      ? []
      : [`${field} is ${JSON.stringify(left)}; the pause of ${seconds} s began at most ${since.toFixed(1)} s ago`]),
    ...(header !== null && typeof left === "number" && Math.abs(header - left) > 1
      ? [`${contract.model.retryAfterHeader} is ${header} beside ${field}: ${left}`]
      : []),
  ];
}

/**
 * A create of the family while it should be paused: the cooldown 429, agreeing with the pause.
 * Returns whether it did. An answer that came when the pause may have ended cannot be judged.
 */
async function probe(
  session: Session,
  client: Client,
  request: FamilyCreate,
  spec: RequestSpec,
  expected: Probe,
): Promise<boolean> {
  const { contract } = session;
  const { exchange } = await createJob(client, request.op, spec, "reject");
  const curl = session.curl(spec);
  const paused = exchange.status === 429 && conditionsOf(contract, exchange.json).has("cooldown");
  const since = (exchange.receivedAt - expected.endedAfter) / 1000;
  if (!paused && since >= expected.seconds) {
    session.results.skip(
      GROUP,
      request.op.route,
      expected.paused,
      `answered ${exchange.status} ${since.toFixed(1)} s after the failure, when a pause of ${expected.seconds} s may have ended (this polling needs a longer cooldownPauseSeconds)`,
    );
    return false;
  }
  session.results.expect(
    GROUP,
    request.op.route,
    expected.paused,
    paused
      ? responseProblems(contract, request.op, exchange)
      : [`answered ${exchange.status}: ${exchange.text.slice(0, 200)}`],
    curl,
  );
  if (!paused) return false;
  const problems = pauseProblems(session, exchange, expected.seconds, expected.endedAfter);
  session.results.expect(GROUP, request.op.route, expected.agrees, problems, curl);
  return problems.length === 0;
}

/**
 * Sends creates of the family marked to fail, each followed to its end. One sent `atOnce` (beside
 * other jobs of the key) on a declared key, whose jobs otherwise go one at a time (its account's
 * cap is unknown), takes a slot past that one; answered queue full, it waits its turn.
 */
function failures(
  session: Session,
  client: Client,
  request: FamilyCreate,
  spec: RequestSpec,
  acceptedUntil: string,
): (atOnce: boolean) => Promise<Failure> {
  const { contract } = session;
  const failed = contract.model.jobStatus.failure.find((candidate) => candidate !== contract.model.jobStatus.timeout);
  const credits = request.price.atMost ? null : request.price.credits;
  let ended = 0;
  const create = async (atOnce: boolean): Promise<Created> => {
    if (!atOnce || client === session.main) return chargedCreate(client, request.op, spec, credits);
    const slot = client.slots.take();
    const exchange = await sendHolding(client, request.op, spec, slot, { positive: true });
    if (accepted(exchange)) {
      const created = follow(client, request.op, exchange, slot);
      await created.job?.ended;
      return created;
    }
    slot.release();
    return exchange.status === 429 && conditionsOf(contract, exchange.json).has("queue-full")
      ? chargedCreate(client, request.op, spec, credits)
      : { exchange };
  };
  return async (atOnce) => {
    const created = await create(atOnce);
    if (!created.job) {
      const { exchange } = created;
      const paused = exchange.status === 429 && conditionsOf(contract, exchange.json).has("cooldown");
      return {
        name: acceptedUntil,
        detail:
          created.unfollowed ?? `refused after ${ended} failed jobs: ${exchange.status} ${exchange.text.slice(0, 200)}`,
        ...(paused ? { pausedFor: numericHeader(exchange, contract.model.retryAfterHeader) } : {}),
      };
    }
    if (created.job.terminal !== failed)
      return {
        name: "the declared failed marker makes a job fail",
        detail: `the job ended ${created.job.terminal ?? created.job.stoppedBy}`,
      };
    ended++;
    return { endedAfter: endedAfter(session, created.job) };
  };
}

export const cooldown: Check = {
  group: GROUP,
  rules: {
    "models outside the paused family are not paused": ["limits.cooldown", "images.i-b.cooldown-family"],
    "creates are accepted until {count} consecutive failures": ["limits.cooldown", "images.i-b.cooldown-family"],
    "after {count} consecutive failures the family is paused with the cooldown 429": [
      "limits.cooldown",
      "errors.429-cooldown",
      "errors.429-four-conditions",
    ],
    "the cooldown's Retry-After and seconds left agree with the pause": ["limits.cooldown", "errors.429-cooldown"],
    "after the pause, one more failed job is accepted": ["limits.cooldown"],
    "one more failure after the pause pauses the family again": ["limits.cooldown", "errors.429-cooldown"],
    [`${GROWS}{step}`]: ["limits.cooldown", "errors.429-cooldown"],
    "the declared failed marker makes a job fail": [],
    [CLEARS]: ["limits.cooldown"],
  },
  summary:
    "With cooldownApiKey and outcomeMarkers.failed: a success clears the failures before it; the family's creates are accepted until the consecutive failures the description names, then refused with a 429 whose Retry-After and seconds agree with the pause; models outside the family go on. With cooldownPauseSeconds: after the pause, one more failure is accepted and pauses the family one step longer.",
  blockedBy: needing(
    {
      stateful: true,
      declared: [
        { field: "cooldownApiKey", gives: "a key whose account the suite may pause" },
        { field: "outcomeMarkers.failed", gives: "a way to make a job fail" },
      ],
    },
    (session) =>
      familyCreate(session)
        ? null
        : `the target implements no create route of the ${session.contract.model.limits.cooldown.family} family`,
  ),
  spend(session) {
    const key = session.client(session.config.cooldownApiKey!).name;
    const other = outsideCreate(session);
    const family = familyCreate(session)!;
    return [
      ...(other ? [{ key, what: `${other.op.route} (cooldown: another model)`, price: other.price }] : []),
      // Only where the family is paused by failures from before the check.
      {
        key,
        what: `${family.op.route} (cooldown: a success clearing earlier failures, if needed)`,
        price: family.price,
      },
      // The successes before and after the failures that show a success clears them.
      ...[1, 2].map(() => ({
        key,
        what: `${family.op.route} (cooldown: a success clears the failures before it)`,
        price: family.price,
      })),
    ];
  },
  async run({ session, stage, status }) {
    const { contract, config } = session;
    const { consecutiveFailures, pauseSeconds, growthSeconds } = contract.model.limits.cooldown;
    const key = config.cooldownApiKey as string;
    // Stryker disable next-line ConditionalExpression: session.client(key) gives the main client for the main key too
    const client = key === session.main.apiKey ? session.main : session.client(key);
    // Another job of the family on the same account would end the run of failures.
    if (client === session.main) await stage(STAGE.late);
    const request = familyCreate(session)!;
    const spec = marked({ ...request.spec, headers: client.authorized() }, config.outcomeMarkers.failed as string);
    const route = request.op.route;
    const curl = session.curl(spec);
    const acceptedUntil = `creates are accepted until ${consecutiveFailures} consecutive failures`;
    let fail = failures(session, client, request, spec, acceptedUntil);
    status("a success clearing the failures before it");
    const clearing = await successClears(session, client, request, fail, acceptedUntil, curl);
    if (clearing === "stop") return;
    fail = failures(session, client, request, spec, acceptedUntil);
    const runOfFailures = async (): Promise<Failure> => {
      // Failures count whatever their order, so all but the last go at once; the last alone, so
      // that a pause one failure early is seen.
      status(`failed jobs 1 to ${consecutiveFailures - 1} of ${consecutiveFailures}`);
      const run = await Promise.all(Array.from({ length: consecutiveFailures - 1 }, () => fail(true)));
      status(`failed job ${consecutiveFailures} of ${consecutiveFailures}`);
      return run.find((failure) => !("endedAfter" in failure)) ?? (await fail(false));
    };
    let last = await runOfFailures();
    if (clearing === "to be seen") {
      // The family was not paused after as many failures before the success: paused now, it still counted them.
      if (!("endedAfter" in last) && last.pausedFor !== undefined)
        return void session.results.fail(
          GROUP,
          route,
          CLEARS,
          `the run of failures after a success, which followed ${consecutiveFailures - 1} failures, was paused early: the failures before the success still counted (${last.detail})`,
          curl,
        );
      if ("endedAfter" in last) session.results.pass(GROUP, route, CLEARS);
      else
        session.results.skip(GROUP, route, CLEARS, `the run of failures after the success broke off: ${last.detail}`);
    } else if (!("endedAfter" in last) && last.pausedFor !== undefined) {
      // Paused early: failures from before the check (an earlier run's, within the hour) may count
      // with its own. Any success clears them, so one is sent once the pause is over, and the run of
      // failures starts again; paused early again, the target is at fault.
      const left = last.pausedFor;
      if (left === null || left > CLEARING_WAIT_SECONDS) {
        return void session.results.skip(
          GROUP,
          route,
          acceptedUntil,
          `${last.detail.slice(0, 120)}: failures from before this check (an earlier run's, within the hour) may have counted with its own, and the pause (${left === null ? "its 429 gives no Retry-After" : `${left} s`}) is too long to wait out and clear with a success; run again once it is over, or with another cooldownApiKey`,
        );
      }
      status(`clearing earlier failures: a successful job of the family after the pause of ${left} s`);
      const success = { ...request.spec, headers: client.authorized() };
      // The client sends nothing on this key before the 429's Retry-After has passed.
      const cleared = await chargedCreate(
        client,
        request.op,
        success,
        request.price.atMost ? null : request.price.credits,
      );
      if (cleared.job?.terminal !== contract.model.jobStatus.success) {
        return void session.results.skip(
          GROUP,
          route,
          acceptedUntil,
          `the family was paused early (${last.detail.slice(0, 120)}), and the success that would clear earlier failures did not succeed: ${cleared.job?.terminal ?? `${cleared.exchange.status} ${cleared.exchange.text.slice(0, 120)}`}`,
        );
      }
      fail = failures(session, client, request, spec, acceptedUntil);
      last = await runOfFailures();
    }
    if (!("endedAfter" in last)) return void session.results.fail(GROUP, route, last.name, last.detail, curl);
    session.results.pass(GROUP, route, acceptedUntil);
    const pause = config.cooldownPauseSeconds;
    const first: Probe = {
      paused: `after ${consecutiveFailures} consecutive failures the family is paused with the cooldown 429`,
      agrees: "the cooldown's Retry-After and seconds left agree with the pause",
      seconds: pause ?? pauseSeconds,
      endedAfter: last.endedAfter,
    };
    // While the family is paused; its job is not waited for.
    await otherModelsGoOn(session, client);
    if (pause === undefined) {
      // The 429's Retry-After stops this key for the description's pause: nothing of the other checks may follow it.
      await stage(STAGE.final);
      await probe(session, client, request, spec, first);
      return void session.results.skip(
        GROUP,
        route,
        GROWS,
        `the declaration gives no cooldownPauseSeconds (the shortened pause the target uses for testing); the description's pause of ${pauseSeconds} s is not waited out`,
      );
    }
    // A declared pause is short and waited out (by any other check on this key too), so the probe goes at once, while it runs.
    if (!(await probe(session, client, request, spec, first)))
      return void session.results.skip(
        GROUP,
        route,
        GROWS,
        "the first pause was not seen as cooldownPauseSeconds declares it",
      );
    // The step shortened as the pause is (the description's: as long as the pause).
    const step = (pause * growthSeconds) / pauseSeconds;
    status(`waiting out the pause of ${pause} s`);
    // The client sends nothing with this key before the 429's Retry-After has passed: this create goes
    // once the pause is over, beside the other model's job.
    const further = await fail(true);
    if (!("endedAfter" in further)) {
      return void session.results.fail(
        GROUP,
        route,
        further.name === acceptedUntil ? "after the pause, one more failed job is accepted" : further.name,
        further.detail,
        curl,
      );
    }
    session.results.pass(GROUP, route, "after the pause, one more failed job is accepted");
    await probe(session, client, request, spec, {
      paused: "one more failure after the pause pauses the family again",
      agrees: `${GROWS} (${step} s)`,
      seconds: pause + step,
      endedAfter: further.endedAfter,
    });
  },
};
