/**
 * The concurrency check (conformance/checks/concurrency.ts) on a session of the test's own, against
 * a tiny target of the test's own: I-A's create route and its poll route, with a cap of 2 jobs in
 * flight, answering each create and poll as the test says. Specification, Limits: "Concurrency | a
 * per-account cap on jobs in flight, shared by all keys and the web application; ... polling never
 * counts"; Errors: "Queue full: as many generations in flight as the plan's concurrency cap allows.
 * The client polls its running jobs and submits the next as they finish; a fixed wait is the wrong
 * response. No `Retry-After`." With the cap's worth of the suite's jobs running, polls still answer,
 * one more create is refused as queue full without Retry-After; no create is refused as queue full
 * while fewer run, unless other jobs of the account (an earlier run's) may explain it. An honest
 * target passes; each broken answer fails the result of the rule it breaks, the detail saying what
 * was seen, and a run that cannot reach a verdict says why.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { STAGE } from "../../conformance/check.ts";
import { concurrency } from "../../conformance/checks/concurrency.ts";
import { NoAnswer, type Observed, type SendOptions } from "../../conformance/client.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { Exchange } from "../../conformance/http.ts";
import type { MeasuredCharge } from "../../conformance/coordination.ts";
import { chargedCreate } from "../../conformance/jobs.ts";
import { validRequests } from "../../conformance/requests.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, jsonExchange, NOWHERE } from "./support/check-session.ts";
import { pricedPathOf } from "../client/labels.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const I_A_PATH = pricedPathOf("I-A");
const declared = sandboxDeclaration(contract);
const createOf = (label: string): ContractOperation =>
  contract.operations.find((op) => op.create?.label === label) as ContractOperation;
const I_A = createOf("I-A");
const I_C = createOf("I-C");
const POLL = contract.pollOf(I_A) as ContractOperation;

/** I-A is the cheapest create the suite can follow: 12 credits for one 1K image (the default size). */
const I_A_ROUTE = `POST ${I_A_PATH}`;
const I_C_ROUTE = "POST /v1/images/i-c";
const POLL_ROUTE = "GET /v1/images/{id}";

/** The declared cap of the test's target. */
const CAP = 2;
/** The jobs the check may add to fill the cap: a cap's worth for the first filling and one for each of its 5 probes. */
const FILLERS = 6 * CAP;
const INTERVAL_MS = 100;
/**
 * A poll.timeoutSeconds past the test's time limit: a run that should end once its jobs are spent
 * does not end by the check's wait after the late stage.
 */
const LONG = 60;

const POLLS_ANSWER = "polls answer while the cap is reached";
const BEYOND = `a create beyond the cap of ${CAP} is refused as queue full`;
const NO_RETRY_AFTER = "the queue-full 429 carries no Retry-After";
const BELOW = "no create is refused as queue full below the cap";
const POLLING = "polling never counts against the concurrency cap";
const GAVE_UP = "a create beyond the cap is refused as queue full";
/** No refusal below the cap, but no create was seen to bring the suite's jobs to it: no verdict either way. */
const NOT_SEEN_FILLED = `* | ${BELOW} | skip | no create was refused as queue full below the cap, but the suite's own jobs were never seen filling it (all running after the create that made them the cap's worth): no verdict`;
/** The results of a run whose jobs never filled the cap, and which saw no refusal below it. */
const NEVER_FILLED = [`* | ${GAVE_UP} | skip | the suite's jobs never filled the cap`, NOT_SEEN_FILLED];
const OTHER_JOBS =
  "other jobs of the account (another key's, the web application's, or an earlier run's still running: a run's report says how many it left and until when)";

const QUEUE_FULL_BODY = {
  error: {
    type: "rate_limit_error",
    code: "queue_full",
    message: "As many generations are in flight as the plan's concurrency cap allows.",
  },
};
/** The queue-full body with a message of 400 characters. */
const LONG_QUEUE_FULL = { error: { ...QUEUE_FULL_BODY.error, message: "y".repeat(400) } };
/** Its first 200 characters, as a detail quotes them. */
const LONG_QUOTED = `{"error":{"type":"rate_limit_error","code":"queue_full","message":"${"y".repeat(133)}`;
const SUCCEEDED = { status: "succeeded", images: [{ url: "https://files.example.com/1.png", position: 1 }] };
const RATE_LIMITED_BODY = {
  error: { type: "rate_limit_error", code: "rate_limited", message: "Too many requests: retry in 5 seconds." },
};

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}
const QUEUE_FULL: Reply = { status: 429, body: QUEUE_FULL_BODY };
const BAD_REQUEST: Reply = {
  status: 400,
  body: { error: { type: "invalid_request_error", code: "invalid_request", message: "No." } },
};

/** What the test's target knows when it answers a create. */
interface TargetState {
  /** Its jobs not yet answered in a terminal status. */
  readonly running: number;
  /** Creates answered so far. */
  readonly creates: number;
  /** Ends every running job: each answers `succeeded` from its next poll on. */
  endAll(): void;
  /** Ends the running job created last. */
  endNewest(): void;
  /** The session sending to the target, once the test has made it. */
  session?: Session;
}

/**
 * A create's answer: a reply, a job (answered `delay` ms late) that runs `life` polls (without end by
 * default) or until `until()` holds when it is polled, or until the test ends it, and then succeeds
 * (or `fails`); or the connection dropped without an answer. No job ends by the time that passes:
 * only by what happened.
 */
type CreateAnswer = Reply | JobAnswer | "reset";
interface JobAnswer {
  readonly life?: number;
  readonly until?: () => boolean;
  readonly delay?: number;
  readonly fails?: boolean;
}

interface TargetRules {
  create(state: TargetState): CreateAnswer;
  /** A poll's answer instead of the job's status. */
  poll?(state: TargetState): Reply | undefined;
}

/** One create the target saw: when it arrived and was answered (ms since the epoch), and how. */
interface SeenCreate {
  readonly arrived: number;
  readonly answered: number;
  readonly status: number | "reset";
  readonly running: number;
}

interface Target {
  readonly url: string;
  readonly creates: SeenCreate[];
  /** Polls of its jobs answered so far. */
  readonly polls: number;
  /** What the target knows; its `session` set by the test. */
  readonly state: TargetState;
  close(): Promise<void>;
}

/** The check has recorded a result named `name` (of its own group). */
const recorded = (state: TargetState, name: (name: string) => boolean): boolean =>
  state.session?.results.all.some((result) => result.group === "concurrency" && name(result.name)) ?? false;
/** The check has given up on the cap without a verdict. */
const gaveUp = (state: TargetState): boolean => recorded(state, (name) => name === GAVE_UP);
/**
 * The check is past its probe of the cap: it recorded what the polls at the cap answered (after all
 * of them were answered), judged the creates below the cap, or gave up.
 */
const probed = (state: TargetState): boolean =>
  recorded(state, (name) => name === POLLS_ANSWER || name === BELOW || name === GAVE_UP);
/** A job that runs until the check is past its probe of the cap. */
const untilProbed = (state: TargetState): JobAnswer => ({ until: () => probed(state) });
/**
 * A job started beyond the cap, ending the jobs before it: it runs until the session has seen every
 * job the target ended end (its slot free), so that the check's next round starts with them all ended.
 */
const beyondEnding = (state: TargetState): JobAnswer => ({
  until: () => (state.session?.main.jobs.size ?? 0) <= state.running,
});

/** The cap honoured: jobs that run until the check is past its probe, and the queue-full 429 (no Retry-After) once CAP run. */
const honest = (beyond: CreateAnswer = QUEUE_FULL): TargetRules => ({
  create: (state) => (state.running >= CAP ? beyond : untilProbed(state)),
});

async function startTarget(rules: TargetRules): Promise<Target> {
  const jobs = new Map<
    string,
    { polls: number; life: number; until?: () => boolean; fails?: boolean; ended: boolean }
  >();
  const creates: SeenCreate[] = [];
  let polls = 0;
  const state: TargetState = {
    session: undefined,
    get running() {
      return [...jobs.values()].filter((job) => !job.ended).length;
    },
    get creates() {
      return creates.length;
    },
    endAll: () => {
      for (const job of jobs.values()) job.ended = true;
    },
    endNewest: () => {
      const newest = [...jobs.values()].filter((job) => !job.ended).at(-1);
      if (newest) newest.ended = true;
    },
  };
  const reply = (response: ServerResponse, { status, body, headers }: Reply): void => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    for await (const _ of request);
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method === "POST" && path === I_A_PATH) {
      const arrived = Date.now();
      const running = state.running;
      const answer = rules.create(state);
      if (answer === "reset") {
        creates.push({ arrived, answered: Date.now(), status: "reset", running });
        request.socket.destroy();
        return;
      }
      let sent: Reply;
      if (!("status" in answer)) {
        const id = `img_${jobs.size + 1}`;
        jobs.set(id, {
          polls: 0,
          life: answer.life ?? Number.POSITIVE_INFINITY,
          until: answer.until,
          fails: answer.fails,
          ended: false,
        });
        sent = { status: 200, body: { id, message: "Job accepted.", model: "i-a", status: "pending" } };
        if (answer.delay) await nothingFor(answer.delay);
      } else sent = answer;
      creates.push({ arrived, answered: Date.now(), status: sent.status, running });
      return reply(response, sent);
    }
    const job = request.method === "GET" ? jobs.get(/^\/v1\/images\/([^/]+)$/.exec(path)?.[1] ?? "") : undefined;
    if (!job) return reply(response, { status: 404, body: { error: { message: "No such job." } } });
    polls++;
    const instead = rules.poll?.(state);
    if (instead) return reply(response, instead);
    job.polls++;
    if (job.polls > job.life || job.until?.()) job.ended = true;
    reply(response, {
      status: 200,
      body: !job.ended ? { status: "processing" } : job.fails ? { status: "failed" } : SUCCEEDED,
    });
  };
  const server = await serveOnLoopback((request, response) => void handle(request, response));
  return {
    url: server.url,
    creates,
    get polls() {
      return polls;
    },
    state,
    close: server.close,
  };
}

/** The declaration with the test's cap, polls every INTERVAL_MS and a poll.timeoutSeconds of `timeoutSeconds`. */
const configOf = (timeoutSeconds: number, extra: Partial<TargetConfig> = {}): TargetConfig => ({
  ...declared,
  concurrency: CAP,
  poll: { intervalMs: INTERVAL_MS, timeoutSeconds, stablePolls: 0 },
  ...extra,
});

/**
 * A session sending to `target` the requests the description holds valid (where a validation proxy
 * would be), the others to a port where nothing answers; its responses the check observes, as a
 * whole run's are, and `tap` too.
 */
const sessionOf = (
  config: TargetConfig,
  target = NOWHERE,
  signal = new AbortController().signal,
  tap: (seen: Observed) => void = () => {},
  of = contract,
  // Past the test's own time limit: a check that waits for the run's end fails the test.
  deadlineMs = 120_000,
): Session =>
  checkSession({
    contract: of,
    config,
    target,
    targetUrl: NOWHERE,
    proxied: false,
    apiKey: declared.apiKey as string,
    signal,
    deadlineMs,
    observe: (session, seen) => {
      tap(seen);
      concurrency.observe?.(session, seen);
    },
  });

interface CapRun {
  readonly results: CheckResult[];
  readonly statuses: string[];
  /** The stages the check waited for. */
  readonly stages: number[];
  readonly creates: SeenCreate[];
  /** Every response the session saw, as the client saw it. */
  readonly seen: Observed[];
  /** What the run threw, if anything. */
  readonly error?: unknown;
}

interface RunOptions {
  readonly config?: TargetConfig;
  /** Builds the session instead of sessionOf (an earlier run's report). */
  readonly session?: typeof sessionOf;
  /** Done before the check runs: what the run's other checks saw. */
  readonly before?: (session: Session) => void;
  /** Done beside the check (the run's other checks), told when the check is `done`. */
  readonly beside?: (session: Session, target: Target, done: Promise<unknown>) => Promise<unknown>;
  /** When the check's wait for the late stage ends (at once by default). */
  readonly late?: (session: Session, target: Target) => Promise<void>;
  readonly onStatus?: (text: string) => void;
}

/** The check run against the test's target following `rules`. */
async function capRun(rules: TargetRules, options: RunOptions = {}): Promise<CapRun> {
  const target = await startTarget(rules);
  const stop = new AbortController();
  const config = options.config ?? configOf(LONG);
  const seen: Observed[] = [];
  const session = (options.session ?? sessionOf)(config, target.url, stop.signal, (observed) => seen.push(observed));
  target.state.session = session;
  const statuses: string[] = [];
  const stages: number[] = [];
  let error: unknown;
  try {
    options.before?.(session);
    const run = concurrency.run?.({
      session,
      stage: async (stage) => {
        stages.push(stage);
        await options.late?.(session, target);
      },
      status: (text) => {
        statuses.push(text);
        options.onStatus?.(text);
      },
    });
    const done = run?.catch((thrown: unknown) => {
      error = thrown;
    });
    const beside = options.beside?.(session, target, done ?? Promise.resolve());
    await done;
    await beside;
  } finally {
    // Ends the check's wait of poll.timeoutSeconds past the late stage, which outlives a quick run.
    stop.abort();
    await target.close();
  }
  return { results: session.results.all, statuses, stages, creates: target.creates, seen, error };
}

/** `route | name | outcome | detail` for each result, in order. */
const listed = (results: CheckResult[]): string[] =>
  results.map((result) =>
    [result.route, result.name, result.outcome, result.detail].filter((part) => part !== undefined).join(" | "),
  );

/** The made-up answer `status` with `body` to `op` sent with `headers`, received at `at`. */
function answer(
  op: ContractOperation,
  status: number,
  body: unknown,
  at = Date.now(),
  headers: Record<string, string> = {},
): Exchange {
  const path = op === POLL ? "/v1/images/img_1" : op.path;
  const request = { method: op.method, path, headers: { authorization: `Bearer ${declared.apiKey}`, ...headers } };
  return { ...jsonExchange(request, status, body), sentAt: at, receivedAt: at };
}

/** Shows the check `exchange` to `op`, sent by the main key with `options` unless `client` says otherwise. */
function seen(
  session: Session,
  op: ContractOperation,
  exchange: Exchange,
  options: SendOptions,
  client = session.main,
): void {
  concurrency.observe?.(session, { client, op, exchange, options });
}

/** A create refused as queue full, at `at`, with `running` of the suite's jobs in flight. */
const refusedBelow = (session: Session, op: ContractOperation, at: number, running: number): void =>
  seen(session, op, answer(op, 429, QUEUE_FULL_BODY, at), { positive: true, jobsInFlight: running });

/** A target refusing every create with a 400: the suite's jobs never fill the cap. */
const REFUSING: TargetRules = { create: () => BAD_REQUEST };
/** A target answering every create with the queue-full 429 while `blocked()`, then honest. */
const blockedWhile = (blocked: () => boolean): TargetRules => ({
  create: (state) => (blocked() ? QUEUE_FULL : honest().create(state)),
});

const nothingFor = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves once `event()` holds, looking every 10 ms. */
async function when(event: () => boolean): Promise<void> {
  while (!event()) await nothingFor(10);
}

/** A session told that an earlier run on the target left 3 jobs, which may run until T0 + 500 ms (checkSession takes no such report). */
const afterEarlierRun: typeof sessionOf = (config, target = NOWHERE, signal = new AbortController().signal) => {
  const made: Session = new Session({
    contract,
    config,
    transport: { sendUrl: target, targetUrl: NOWHERE, secrets: {} },
    apiKey: declared.apiKey as string,
    proxied: false,
    signal,
    deadline: Date.now() + 120_000,
    earlierJobs: { jobs: 3, routes: [I_A_ROUTE, I_C_ROUTE], until: T0 + 500 },
    observe: (observed) => concurrency.observe?.(made, observed),
    progress: () => {},
  });
  return made;
};

// Every run starts at once (each waits on its own target and timers, not the CPU), and all are
// over before any test: what they run is then every test's (as Stryker counts what a test covers).
const runs: Record<string, Promise<CapRun>> = {};
const cleanups: Array<() => void> = [];
const T0 = Date.now() - 60_000;
let unblocked = false;
/** Whether the refilled run's check had told that it fills the cap again when it issued a create. */
const issuedRefilling = new AsyncLocalStorage<boolean>();
/** The refilled run's creates that the check issued to fill the cap again. */
const refillingCreates = new Set<Exchange>();
/** The results of the run that waits for the late stage, just before it ends. */
let beforeLate: CheckResult[] = [];
/** What the billing check's measurement beside each accepted-beyond run was told. */
const measured: Record<string, MeasuredCharge[]> = {};
/** A measurement started beside a run once its own jobs were created, by run. */
const measuredBeside: Record<string, Promise<MeasuredCharge[]>> = {};
/** The creates answered as that measurement ended, by run. */
const createsWhenMeasured: Record<string, number> = {};
/** The billing check measuring all along beside the check's run, open to charges of exact price. */
const measuredInto =
  (run: string): RunOptions["beside"] =>
  async (session, _, done) => {
    measured[run] = await session.main.charges.measure(async (window) => {
      window.open({ cap: 100, own: 1 });
      await done;
      return window.settled();
    });
  };

beforeAll(async () => {
  runs.honest = capRun(honest());
  runs.retryAfter = capRun(honest({ ...QUEUE_FULL, headers: { "retry-after": "0" } }), {
    // A refusal below the cap, seen before the suite's own jobs filled it.
    before: (session) => refusedBelow(session, I_C, Date.now(), 1),
  });
  runs.unavailable = capRun(
    honest({
      status: 503,
      body: { error: { type: "rate_limit_error", code: "queue_full", message: "x".repeat(400) } },
    }),
  );
  runs.unknown429 = capRun(honest({ status: 429, body: {} }));
  runs.acceptedBeyond = capRun(honest({ life: 0 }), {
    // Another check's result of the same name counts for nothing.
    before: (session) => session.results.pass("another", "*", POLLS_ANSWER),
    beside: measuredInto("acceptedBeyond"),
  });
  // The same, the job beyond the cap failing.
  runs.failedBeyond = capRun(honest({ life: 0, fails: true }), { beside: measuredInto("failedBeyond") });
  // I-A's price not shown: the check's creates are of a price not known exactly. Its own jobs (3 polls
  // long) fill the cap, and then the billing check starts measuring: the create beyond the cap must
  // wait for the measurement to end, as its charge could not be told apart from the measured ones.
  runs.unknownPrice = capRun(
    { create: (state) => (state.running >= CAP ? QUEUE_FULL : { life: 3 }) },
    {
      config: configOf(LONG, { models: ["I-A"] }),
      session: (config, target, signal, tap) => {
        // I-A's route priced as I-D is: "The price of I-D is not shown."
        const tables = contract.model.priceTables;
        const priceTables = { ...tables, [I_A.path]: tables[createOf("I-D").path]! };
        const unpriced = Object.create(contract, { model: { value: { ...contract.model, priceTables } } }) as Contract;
        let creates = 0;
        const made = sessionOf(
          config,
          target,
          signal,
          (observed) => {
            tap?.(observed);
            if (observed.op === I_A) creates++;
          },
          unpriced,
        );
        const charges = made.main.charges;
        const charge = charges.charge.bind(charges);
        let calls = 0;
        charges.charge = (credits, work) => {
          const running = charge(credits, work);
          if (++calls === CAP)
            measuredBeside.unknownPrice = charges.measure(async (window) => {
              window.open({ cap: 100, own: 0 });
              const charged = await window.settled();
              createsWhenMeasured.unknownPrice = creates;
              return charged;
            });
          return running;
        };
        return made;
      },
    },
  );
  // The first 7 creates refused as queue full (other jobs hold the slots), then the cap honoured.
  runs.queueFullFirst = capRun({
    create: (state) => (state.creates < 7 ? QUEUE_FULL : honest().create(state)),
  });
  // Refusals other than the queue-full 429: a 503 with its body, a 429 of no known shape.
  runs.otherRefusals = capRun({
    create: (state) => (state.creates % 2 === 0 ? { status: 503, body: QUEUE_FULL_BODY } : { status: 429, body: {} }),
  });
  // The last two of its 6 caps' worth answered late, and accepted.
  runs.slowLast = capRun({
    create: (state) =>
      state.creates < FILLERS - CAP
        ? BAD_REQUEST
        : state.running < CAP
          ? { ...untilProbed(state), delay: 150 }
          : QUEUE_FULL,
  });
  runs.pollsRefused = capRun({
    create: honest().create,
    // Once the cap is reached and one more create sent, polls are refused as queue full.
    poll: (state) => (state.creates > CAP ? { status: 429, body: LONG_QUEUE_FULL } : undefined),
  });
  runs.neverFilled = capRun(REFUSING);
  runs.reset = capRun({ create: () => "reset" });
  // Half its jobs refused, then jobs end as soon as a create beyond the cap arrives, which is
  // accepted: the three caps' worth left make three rounds, no verdict.
  runs.endingThrice = capRun({
    create: (state) => {
      if (state.creates < FILLERS / 2) return BAD_REQUEST;
      if (state.running < CAP) return { until: () => gaveUp(state) };
      state.endAll();
      return beyondEnding(state);
    },
  });
  // With a cap of 3, the job created last ends as each create beyond the cap arrives, the others
  // run on: each round takes one job more, and 18 are allowed.
  runs.fiveRounds = capRun(
    {
      create: (state) => {
        if (state.running < 3) return { until: () => gaveUp(state) };
        state.endNewest();
        return beyondEnding(state);
      },
    },
    { config: configOf(LONG, { concurrency: 3 }) },
  );
  // The same once, then every create refused.
  let rounds = 0;
  runs.endingOnce = capRun({
    create: (state) => {
      if (rounds > 0) return BAD_REQUEST;
      if (state.running < CAP) return { until: () => gaveUp(state) };
      rounds++;
      state.endAll();
      return beyondEnding(state);
    },
  });
  // Every create refused with a 400 until the test ends the late stage.
  let lateNow: () => void = () => {};
  const lateStage = new Promise<void>((resolve) => (lateNow = resolve));
  cleanups.push(lateNow);
  runs.waitsForLate = capRun(REFUSING, {
    late: () => lateStage,
    beside: async (session, target) => {
      // Spent once FILLERS creates are refused; the check still waits for the late stage.
      await when(() => target.creates.length >= FILLERS);
      await nothingFor(200);
      beforeLate = [...session.results.all];
      lateNow();
    },
  });
  // Refusals below the cap for poll.timeoutSeconds (1 s) and more, the last 1 running, the fewest 0.
  runs.persisted = capRun(REFUSING, {
    config: configOf(1),
    before: (session) => {
      refusedBelow(session, I_C, T0, 1);
      refusedBelow(session, I_A, T0 + 400, 0);
      refusedBelow(session, I_A, T0 + 1000, 1);
      // None of these is a refusal below the cap (a result of it would count them).
      const free = session.client(declared.freePlanKey as string);
      const full = (at: number) => answer(I_A, 429, QUEUE_FULL_BODY, at);
      seen(session, I_A, full(T0 + 1100), { positive: true, jobsInFlight: CAP });
      seen(session, I_A, full(T0 + 1200), { positive: true });
      seen(session, I_A, answer(I_A, 429, QUEUE_FULL_BODY, T0 + 1300, { prefer: "code=429" }), { jobsInFlight: 0 });
      seen(session, I_A, full(T0 + 1400), { jobsInFlight: 0 }, free);
      seen(session, POLL, answer(POLL, 429, QUEUE_FULL_BODY, T0 + 1500), { jobsInFlight: 0 });
      seen(session, I_A, answer(I_A, 429, RATE_LIMITED_BODY, T0 + 1600), { jobsInFlight: 0 });
      seen(session, I_A, answer(I_A, 503, QUEUE_FULL_BODY, T0 + 1700), { jobsInFlight: 0 });
      // While a job the suite lost track of may still run.
      session.main.unsure = 1;
      seen(session, I_A, full(T0 + 1800), { jobsInFlight: 0 });
      session.main.unsure = 0;
    },
  });
  // Without a declared cap, no refusal counts (the description's Ultra cap is not the account's).
  runs.undeclared = capRun(REFUSING, {
    config: configOf(LONG, { concurrency: undefined }),
    before: (session) => {
      refusedBelow(session, I_A, T0, 1);
      refusedBelow(session, I_A, T0 + LONG * 1000, 1);
    },
  });
  // An earlier run's jobs may have run until the last refusal.
  runs.earlier = capRun(REFUSING, {
    session: afterEarlierRun,
    before: (session) => {
      refusedBelow(session, I_C, T0, 1);
      refusedBelow(session, I_A, T0 + 500, 0);
    },
  });
  // Refused below the cap after the earlier run's jobs may have run: those refusals persist for
  // poll.timeoutSeconds (1 s), the first alone does not.
  runs.afterEarlier = capRun(REFUSING, {
    config: configOf(1),
    session: afterEarlierRun,
    before: (session) => {
      refusedBelow(session, I_C, T0, 1);
      refusedBelow(session, I_A, T0 + 501, 1);
      refusedBelow(session, I_A, T0 + 1501, 0);
    },
  });
  // Other jobs of the account hold the slots until the check fills the cap again.
  runs.refilled = capRun(
    blockedWhile(() => !unblocked),
    {
      config: configOf(1),
      // The check charges each create as it issues it (chargedCreate): marked then, its requests carry
      // the mark to the observer. A create issued just before the status may be sent in its millisecond.
      session: (config, target, signal, tap) => {
        const made = sessionOf(config, target, signal, (observed) => {
          tap?.(observed);
          if (issuedRefilling.getStore() && observed.op === I_A) refillingCreates.add(observed.exchange);
        });
        const charges = made.main.charges;
        const charge = charges.charge.bind(charges);
        charges.charge = (credits, work) => issuedRefilling.run(unblocked, () => charge(credits, work));
        return made;
      },
      onStatus: (text) => {
        if (text.startsWith("a create was refused as queue full below the cap")) unblocked = true;
      },
    },
  );
  await Promise.allSettled(Object.values(runs));
});

afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

/** The poll route's and create route's results of an honest probe: polls answer, the queue-full 429 without Retry-After. */
const PROBE_PASSED = [
  `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
  `${I_A_ROUTE} | ${BEYOND} | pass`,
  `${I_A_ROUTE} | ${NO_RETRY_AFTER} | pass`,
];

describe("the concurrency check against a target honouring the cap", () => {
  it("passes: polls answer at the cap, the create beyond it gets the queue-full 429 without Retry-After, none below", async () => {
    const run = await runs.honest!;
    expect(listed(run.results)).toEqual([...PROBE_PASSED, `* | ${BELOW} | pass`]);
    expect(run.error).toBeUndefined();
  });

  it("fills the cap with its own 2 jobs of the cheapest create, then sends one create more, while 2 run", async () => {
    const run = await runs.honest!;
    expect(run.creates.map(({ status, running }) => [status, running])).toEqual([
      [200, 0],
      [200, 1],
      [429, 2],
    ]);
    expect(run.statuses).toEqual(["waiting for the cap to fill", `probing the cap of ${CAP}`]);
  });

  it("waits for the late stage, when the other checks are done, before it judges", async () => {
    expect((await runs.honest!).stages).toEqual([STAGE.late]);
  });

  it("holds a refusal below the cap against nobody once the suite's own jobs filled the cap: other jobs held slots", async () => {
    const run = await runs.retryAfter!;
    expect(listed(run.results).at(-1)).toBe(
      `${I_C_ROUTE} | ${BELOW} | skip | refused as queue full with 1 of the suite's jobs running, but the suite's own jobs filled the declared cap of ${CAP} at another time: ${OTHER_JOBS} held slots`,
    );
  });
});

describe("the concurrency check fails a create beyond the cap that is not refused as queue full", () => {
  it("fails a queue-full 429 carrying Retry-After (the specification: No `Retry-After`)", async () => {
    const run = await runs.retryAfter!;
    expect(listed(run.results).slice(0, 3)).toEqual([
      `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
      `${I_A_ROUTE} | ${BEYOND} | pass`,
      `${I_A_ROUTE} | ${NO_RETRY_AFTER} | fail | Retry-After: 0 on a queue-full 429`,
    ]);
    expect(run.results[2]?.curl).toContain(I_A_PATH);
  });

  it("fails another status with the queue-full body, quoting 200 characters of it, and judges no Retry-After", async () => {
    const run = await runs.unavailable!;
    const quoted = `{"error":{"type":"rate_limit_error","code":"queue_full","message":"${"x".repeat(133)}`;
    expect(listed(run.results)).toEqual([
      `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
      `${I_A_ROUTE} | ${BEYOND} | fail | answered 503, not the queue-full 429: ${quoted}`,
      `* | ${BELOW} | pass`,
    ]);
    expect(run.results[1]?.curl).toContain(I_A_PATH);
  });

  it("fails a 429 of no queue-full shape", async () => {
    const run = await runs.unknown429!;
    expect(listed(run.results)).toEqual([
      `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
      `${I_A_ROUTE} | ${BEYOND} | fail | answered 429, not the queue-full 429: {}`,
      `* | ${BELOW} | pass`,
    ]);
  });

  it("fails a create accepted while the cap's worth of its jobs were seen running after it", async () => {
    const run = await runs.acceptedBeyond!;
    expect(listed(run.results)).toEqual([
      // Another check's, before the run.
      `* | ${POLLS_ANSWER} | pass`,
      `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
      `${I_A_ROUTE} | ${BEYOND} | fail | accepted a create while 2 of the suite's jobs were running (each seen running by a poll sent after the create was answered)`,
      `* | ${BELOW} | pass`,
    ]);
    expect(run.results[2]?.curl).toContain(I_A_PATH);
    expect(run.creates.map(({ status }) => status)).toEqual([200, 200, 200]);
  });

  it("tells the billing check's measurement what that create charged, joining it at once (its price is exact)", async () => {
    await runs.acceptedBeyond;
    expect(measured.acceptedBeyond).toHaveLength(3);
    const beyond = measured.acceptedBeyond?.find((charge) => charge.what === `${I_A_ROUTE} (img_3)`);
    expect(beyond?.credits).toBe(12);
    expect(beyond?.charged()).toBe(true);
    expect(beyond?.op).toBe(I_A);
    expect(beyond?.spec.path).toBe(I_A_PATH);
  });

  it("tells the measurement that the create charged nothing when its job failed (the specification: failed, No charge)", async () => {
    const run = await runs.failedBeyond!;
    expect(listed(run.results)[1]).toBe(
      `${I_A_ROUTE} | ${BEYOND} | fail | accepted a create while 2 of the suite's jobs were running (each seen running by a poll sent after the create was answered)`,
    );
    const beyond = measured.failedBeyond?.find((charge) => charge.what === `${I_A_ROUTE} (img_3)`);
    expect(beyond?.credits).toBe(12);
    expect(beyond?.charged()).toBe(false);
  });

  it("sends a create of a price not known exactly only once the billing check's measurement has ended, and tells it nothing", async () => {
    const run = await runs.unknownPrice!;
    // Only the cap's worth of the check's own jobs had been created while the balance was measured.
    expect(createsWhenMeasured.unknownPrice).toBe(CAP);
    expect(await measuredBeside.unknownPrice).toEqual([]);
    // The create beyond the cap was sent after all, and refused as queue full.
    expect(run.creates.length).toBeGreaterThan(CAP);
    expect(listed(run.results.filter((result) => result.name === BEYOND))).toEqual([`${I_A_ROUTE} | ${BEYOND} | pass`]);
  });
});

describe("the concurrency check and polls at the cap (polling never counts against it)", () => {
  it("fails polls refused as queue full at the cap, quoting each, and then holds the cap not filled", async () => {
    const run = await runs.pollsRefused!;
    const polls = run.results.filter((result) => result.name === POLLS_ANSWER);
    expect(listed(polls)).toEqual([
      `${POLL_ROUTE} | ${POLLS_ANSWER} | fail | a poll answered 429: ${LONG_QUOTED}; a poll answered 429: ${LONG_QUOTED}`,
    ]);
    expect(listed(run.results.filter((result) => result.name === BEYOND || result.name === NO_RETRY_AFTER))).toEqual(
      PROBE_PASSED.slice(1),
    );
    // Every refused poll fails the rule, as its observer saw it.
    const refused = run.results.filter((result) => result.name === POLLING);
    expect(refused.length).toBeGreaterThanOrEqual(CAP);
    expect(new Set(listed(refused))).toEqual(
      new Set([`${POLL_ROUTE} | ${POLLING} | fail | a poll was refused with a queue-full 429: ${LONG_QUOTED}`]),
    );
    expect(refused[0]?.curl).toContain("/v1/images/img_");
    // Polls refused at the cap show no job running: nothing to pass below the cap.
    expect(listed(run.results.filter((result) => result.name === BELOW))).toEqual([NOT_SEEN_FILLED]);
  });

  it("fails a poll of the main key refused as queue full, quoting 200 characters, and nothing else", () => {
    const session = sessionOf(configOf(LONG));
    seen(session, POLL, answer(POLL, 429, LONG_QUEUE_FULL), { positive: true });
    expect(listed(session.results.all)).toEqual([
      `${POLL_ROUTE} | ${POLLING} | fail | a poll was refused with a queue-full 429: ${LONG_QUOTED}`,
    ]);
    expect(session.results.all[0]?.curl).toContain("/v1/images/img_1");
  });

  it("fails a poll refused with the 429 of queue full or of the spend limit, where the description tells them apart", () => {
    // The description used here gives both one shape: each left alone among the 429 variants.
    for (const condition of ["queue-full", "spend-limit"]) {
      const tooMany = contract.model.errors.tooManyRequests;
      const variants = tooMany.variants.filter((variant) => variant.condition === condition);
      const errors = { ...contract.model.errors, tooManyRequests: { ...tooMany, variants } };
      const of = Object.create(contract, { model: { value: { ...contract.model, errors } } }) as Contract;
      const session = sessionOf(configOf(LONG), NOWHERE, undefined, undefined, of);
      seen(session, POLL, answer(POLL, 429, QUEUE_FULL_BODY), { positive: true });
      expect(session.results.all.map((result) => result.name)).toEqual([POLLING]);
    }
  });

  it("holds no poll against the cap that was answered, rate limited, chosen with Prism's Prefer header, sent by another key, or a create", () => {
    const session = sessionOf(configOf(LONG));
    seen(session, POLL, answer(POLL, 200, { status: "processing" }), { positive: true });
    seen(session, POLL, answer(POLL, 429, RATE_LIMITED_BODY), { positive: true });
    seen(session, POLL, answer(POLL, 429, QUEUE_FULL_BODY, Date.now(), { prefer: "code=429" }), { positive: true });
    seen(session, POLL, answer(POLL, 429, QUEUE_FULL_BODY), {}, session.client(declared.freePlanKey as string));
    seen(session, I_A, answer(I_A, 429, QUEUE_FULL_BODY), { positive: true, jobsInFlight: 0 });
    expect(session.results.all).toEqual([]);
  });
});

describe("the concurrency check filling the cap", () => {
  it("takes the place of each create refused as queue full with another, a poll's time after the refusal, until the cap fills", async () => {
    const run = await runs.queueFullFirst!;
    expect(run.creates.map(({ status }) => status)).toEqual([429, 429, 429, 429, 429, 429, 429, 200, 200, 429]);
    expect(listed(run.results)).toEqual([
      ...PROBE_PASSED,
      `${I_A_ROUTE} | ${BELOW} | skip | refused as queue full with 1 of the suite's jobs running, but the suite's own jobs filled the declared cap of ${CAP} at another time: ${OTHER_JOBS} held slots`,
    ]);
  });

  it("after a refusal below the cap, lets a poll's time pass before it adds a job (the specification: a fixed wait is the wrong response)", async () => {
    for (const run of [await runs.queueFullFirst!, await runs.refilled!]) {
      const creates = run.seen.filter(({ op }) => op === I_A).map(({ exchange }) => exchange);
      const refused = creates.filter((exchange) => exchange.status === 429);
      expect(refused.length).toBeGreaterThan(1);
      for (const create of creates)
        for (const refusal of refused.filter((candidate) => candidate.receivedAt < create.sentAt))
          expect(create.sentAt - refusal.receivedAt).toBeGreaterThan(INTERVAL_MS);
    }
  });

  it("uses up the place of a create refused otherwise (a 503 with the queue-full body, a 429 of no known shape)", async () => {
    const run = await runs.otherRefusals!;
    expect(run.creates.map(({ status }) => status)).toEqual(
      Array.from({ length: FILLERS }, (_, index) => (index % 2 === 0 ? 503 : 429)),
    );
    expect(listed(run.results)).toEqual(NEVER_FILLED);
  });

  it("waits for the answers to the last of its creates before it gives up filling", async () => {
    const run = await runs.slowLast!;
    expect(run.creates.map(({ status }) => status)).toEqual([...Array(FILLERS - CAP).fill(400), 200, 200, 429]);
    expect(listed(run.results)).toEqual([...PROBE_PASSED, `* | ${BELOW} | pass`]);
  });
});

describe("the concurrency check's pace on the clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("adds no job of its own until more than two polls' time have passed, and more than a poll's time since a refusal below the cap", async () => {
    // Date alone is faked, once the other runs, which read it too, are over.
    await Promise.allSettled(Object.values(runs));
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const target = await startTarget(honest());
    const stop = new AbortController();
    const session = sessionOf(configOf(LONG), target.url, stop.signal);
    target.state.session = session;
    try {
      const run = concurrency.run?.({ session, stage: async () => {}, status: () => {} });
      vi.setSystemTime(start + 2 * INTERVAL_MS);
      await nothingFor(150);
      expect(target.creates).toEqual([]);
      refusedBelow(session, I_A, start + 150, 1);
      vi.setSystemTime(start + 250);
      await nothingFor(150);
      expect(target.creates).toEqual([]);
      vi.setSystemTime(start + 251);
      await run;
      expect(target.creates.map(({ status }) => status)).toEqual([200, 200, 429]);
    } finally {
      stop.abort();
      await target.close();
    }
  });
});

describe("the concurrency check and the other checks' jobs on the clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("adds no job of its own while the other checks' jobs fill the cap within two polls' time", async () => {
    // Date alone is faked, once the other runs, which read it too, are over: two polls' time never
    // pass on the check's clock, however long the other checks' creates take.
    await Promise.allSettled(Object.values(runs));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const run = await capRun(honest(), {
      beside: async (session) => {
        await nothingFor(60);
        const request = validRequests(session, I_A, session.main, session.createExamples(I_A))[0]!;
        await Promise.all(Array.from({ length: CAP }, () => chargedCreate(session.main, I_A, request.spec, 12)));
      },
    });
    expect(listed(run.results)).toEqual([...PROBE_PASSED, `* | ${BELOW} | pass`]);
    // The other checks' 2 creates and the one beyond the cap.
    expect(run.creates.map(({ status }) => status)).toEqual([200, 200, 429]);
  });
});

/** The check's run on a clock of the test's: Date faked and moved by the test, every timer real. */
interface ClockRun {
  readonly session: Session;
  readonly target: Target;
  readonly statuses: string[];
  /** The waits (ms) the check asked the session for once it said it fills the cap again. */
  readonly sleeps: number[];
  /** When the check fills the cap: past two polls' time since it began. */
  readonly fillAt: number;
  /** Resolves once the check's run is over. */
  readonly run: Promise<void>;
  over(): boolean;
}

/**
 * The check against `rules` on a clock of the test's, with poll.timeoutSeconds of `seconds` and
 * polls every `interval` ms (so that no job of the check's is polled by the time a test ends, but
 * by the check itself): two refusals below the cap seen before it, the first `ago` ms before it fills
 * the cap (when the test moves Date there), the last more than a poll's time before its creates.
 * `test` runs once the check says it fills the cap again, or its run is over; the target is closed
 * after it, passed or not. The run's time limit is `limit` ms past `fillAt` on that clock.
 */
async function onTheClock(
  rules: TargetRules,
  options: { seconds: number; interval: number; ago: number; limit?: number },
  test: (clock: ClockRun) => Promise<void>,
): Promise<void> {
  const { close, ...clock } = await startClock(rules, options);
  try {
    await test(clock);
  } finally {
    await close();
  }
}

/** The run of onTheClock, and how to end it. */
async function startClock(
  rules: TargetRules,
  { seconds, interval, ago, limit = 120_000 }: { seconds: number; interval: number; ago: number; limit?: number },
): Promise<ClockRun & { close(): Promise<void> }> {
  // Date alone is faked, once the other runs, which read it too, are over.
  await Promise.allSettled(Object.values(runs));
  const start = Date.now();
  vi.useFakeTimers({ toFake: ["Date"], now: start });
  const target = await startTarget(rules);
  const stop = new AbortController();
  const config = configOf(seconds, { poll: { intervalMs: interval, timeoutSeconds: seconds, stablePolls: 0 } });
  const fillAt = start + 3 * interval;
  const session = sessionOf(config, target.url, stop.signal, undefined, undefined, fillAt + limit - start);
  target.state.session = session;
  const statuses: string[] = [];
  const refilling = (): boolean => statuses.some((text) => text.startsWith("a create was refused"));
  const sleeps: number[] = [];
  const sleep = session.sleep.bind(session);
  session.sleep = (ms) => {
    if (refilling()) sleeps.push(ms);
    return sleep(ms);
  };
  refusedBelow(session, I_C, fillAt - ago, 1);
  refusedBelow(session, I_A, start + 2 * interval - 1, 0);
  let over = false;
  const run = (async () => {
    await concurrency.run?.({ session, stage: async () => {}, status: (text) => statuses.push(text) });
    over = true;
  })();
  // A test may end the run (close) before it is over: what it throws then is no failure of the test.
  run.catch(() => undefined);
  vi.setSystemTime(fillAt);
  await when(() => over || refilling());
  return {
    session,
    target,
    statuses,
    sleeps,
    fillAt,
    run,
    over: () => over,
    close: async () => {
      vi.useRealTimers();
      stop.abort();
      await target.close();
    },
  };
}

/** The refusals below the cap of an onTheClock run held against nobody: the cap was not filled again in `seconds` and more. */
const COULD_NOT_FILL = (seconds: number): string =>
  `${I_C_ROUTE} | ${BELOW} | skip | refused as queue full with 0 of the suite's jobs running, and the run could not fill the cap for poll.timeoutSeconds (${seconds} s) after: ${OTHER_JOBS} may have held slots`;

/** A target refusing the check's 6 caps' worth of creates with a 400, then answering each more with `then`. */
const refusingThen = (then: (state: TargetState) => CreateAnswer, poll?: TargetRules["poll"]): TargetRules => ({
  create: (state) => (state.creates < FILLERS ? BAD_REQUEST : then(state)),
  poll,
});
/** The check has judged the refusals below the cap. */
const judged = (clock: ClockRun): boolean => clock.session.results.all.some((result) => result.name === BELOW);

describe("the concurrency check's refilling of the cap on the clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fills it again for poll.timeoutSeconds and half as long again, or two polls' time if longer, then skips", async () => {
    // The windows are far longer than the test (the check's own timers of that length never fire in
    // it): only the faked Date, moved by the test, ends them.
    // 40 s and 20 s more (more than two polls' 200 ms); 20 s and two polls' 24 s more (more than 10 s).
    for (const [seconds, interval, window] of [
      [40, INTERVAL_MS, 60_000],
      [20, 12_000, 44_000],
    ] as const) {
      // The first refusal poll.timeoutSeconds before the check fills the cap: it fills it again then.
      await onTheClock(REFUSING, { seconds, interval, ago: seconds * 1000 }, async (clock) => {
        vi.setSystemTime(clock.fillAt + window - 1);
        await nothingFor(120);
        expect(clock.over()).toBe(false);
        vi.setSystemTime(clock.fillAt + window);
        await clock.run;
        expect(listed(clock.session.results.all).at(-1)).toBe(COULD_NOT_FILL(seconds));
        expect(clock.statuses).toContain(
          `a create was refused as queue full below the cap: filling it for up to ${seconds} s more`,
        );
        // Its 6 caps' worth, then one cap's worth more.
        expect(clock.target.creates).toHaveLength(FILLERS + CAP);
      });
    }
  });

  it("stops once the suite's own jobs are seen filling it, after one poll of each, and holds the refusals against nobody", async () => {
    // Jobs without end, polled by nothing but the check in the test's time: their own first poll is 12 s off.
    await onTheClock(
      refusingThen(() => ({})),
      { seconds: 20, interval: 12_000, ago: 20_000 },
      async (clock) => {
        // Without its clock moving, no window of the check's ends it: it judges once it saw the cap
        // filled, or polls on. (Its run is over once its jobs are, when the test ends them.)
        await when(() => judged(clock) || clock.target.polls > CAP);
        expect(clock.target.polls).toBe(CAP);
        expect(clock.target.creates.map(({ status }) => status)).toEqual([...Array(FILLERS).fill(400), 200, 200]);
        expect(listed(clock.session.results.all).at(-1)).toBe(
          `${I_C_ROUTE} | ${BELOW} | skip | refused as queue full with 0 of the suite's jobs running, but the suite's own jobs filled the declared cap of ${CAP} at another time: ${OTHER_JOBS} held slots`,
        );
      },
    );
  });

  it("looks again while its jobs are not all seen running, and stops once they are", async () => {
    // The first look at each job finds it ended; the second, running.
    let looks = 0;
    await onTheClock(
      refusingThen(
        () => ({}),
        () => (++looks <= CAP ? { status: 200, body: SUCCEEDED } : undefined),
      ),
      { seconds: 20, interval: 12_000, ago: 20_000 },
      async (clock) => {
        await when(() => judged(clock) || clock.target.polls > 2 * CAP);
        expect(clock.target.polls).toBe(2 * CAP);
        expect(listed(clock.session.results.all).at(-1)).toBe(
          `${I_C_ROUTE} | ${BELOW} | skip | refused as queue full with 0 of the suite's jobs running, but the suite's own jobs filled the declared cap of ${CAP} at another time: ${OTHER_JOBS} held slots`,
        );
      },
    );
  });

  it("stops at the run's time limit while its jobs are never all seen running", async () => {
    // Each job ends at its first poll, the check's.
    await onTheClock(
      refusingThen(() => ({ life: 0 })),
      { seconds: 20, interval: 60_000, ago: 20_000, limit: 300 },
      async (clock) => {
        // Only the check's own timer of the limit can end it: the clock stands still, and the jobs'
        // followers poll them a minute after their creates.
        await when(() => judged(clock));
        expect(clock.session.main.jobs.size).toBe(CAP);
        expect(clock.target.polls).toBeGreaterThanOrEqual(CAP);
        expect(listed(clock.session.results.all).at(-1)).toBe(COULD_NOT_FILL(20));
      },
    );
  });

  it("stops at the run's time limit while it waits for its jobs to fill the cap again", async () => {
    await onTheClock(REFUSING, { seconds: 20, interval: 12_000, ago: 20_000, limit: 300 }, async (clock) => {
      await clock.run;
      expect(clock.target.creates).toHaveLength(FILLERS + CAP);
      expect(listed(clock.session.results.all).at(-1)).toBe(COULD_NOT_FILL(20));
    });
  });

  it("stops once the refusals have persisted for poll.timeoutSeconds, adding no job more, and fails them", async () => {
    // The first create of the refilling refused as queue full, 20 s after the first refusal.
    await onTheClock(
      refusingThen((state) => (state.creates === FILLERS ? QUEUE_FULL : BAD_REQUEST)),
      { seconds: 20, interval: 12_000, ago: 20_000 },
      async (clock) => {
        await clock.run;
        expect(clock.target.creates.map(({ status }) => status)).toEqual([...Array(FILLERS).fill(400), 429, 400]);
        expect(listed(clock.session.results.all).at(-1)).toMatch(
          new RegExp(
            `^${I_A_ROUTE} \\| ${BELOW} \\| fail \\| refused as queue full with [01] of the suite's jobs running, 3 times over 20\\.0 s \\(at least poll\\.timeoutSeconds\\)`,
          ),
        );
      },
    );
  });

  it("stops at the run's time limit, though that comes before poll.timeoutSeconds have passed, and refills nothing", async () => {
    // The first refusal 10 s before the check fills the cap: 10 s more to wait; the limit 100 ms past.
    await onTheClock(REFUSING, { seconds: 20, interval: 12_000, ago: 10_000, limit: 100 }, async (clock) => {
      // Only the check's own timer of the limit can end it: the clock stands still.
      await clock.run;
      expect(clock.target.creates).toHaveLength(FILLERS);
      // Its wait for the refilling: one timer, for the 10 s left.
      expect(clock.sleeps).toEqual([10_000]);
      expect(listed(clock.session.results.all).at(-1)).toBe(COULD_NOT_FILL(20));
      expect(clock.statuses).toContain(
        "a create was refused as queue full below the cap: filling it for up to 20 s more",
      );
    });
  });
});

describe("the concurrency check without a verdict on the cap", () => {
  it("skips when its 6 caps' worth of jobs never fill the cap", async () => {
    const run = await runs.neverFilled!;
    expect(listed(run.results)).toEqual(NEVER_FILLED);
    expect(run.creates.map(({ status }) => status)).toEqual(Array.from({ length: FILLERS }, () => 400));
    expect(run.statuses).toEqual(["waiting for the cap to fill"]);
  });

  it("keeps filling until the late stage, when no other check can add jobs", async () => {
    const run = await runs.waitsForLate!;
    expect(beforeLate).toEqual([]);
    expect(listed(run.results)).toEqual(NEVER_FILLED);
  });

  it("without a declared cap, fills the description's Ultra cap of 10, 6 times over, and counts no refusal", async () => {
    const run = await runs.undeclared!;
    expect(run.creates).toHaveLength(60);
    expect(listed(run.results)).toEqual(NEVER_FILLED);
  });

  it("counts no create that got no answer as filling the cap, and fails the run with it", async () => {
    const run = await runs.reset!;
    expect(run.creates).toHaveLength(FILLERS);
    expect(run.error).toBeInstanceOf(NoAnswer);
    expect((run.error as NoAnswer).route).toBe(I_A_ROUTE);
    expect(listed(run.results)).toEqual(NEVER_FILLED);
  });

  it("gives no verdict when jobs end while the create beyond the cap is answered, 3 times", async () => {
    const run = await runs.endingThrice!;
    expect(listed(run.results)).toEqual([
      `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
      `* | a create beyond the cap is refused as queue full | skip | a job ended while the create beyond the cap was answered, 3 times; no verdict`,
      NOT_SEEN_FILLED,
    ]);
    expect(run.statuses.filter((text) => text === `probing the cap of ${CAP}`)).toHaveLength(3);
  });

  it("gives up after 5 such rounds", async () => {
    const run = await runs.fiveRounds!;
    expect(listed(run.results).slice(-2)).toEqual([
      "* | a create beyond the cap is refused as queue full | skip | a job ended while the create beyond the cap was answered, 5 times; no verdict",
      NOT_SEEN_FILLED,
    ]);
    expect(run.statuses.filter((text) => text === "probing the cap of 3")).toHaveLength(5);
  });

  it("says once when it happened once", async () => {
    const run = await runs.endingOnce!;
    expect(listed(run.results)).toEqual([
      `${POLL_ROUTE} | ${POLLS_ANSWER} | pass`,
      `* | a create beyond the cap is refused as queue full | skip | a job ended while the create beyond the cap was answered, once; no verdict`,
      NOT_SEEN_FILLED,
    ]);
  });
});

describe("the concurrency check and creates refused as queue full below the cap", () => {
  it("fails refusals that persist for poll.timeoutSeconds while the suite's jobs never filled the cap", async () => {
    const run = await runs.persisted!;
    const below = run.results.filter((result) => result.name === BELOW);
    expect(listed(below)).toEqual([
      `${I_A_ROUTE} | ${BELOW} | fail | refused as queue full with 1 of the suite's jobs running, 3 times over 1.0 s (at least poll.timeoutSeconds), and the suite's jobs never filled the cap; the declared cap is ${CAP}. Only ${OTHER_JOBS} could explain it: none may run while the suite does`,
    ]);
    expect(below[0]?.curl).toContain(I_A_PATH);
    // Judged at once: the cap is not filled again.
    expect(run.statuses).toEqual(["waiting for the cap to fill"]);
  });

  it("counts only creates of the main key refused as queue full with fewer of its jobs than the cap, none lost track of", async () => {
    // The persisted run also saw a refusal at the cap, one without a count of jobs, one chosen with
    // Prefer, another key's, a poll's, a rate-limited one, a 503, and one while a job was lost track of.
    const run = await runs.persisted!;
    expect(run.results.filter((result) => result.name === BELOW)[0]?.detail).toContain("3 times over 1.0 s");
    expect(listed(run.results.filter((result) => result.name === POLLING))).toEqual([
      `${POLL_ROUTE} | ${POLLING} | fail | a poll was refused with a queue-full 429: ${JSON.stringify(QUEUE_FULL_BODY)}`,
    ]);
  });

  it("counts none without a declared cap", async () => {
    const run = await runs.undeclared!;
    // Counted, its two refusals 60 s apart (poll.timeoutSeconds) would fail.
    expect(listed(run.results.filter((result) => result.name === BELOW))).toEqual([NOT_SEEN_FILLED]);
  });

  it("skips refusals while the jobs an earlier run left may still have run, until then", async () => {
    const run = await runs.earlier!;
    expect(listed(run.results).at(-1)).toBe(
      `${I_C_ROUTE} | ${BELOW} | skip | refused as queue full with 0 of the suite's jobs running while the 3 jobs an earlier run left (${I_A_ROUTE}, ${I_C_ROUTE}) may still have run, until ${new Date(T0 + 500).toISOString()}: run again after then`,
    );
    expect(run.creates).toHaveLength(FILLERS);
  });

  it("counts the refusals that came after the jobs an earlier run left may have run, and fails them once they persist", async () => {
    const run = await runs.afterEarlier!;
    expect(listed(run.results).at(-1)).toBe(
      `${I_A_ROUTE} | ${BELOW} | fail | refused as queue full with 0 of the suite's jobs running, 2 times over 1.0 s (at least poll.timeoutSeconds), and the suite's jobs never filled the cap; the declared cap is ${CAP}. Only ${OTHER_JOBS} could explain it: none may run while the suite does`,
    );
  });

  it("fills the cap again only once poll.timeoutSeconds (1 s) have passed since the first refusal", async () => {
    const run = await runs.refilled!;
    // The refusal the check counts first: every 429 of the run refused a create of the main key as
    // queue full, with fewer of its jobs than the cap.
    const first = run.seen.find(({ op, exchange }) => op === I_A && exchange.status === 429)!.exchange;
    const refilled = run.seen.filter(({ exchange }) => refillingCreates.has(exchange)).map(({ exchange }) => exchange);
    // Refilled exactly when the check said it would: on a loaded machine the refusals may come back
    // too late to be judged, and then nothing is refilled.
    expect(refilled.length > 0).toBe(run.statuses.some((text) => text.startsWith("a create was refused")));
    for (const create of refilled) expect(create.sentAt - first.receivedAt).toBeGreaterThanOrEqual(1000);
  });
});

describe("what the concurrency check needs and costs", () => {
  it("needs a stateful target, the cap declared, and a create route whose jobs the suite can follow, its price not held", () => {
    const blocked = (config: Partial<TargetConfig>) => concurrency.blockedBy?.(sessionOf(configOf(LONG, config)));
    expect(blocked({})).toBeNull();
    expect(blocked({ stateful: false })).toBe("the target is stateless");
    expect(blocked({ concurrency: undefined })).toBe(
      "not declared: the account's cap: the specification's starts at the plan's limit and rises with usage, so no value can be assumed (concurrency)",
    );
    const noCreate =
      "the target implements no create route whose jobs the suite can follow and whose price is not held until the job ends";
    expect(blocked({ areas: ["stock"] })).toBe(noCreate);
    // 3D's and lip-sync's prices are held until the job ends.
    expect(blocked({ areas: ["3d", "lip-sync"] })).toBe(noCreate);
    expect(blocked({ areas: ["3d", "audios"] })).toBeNull();
  });

  it("plans a cap's worth of the cheapest create per probe and one more, a cap's worth for the refilling and 5 probes, of I-A at 12 credits", () => {
    const planned = concurrency.spend?.(sessionOf(configOf(LONG))) ?? [];
    expect(planned).toHaveLength(6 * CAP + CAP + 5);
    for (const spend of planned) {
      expect(spend.key).toBe("main");
      expect(spend.what).toBe(`${I_A_ROUTE} (concurrency)`);
      expect(spend.price.credits).toBe(12);
    }
    expect(concurrency.spend?.(sessionOf(configOf(LONG, { areas: ["stock"] })))).toEqual([]);
  });

  it("names each result by a template of its rules", () => {
    expect(templateOf(concurrency, BEYOND)).toBe("a create beyond the cap{cap} is refused as queue full");
    expect(templateOf(concurrency, "a create beyond the cap is refused as queue full")).toBe(
      "a create beyond the cap{cap} is refused as queue full",
    );
    expect(concurrency.rules?.["a create beyond the cap{cap} is refused as queue full"]).toEqual([
      "limits.concurrency",
      "errors.429-queue-full",
      "errors.429-four-conditions",
    ]);
    expect(concurrency.rules?.[POLLING]).toEqual(["states.polling-not-counted", "limits.concurrency"]);
    expect(concurrency.rules?.[POLLS_ANSWER]).toEqual(["states.polling-not-counted"]);
    expect(concurrency.rules?.[NO_RETRY_AFTER]).toEqual(["errors.queue-full-no-retry-after"]);
    expect(concurrency.rules?.[BELOW]).toEqual(["limits.concurrency"]);
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`concurrency\` | ${concurrency.summary} |`);
  });
});
