/**
 * Property-based fuzzing of the typed client against a hostile upstream (hostile-upstream.ts):
 * fast-check generates a scenario (a client call and the answers the upstream gives), the client
 * (createClient of generated/client.ts, with small intervals, deadline and bounds) drives the call
 * against a real server on 127.0.0.1, and the outcome must keep every property of CLIENT_PROPERTIES.
 * Time is the fake clock's (fake-clock.ts): the harness lets real I/O finish and only then moves
 * the clock to the next timer, so a case's bounds are counted in requests and fake milliseconds.
 * Seeded: a failure reports the seed, the shrunk scenario and the properties it broke.
 */
import fc from "fast-check";
import { createClient, MediaServiceError } from "../generated/client.ts";
import { models } from "../generated/models.ts";
import { FakeClock } from "./fake-clock.ts";
import { scenarios, startUpstream, type HostileUpstream, type Scenario } from "./hostile-upstream.ts";

/** What every outcome keeps, each checked by name (a run may check only some: tests/fuzz/client.test.ts). */
export const CLIENT_PROPERTIES = [
  /** The call resolves or rejects before the fake clock passes its bound (from the options below), and without waiting on nothing. */
  "settles",
  /** It sends at most the requests its options allow (resends, polls within the deadline). */
  "bounded-requests",
  /** Every rejection is a MediaServiceError (a typed error), never a bare TypeError or SyntaxError. */
  "typed-rejection",
  /** The API key is in no error's message, stack, fields (as JSON), headers or body. */
  "key-never-shown",
  /**
   * No 10-character piece of the key is in an error's message: not from V8's JSON parse snippet,
   * nor from an answer's text cut short through an echoed key.
   */
  "no-key-piece-in-message",
  /** A create is never sent again after an answer that may have created a job (anything but a 3xx or 4xx head). */
  "create-once",
  /** No redirect is followed: nothing reaches the other origin, and no request follows a Location at once. */
  "no-redirect-followed",
  /** No promise rejection goes unhandled. */
  "no-unhandled-rejection",
  /** No timer asks for more than setTimeout's longest delay (Node's TimeoutOverflowWarning). */
  "no-timeout-overflow",
] as const;
export type ClientProperty = (typeof CLIENT_PROPERTIES)[number];

/** The key the client sends; a hostile upstream echoes it. */
export const CLIENT_FUZZ_KEY = "fuzzkey_5f3a9c1e7b2d40689e";

/** The client's options in the fuzz: small numbers, so that a case is a few requests and fake seconds. */
const OPTIONS = {
  intervalMs: 100,
  deadlineMs: 1_000,
  maxRetries: 2,
  requestTimeoutMs: 1_000,
  maxPauseMs: 5_000,
  maxResponseBytes: 256 * 1024,
};
/**
 * Bounds the client takes from the options (the request timeout, the longest pause and the answer
 * cap), passed by name; a client without them ignores them, and is held to the bounds all the same.
 */
const BOUNDING_OPTIONS: Record<string, number> = {
  requestTimeoutMs: OPTIONS.requestTimeoutMs,
  maxPauseMs: OPTIONS.maxPauseMs,
  maxResponseBytes: OPTIONS.maxResponseBytes,
};

const attempts = OPTIONS.maxRetries + 1;
/** The longest backoff sum of one call: 1 s, 2 s, 4 s ... each at most 1.5 times (runtime/client/retry-policy.ts). */
const backoffs = Array.from({ length: OPTIONS.maxRetries }, (_, resend) => 1_500 * 2 ** resend).reduce(
  (sum, ms) => sum + ms,
  0,
);
/** One call's longest time: each attempt its request timeout and a pause, plus the backoffs. */
const oneCallMs = attempts * (OPTIONS.requestTimeoutMs + OPTIONS.maxPauseMs) + backoffs;
/** The polls of one wait: one per interval within the deadline, and the one under way when it passes. */
const polls = Math.floor(OPTIONS.deadlineMs / OPTIONS.intervalMs) + 2;

/** Requests and fake milliseconds each call may take, written from the options (twice the time, for slack). */
const BOUNDS: Record<Scenario["call"], { requests: number; ms: number }> = {
  create: { requests: attempts, ms: 2 * oneCallMs },
  getAccountCredits: { requests: attempts, ms: 2 * oneCallMs },
  get: { requests: attempts, ms: 2 * oneCallMs },
  wait: { requests: polls * attempts, ms: 2 * (OPTIONS.deadlineMs + oneCallMs) },
  createAndWait: { requests: attempts + polls * attempts, ms: 2 * (OPTIONS.deadlineMs + 2 * oneCallMs) },
};
/** Timer events a case may take before it counts as not settling (a spinning client fires thousands). */
const MAX_TIMER_EVENTS = 2_000;

export interface ClientFuzzRun {
  readonly server: "client";
  readonly runs: number;
  readonly seed: number;
  readonly milliseconds: number;
  readonly failure?: { readonly scenario: string; readonly problems: string; readonly path: string };
}

interface Outcome {
  settled: boolean;
  /** The harness stopped waiting: the call passed a bound unsettled (it may settle later, when the upstream closes). */
  gaveUp: boolean;
  rejected: boolean;
  value: unknown;
  unhandled: unknown[];
  overflows: number[];
  timerEvents: number;
  fakeMs: number;
  upstream: HostileUpstream;
  problems: string[];
}

const realTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every string an error shows or carries: message, stack, own fields as JSON, headers, body, causes. */
function errorTexts(error: unknown, depth = 0): string[] {
  if (typeof error !== "object" || error === null || depth > 3) return [String(error)];
  const fields = error as Record<string, unknown>;
  const texts = [String(fields.message), String(fields.stack)];
  const json = JSON.stringify(error, (_, value: unknown) => (value instanceof Headers ? [...value] : value));
  if (json) texts.push(json);
  if (fields.headers instanceof Headers) texts.push(JSON.stringify([...fields.headers]));
  if (fields.body !== undefined) texts.push(JSON.stringify(fields.body) ?? "");
  if (fields.cause !== undefined) texts.push(...errorTexts(fields.cause, depth + 1));
  return texts;
}

const KEY_PIECES = Array.from({ length: CLIENT_FUZZ_KEY.length - 9 }, (_, at) => CLIENT_FUZZ_KEY.slice(at, at + 10));

/** The properties `outcome` broke, by name, with what was seen. */
function broken(scenario: Scenario, outcome: Outcome): Map<ClientProperty, string> {
  const found = new Map<ClientProperty, string>();
  const bound = BOUNDS[scenario.call];
  const { seen } = outcome.upstream;
  if (outcome.gaveUp)
    found.set(
      "settles",
      `not settled after ${Math.round(outcome.fakeMs)} fake ms and ${outcome.timerEvents} timer events (bound ${bound.ms} ms)${outcome.problems.length ? `: ${outcome.problems.join("; ")}` : ""}`,
    );
  else if (outcome.fakeMs > bound.ms)
    found.set("settles", `settled after ${Math.round(outcome.fakeMs)} fake ms, beyond its bound of ${bound.ms}`);
  if (seen.length > bound.requests)
    found.set("bounded-requests", `${seen.length} requests, beyond its bound of ${bound.requests}`);
  if (outcome.rejected && !(outcome.value instanceof MediaServiceError))
    found.set("typed-rejection", `rejected with ${String(outcome.value)}`.slice(0, 300));
  if (outcome.rejected) {
    const texts = errorTexts(outcome.value);
    const message = String((outcome.value as Error | undefined)?.message);
    if (texts.some((text) => text.includes(CLIENT_FUZZ_KEY)))
      found.set("key-never-shown", `the error (${(outcome.value as Error)?.name}) carries the API key`);
    if (KEY_PIECES.some((piece) => message.includes(piece)))
      found.set(
        "no-key-piece-in-message",
        `the error's message carries a piece of the API key: ${message.slice(0, 200)}`,
      );
  }
  const creates = seen.filter((request) => request.method === "POST");
  // A 4xx refuses the create; a 3xx sends it elsewhere, which no-redirect-followed judges. Anything else may have created the job.
  const refusal = (status: number | null) => status !== null && status >= 300 && status < 500;
  if (creates.slice(0, -1).some((request) => !refusal(request.status)))
    found.set(
      "create-once",
      `${creates.length} creates sent; answers ${creates.map((request) => request.status ?? "reset").join(", ")}`,
    );
  // A redirect followed arrives at once; a resend after a 3xx whose body failed waits its backoff first.
  // A 421 is not a redirect: the request was not processed, and fetch itself sends it once more on a
  // new connection to the same origin (the Fetch standard; RFC 9110 allows it for any method).
  const followed = seen.findIndex((request, at) => {
    const previous = at > 0 ? seen[at - 1] : undefined;
    return previous?.location && previous.status !== 421 && request.at === previous.answeredAt;
  });
  if (seen.some((request) => request.origin === "other"))
    found.set("no-redirect-followed", "a request reached the other origin");
  else if (followed >= 0)
    found.set("no-redirect-followed", `request ${followed + 1} followed a ${seen[followed - 1]!.status} answer`);
  if (outcome.unhandled.length)
    found.set("no-unhandled-rejection", `unhandled: ${String(outcome.unhandled[0])}`.slice(0, 300));
  if (outcome.overflows.length)
    found.set(
      "no-timeout-overflow",
      `${outcome.overflows.length} timers beyond setTimeout's longest delay (first ${outcome.overflows[0]} ms)`,
    );
  return found;
}

function start(
  scenario: Scenario,
  baseUrl: string,
  fetchCounted: (request: Request) => Promise<Response>,
): Promise<unknown> {
  const client = createClient({
    apiKey: CLIENT_FUZZ_KEY,
    baseUrl,
    fetch: fetchCounted,
    defaultPollIntervalMs: OPTIONS.intervalMs,
    pollIntervalMs: { video: OPTIONS.intervalMs, model3d: OPTIONS.intervalMs },
    deadlineMs: OPTIONS.deadlineMs,
    maxRetries: OPTIONS.maxRetries,
    ...BOUNDING_OPTIONS,
  });
  // The image area's first route: its create response names the job `id`. By label, not slug: a
  // build with MEDIA_SLUG_MAP gives it its real slug.
  const slug = models["I-A"].slug;
  const body = { prompt: "a lighthouse at dusk" } as never;
  switch (scenario.call) {
    case "create":
      return client.image.create(slug, body);
    case "createAndWait":
      return client.image.createAndWait(slug, body);
    case "get":
      return client.image.get("img_1");
    case "wait":
      return client.image.wait("img_1");
    case "getAccountCredits":
      return client.getAccountCredits();
  }
}

/** Plays one scenario: the upstream answers, the client calls, the clock moves only while no real I/O is under way. */
async function play(scenario: Scenario, clock: FakeClock): Promise<Outcome> {
  clock.reset();
  const startedAt = clock.now;
  // The global setTimeout is the fake clock's while the run lasts.
  const upstream = await startUpstream(scenario, { setTimeout: (callback, ms) => setTimeout(callback, ms) });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const onWarning = (warning: Error) => {
    if (warning.name === "TimeoutOverflowWarning") clock.overflows.push(Number.NaN);
  };
  process.on("unhandledRejection", onUnhandled);
  process.on("warning", onWarning);
  let inFlight = 0;
  // Reads the whole answer, so that "nothing in flight" means the client only has timers left; a
  // body cut short then fails when the client reads it, as fetch's own streaming body does.
  const fetchCounted = (request: Request): Promise<Response> => {
    inFlight += 1;
    const failing = (response: Response) => (error: unknown) =>
      new Response(new ReadableStream({ pull: (controller) => controller.error(error) }), response);
    return fetch(request)
      .then((response) => response.arrayBuffer().then((bytes) => new Response(bytes, response), failing(response)))
      .finally(() => {
        inFlight -= 1;
      });
  };
  const outcome: Outcome = {
    settled: false,
    gaveUp: false,
    rejected: false,
    value: undefined,
    unhandled,
    overflows: [],
    timerEvents: 0,
    fakeMs: 0,
    upstream,
    problems: [],
  };
  try {
    const call = start(scenario, upstream.baseUrl, fetchCounted).then(
      (value) => Object.assign(outcome, { settled: true, value }),
      (error: unknown) => Object.assign(outcome, { settled: true, rejected: true, value: error }),
    );
    const bound = BOUNDS[scenario.call];
    // Real I/O that never ends would be a bug of the harness, not the client: said, not waited on forever.
    let idleTicks = 0;
    while (!outcome.settled) {
      for (let tick = 0; tick < 3; tick += 1) await realTick();
      if (outcome.settled) break;
      if (
        clock.now - startedAt > bound.ms ||
        outcome.timerEvents > MAX_TIMER_EVENTS ||
        upstream.seen.length > bound.requests * 4
      ) {
        outcome.gaveUp = true;
        break;
      }
      // Every request in flight is waiting on the upstream's clock (an answer whose client already
      // finished may wait on it too, as a 204 whose body drips does), or real I/O is under way.
      if (inFlight > upstream.parked) {
        if (++idleTicks > 20_000) {
          outcome.problems.push("real I/O under way for 20,000 event-loop turns");
          outcome.gaveUp = true;
          break;
        }
        continue;
      }
      idleTicks = 0;
      if (!clock.next()) {
        outcome.problems.push("waiting on nothing: no request in flight and no timer pending");
        outcome.gaveUp = true;
        break;
      }
      outcome.timerEvents += 1;
    }
    outcome.fakeMs = clock.now - startedAt;
    outcome.overflows = [...clock.overflows];
    await upstream.close();
    // A rejection is reported unhandled a turn after it happened.
    for (let tick = 0; tick < 3; tick += 1) await realTick();
    void call;
    return outcome;
  } finally {
    process.off("unhandledRejection", onUnhandled);
    process.off("warning", onWarning);
  }
}

/** Scenarios as JSON, huge texts shortened. */
const describeScenario = (scenario: Scenario): string =>
  JSON.stringify(scenario, (_, value: unknown) =>
    typeof value === "string" && value.length > 200 ? `${value.slice(0, 100)}...(${value.length} chars)` : value,
  );

/** Plays one scenario on `clock` (installed) and returns the properties among `properties` it broke, as lines. */
export async function checkScenario(
  scenario: Scenario,
  clock: FakeClock,
  properties: readonly ClientProperty[] = CLIENT_PROPERTIES,
): Promise<string[]> {
  const outcome = await play(scenario, clock);
  return [...broken(scenario, outcome)]
    .filter(([name]) => properties.includes(name))
    .map(([name, detail]) => `${name}: ${detail}`);
}

/**
 * Runs `runs` scenarios against fresh upstreams, checking `properties` (default: all); seed
 * defaults to a random one, always reported.
 */
export async function fuzzClient({
  runs,
  seed = Date.now() ^ (Math.random() * 2 ** 31),
  properties = CLIENT_PROPERTIES,
  progress,
}: {
  runs: number;
  seed?: number;
  properties?: readonly ClientProperty[];
  progress?: (line: string) => void;
}): Promise<ClientFuzzRun> {
  progress?.(`fuzz client: ${runs} scenarios, seed ${seed}, properties ${properties.join(", ")}`);
  const clock = new FakeClock();
  const started = performance.now();
  clock.install();
  try {
    const property = fc.asyncProperty(scenarios, async (scenario) => {
      const problems = await checkScenario(scenario, clock, properties);
      if (problems.length) throw new Error(problems.join("; "));
    });
    const details = await fc.check(property, { numRuns: runs, seed, endOnFailure: false });
    const milliseconds = performance.now() - started;
    if (!details.failed || !details.counterexample)
      return { server: "client", runs: details.numRuns, seed, milliseconds };
    const problems =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    return {
      server: "client",
      runs: details.numRuns,
      seed,
      milliseconds,
      failure: {
        scenario: describeScenario(details.counterexample[0]),
        problems,
        path: details.counterexamplePath ?? "",
      },
    };
  } finally {
    clock.uninstall();
  }
}

/** The run as lines to print: a summary, and on failure the seed, the shrunk scenario and the broken properties. */
export function clientReport(run: ClientFuzzRun): string[] {
  const rate = run.runs / (run.milliseconds / 1000);
  const head = `fuzz client: ${run.runs} scenarios in ${(run.milliseconds / 1000).toFixed(1)} s (${rate.toFixed(0)}/s), seed ${run.seed}`;
  if (!run.failure) return [`${head}: no problem found`];
  return [
    `${head}: FAILED`,
    `  broken: ${run.failure.problems}`,
    `  shrunk scenario: ${run.failure.scenario}`,
    `  reproduce: npm run fuzz -- --server client --seed ${run.seed} --runs ${run.runs}`,
  ];
}
