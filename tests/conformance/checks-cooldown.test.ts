/**
 * The cooldown check (conformance/checks/cooldown.ts) run on a session of the test's own against a
 * tiny fake of I-B (the content-filtered family) and I-A (a model outside it). Specification,
 * Limits: "after three consecutive failed generations within an hour on the content-filtered model
 * family, further requests to that family pause for ten minutes, growing by ten minutes with each
 * additional failure; any success clears it; other models are unaffected"; Errors: the cooldown's
 * 429 "body carries `retry_after_seconds`" and it sends `Retry-After`.
 *
 * Time is made up: Date is faked and moves only when the fake says (half a second per create of the
 * family, a second per poll of one of its jobs) or when the client waits out a Retry-After (the
 * session's wait jumps the clock instead of sleeping). The fake pauses the family as the
 * specification says, with the declaration's shortened pause (cooldownPauseSeconds 10, a step of
 * 10 s); each fault changes one thing.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { STAGE } from "../../conformance/check.ts";
import { cooldown } from "../../conformance/checks/cooldown.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { MeasuredCharge } from "../../conformance/coordination.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract } from "../../contract/contract.ts";
import { models } from "../../generated/models.ts";
import type { OpenApiDocument } from "../../model/document.ts";
import { pricedPathOf } from "../client/labels.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, NOWHERE } from "./support/check-session.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const MAIN_KEY = "main-key";
const COOLDOWN_KEY = "cooldown-key";
const MARKER = declared.outcomeMarkers.failed as string;
const FAMILY = `POST ${pricedPathOf("I-B")}`;
const OTHER = `POST ${pricedPathOf("I-A")}`;
const START = new Date("2026-01-05T10:00:00Z").getTime();

const CLEARS = "a success clears the failures before it";
const UNTIL = "creates are accepted until 3 consecutive failures";
const OUTSIDE = "models outside the paused family are not paused";
const PAUSED = "after 3 consecutive failures the family is paused with the cooldown 429";
const AGREES = "the cooldown's Retry-After and seconds left agree with the pause";
const AFTER = "after the pause, one more failed job is accepted";
const AGAIN = "one more failure after the pause pauses the family again";
const GROWS = "each further failure lengthens the pause by one step";
const MARKED = "the declared failed marker makes a job fail";

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

/** A request the fake answers: a create of the family or of the other model (numbered from 1 each), or a poll of the n-th family job (0: the other model's). */
interface Call {
  readonly kind: "family" | "other" | "poll";
  readonly n: number;
  /** The create carries the failed marker. */
  readonly marked: boolean;
  /** Through the declared target (`valid`, where a validation proxy may sit) or straight to it (`raw`). */
  readonly via: "valid" | "raw";
}

/** How the fake behaves: the specification's cooldown, with the declaration's pause, unless a fault says otherwise. */
interface Script {
  /** The only key it answers. */
  readonly key?: string;
  /** Failures in a row that pause the family: 3. */
  readonly consecutive?: number;
  readonly pauseSeconds?: number;
  readonly stepSeconds?: number;
  /** A success clears the failures before it. */
  readonly clears?: boolean;
  /** Failures from before the check, the last one just now. */
  readonly earlier?: number;
  /** Polls a job takes to its end: 2. */
  readonly polls?: number;
  /** Milliseconds the other model's create takes. */
  readonly otherMs?: number;
  /** The count starts again when a pause is over (a fault). */
  readonly resetsAfterPause?: boolean;
  /** The terminal status of the n-th job of the family; by default its marker's. */
  readonly ends?: (n: number, marked: boolean) => string | undefined;
  /** Changes an answer. */
  readonly change?: (reply: Reply, call: Call) => Reply;
}

/** The cooldown's 429 as the fake sends it: `seconds` left, in the body and in Retry-After. */
const cooldown429 = (seconds: number): Reply => ({
  status: 429,
  body: {
    error: {
      type: "rate_limit_error",
      code: "model_family_cooldown",
      message: `Paused for ${seconds} s after repeated failures.`,
    },
    retry_after_seconds: seconds,
  },
  headers: { "retry-after": String(seconds) },
});
const queueFull: Reply = {
  status: 429,
  body: { error: { type: "rate_limit_error", code: "queue_full", message: "Too many jobs in flight." } },
};
const textOf = (reply: Reply): string => JSON.stringify(reply.body);
const withHeaders = (reply: Reply, headers: Record<string, string>): Reply => ({
  ...reply,
  headers: { ...reply.headers, ...headers },
});
const without = (reply: Reply, header: string): Reply => ({
  ...reply,
  headers: Object.fromEntries(Object.entries(reply.headers ?? {}).filter(([name]) => name !== header)),
});
/** The cooldown's body under another status: no cooldown 429. */
const COOLDOWN_BODY_503: Reply = { status: 503, body: cooldown429(5).body };
/** A refusal with a long message, so that what the check quotes of it is cut. */
const LONG_REFUSAL: Reply = {
  status: 503,
  body: { error: { type: "api_error", code: "unavailable", message: "Unavailable. ".repeat(30) } },
};

/** A script whose fake answers the family's creates numbered `numbers` (from 1, in the order they come) with `replacement`. */
const answering = (numbers: number[], replacement: Reply, script: Script = {}): Script => ({
  ...script,
  change: (reply, call) => (call.kind === "family" && numbers.includes(call.n) ? replacement : reply),
});

const RATE_HEADERS = { "x-ratelimit-limit": "600", "x-ratelimit-remaining": "599", "x-ratelimit-reset": "42" };

interface FakeService {
  readonly url: string;
  /** `via kind ok|failed status` of each create, in the order answered. */
  readonly creates: string[];
  /** The family's jobs running when each create of the family came. */
  readonly running: number[];
  close(): Promise<void>;
}

/** The fake of I-B and I-A, on 127.0.0.1: `/valid` is the declared target, `/raw` the target without the proxy. */
async function fakeService(script: Script): Promise<FakeService> {
  const consecutive = script.consecutive ?? 3;
  const pauseMs = (script.pauseSeconds ?? 10) * 1000;
  const stepMs = (script.stepSeconds ?? 10) * 1000;
  const polls = script.polls ?? 2;
  const key = script.key ?? COOLDOWN_KEY;
  let failures = script.earlier ?? 0;
  let pausedUntil = failures >= consecutive ? Date.now() + pauseMs + (failures - consecutive) * stepMs : 0;
  const counts = { family: 0, other: 0 };
  const jobs = new Map<string, { family: boolean; n: number; polled: number; ends: string }>();
  const creates: string[] = [];
  const running: number[] = [];
  let jobsRunning = 0;
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
  const failed = () => {
    failures++;
    if (failures >= consecutive)
      pausedUntil = Math.max(pausedUntil, Date.now() + pauseMs + (failures - consecutive) * stepMs);
  };

  const answer = (method: string, path: string, marked: boolean): Reply => {
    const poll = /^\/v1\/images\/([^/]+)$/.exec(path)?.[1];
    if (method === "GET" && poll && jobs.has(poll)) {
      const job = jobs.get(poll)!;
      if (job.family) advance(1000);
      job.polled++;
      if (job.polled < polls) return { status: 200, body: { status: "processing" } };
      if (job.polled === polls && job.family) {
        jobsRunning--;
        if (job.ends === "failed") failed();
        if (job.ends === "succeeded" && script.clears !== false) failures = 0;
      }
      const images = [{ url: `https://files.example/${poll}.png`, position: 1 }];
      return { status: 200, body: job.ends === "succeeded" ? { status: job.ends, images } : { status: job.ends } };
    }
    const kind = path === pricedPathOf("I-B") ? "family" : path === pricedPathOf("I-A") ? "other" : undefined;
    if (method !== "POST" || !kind)
      return {
        status: 404,
        body: { error: { type: "invalid_request_error", code: "not_found", message: "No such route or job." } },
      };
    const n = ++counts[kind];
    if (kind === "other") advance(script.otherMs ?? 0);
    else {
      running.push(jobsRunning);
      advance(500);
      if (Date.now() < pausedUntil) return cooldown429(Math.ceil((pausedUntil - Date.now()) / 1000));
      if (script.resetsAfterPause && pausedUntil > 0) [failures, pausedUntil] = [0, 0];
    }
    const id = `img_${kind}_${n}`;
    const ends = (kind === "family" ? script.ends?.(n, marked) : undefined) ?? (marked ? "failed" : "succeeded");
    jobs.set(id, { family: kind === "family", n: kind === "family" ? n : 0, polled: 0, ends });
    if (kind === "family") jobsRunning++;
    const label = kind === "family" ? "I-B" : "I-A";
    return { status: 200, body: { id, message: "Job accepted.", model: models[label].slug, status: "pending" } };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const [, via, path] = /^\/(valid|raw)(\/.*)$/.exec(request.url ?? "") ?? [];
    const text = Buffer.concat(chunks).toString("utf8");
    const prompt = text ? (JSON.parse(text) as { prompt?: unknown }).prompt : undefined;
    const marked = typeof prompt === "string" && prompt.includes(MARKER);
    let reply: Reply;
    if (request.headers.authorization !== `Bearer ${key}`)
      reply = { status: 401, body: { error: { type: "authentication_error", code: "invalid_api_key", message: "?" } } };
    else {
      const answered = answer(request.method ?? "", path ?? "", marked);
      // Every response carries the rate-limit headers (a fault may take one away).
      reply = { ...answered, headers: { ...RATE_HEADERS, ...answered.headers } };
      const poll = /^\/v1\/images\/([^/]+)$/.exec(path ?? "")?.[1];
      const job = poll ? jobs.get(poll) : undefined;
      const call: Call =
        request.method === "GET"
          ? { kind: "poll", n: job?.n ?? 0, marked: false, via: via as Call["via"] }
          : path === pricedPathOf("I-B")
            ? { kind: "family", n: counts.family, marked, via: via as Call["via"] }
            : { kind: "other", n: counts.other, marked, via: via as Call["via"] };
      reply = script.change?.(reply, call) ?? reply;
      if (call.kind !== "poll") creates.push(`${via} ${call.kind} ${marked ? "failed" : "ok"} ${reply.status}`);
    }
    response
      .writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
      .end(JSON.stringify(reply.body));
  };

  const server = await serveOnLoopback((request, response) => void handle(request, response));
  return {
    url: server.url,
    creates,
    running,
    close: server.close,
  };
}

/** The declaration the runs use: the cooldown's own key, its shortened pause of 10 s, polls at once. */
const CONFIG: Partial<TargetConfig> = {
  apiKey: MAIN_KEY,
  cooldownApiKey: COOLDOWN_KEY,
  cooldownPauseSeconds: 10,
  stateful: true,
  poll: { intervalMs: 1, timeoutSeconds: 3600, stablePolls: 0 },
};

/** A session of the test's own: `/valid` of `target` is the declared target, `/raw` the target itself. */
const sessionOf = (
  config: Partial<TargetConfig> = {},
  target = NOWHERE,
  of = contract,
  signal = new AbortController().signal,
): Session =>
  checkSession({
    contract: of,
    config: { ...declared, ...CONFIG, ...config },
    target: `${target}/valid`,
    targetUrl: `${target}/raw`,
    proxied: false,
    apiKey: MAIN_KEY,
    signal,
    // The made-up clock passes hours at most.
    deadlineMs: 24 * 3600_000,
  });

interface CooldownRun {
  readonly results: CheckResult[];
  readonly statuses: string[];
  /** Each stage the check waited for, with the creates answered before it. */
  readonly stages: Array<[number, number]>;
  readonly creates: string[];
  readonly running: number[];
}

/** The check run against the fake (`script`), on the made-up clock. */
async function cooldownRun(
  script: Script = {},
  config: Partial<TargetConfig> = {},
  before: (session: Session) => void = () => {},
  of = contract,
): Promise<CooldownRun> {
  vi.useFakeTimers({ toFake: ["Date"], now: START });
  const fake = await fakeService(script);
  const stop = new AbortController();
  try {
    const session = sessionOf(config, fake.url, of, stop.signal);
    // A wait (Retry-After) moves the made-up clock on instead of sleeping.
    session.waitUntil = async (time) => {
      if (time > Date.now()) vi.setSystemTime(time);
    };
    before(session);
    const statuses: string[] = [];
    const stages: Array<[number, number]> = [];
    await cooldown.run?.({
      session,
      stage: async (stage) => {
        stages.push([stage, fake.creates.length]);
      },
      status: (text) => statuses.push(text),
    });
    return { results: session.results.all, statuses, stages, creates: [...fake.creates], running: [...fake.running] };
  } finally {
    stop.abort();
    await fake.close();
    vi.useRealTimers();
  }
}

/** `[route, name, outcome, detail]` of each result, in order. */
const listed = (results: CheckResult[]) =>
  results.map((result) => [result.route, result.name, result.outcome, ...(result.detail ? [result.detail] : [])]);
const resultOf = (run: CooldownRun, name: string): CheckResult | undefined => {
  const matching = run.results.filter((result) => result.name === name);
  expect(matching.length, name).toBeLessThanOrEqual(1);
  return matching[0];
};

/** The results of a run that passes from the start: a success clears, the pause, the other model, the pause grown. */
const HONEST = [
  [FAMILY, CLEARS, "pass"],
  [FAMILY, UNTIL, "pass"],
  [OTHER, OUTSIDE, "pass"],
  [FAMILY, PAUSED, "pass"],
  [FAMILY, AGREES, "pass"],
  [FAMILY, AFTER, "pass"],
  [FAMILY, AGAIN, "pass"],
  [FAMILY, `${GROWS} (10 s)`, "pass"],
];

describe("the cooldown check against a faithful target with a shortened pause", () => {
  it("passes every rule: a success clears, 3 failures pause the family, the 429 agrees, other models go on, one more failure pauses it 10 s longer", async () => {
    const run = await cooldownRun();
    expect(listed(run.results)).toEqual(HONEST);
    expect(run.results.map((result) => result.group)).toEqual(HONEST.map(() => "cooldown"));
    expect(run.statuses).toEqual([
      "a success clearing the failures before it",
      "failed jobs 1 to 2 of 3",
      "failed job 3 of 3",
      "waiting out the pause of 10 s",
    ]);
    // A key of its own: nothing waits for the other checks.
    expect(run.stages).toEqual([]);
  });

  it("sends a success, 2 failures and a success, then 3 failures, the other model and a probe (to the target itself), then one more failure and a probe", async () => {
    const run = await cooldownRun();
    expect(run.creates).toEqual([
      "valid family ok 200",
      "valid family failed 200",
      "valid family failed 200",
      "valid family ok 200",
      "valid family failed 200",
      "valid family failed 200",
      "valid family failed 200",
      "valid other ok 200",
      "raw family failed 429",
      "valid family failed 200",
      "raw family failed 429",
    ]);
    // Failures count whatever their order: all but the last of a run go at once (a slot past the key's one).
    expect(run.running).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 0, 0]);
  });

  it("passes jobs that end at their first poll: the pause began after the create", async () => {
    const run = await cooldownRun({ polls: 1 });
    expect(listed(run.results)).toEqual(HONEST);
  });

  it("with the cooldown key the main key, waits for the late stage before anything (another job of the family would break the run of failures)", async () => {
    const run = await cooldownRun({ key: MAIN_KEY }, { cooldownApiKey: MAIN_KEY });
    expect(run.stages).toEqual([[STAGE.late, 0]]);
    expect(listed(run.results)).toEqual(HONEST);
  });

  it("on the main key, whose cap is declared, takes no slot past it: with a cap of 1 the failures go one at a time", async () => {
    const run = await cooldownRun({ key: MAIN_KEY }, { cooldownApiKey: MAIN_KEY, concurrency: 1 });
    expect(run.running).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(listed(run.results)).toEqual(HONEST);
  });

  it("makes a job fail with the failed status, wherever the description lists the timeout among the failures", async () => {
    // A description whose terminal statuses list timeout before failed.
    const doc = structuredClone(contract.doc) as unknown as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const status = Object.values(doc.components.schemas).find((schema) => Array.isArray(schema["x-terminal-values"]));
    status!["x-terminal-values"] = ["succeeded", "timeout", "failed"];
    const run = await cooldownRun({}, {}, undefined, new Contract(doc as unknown as OpenApiDocument));
    expect(listed(run.results)).toEqual(HONEST);
  });
});

describe("the cooldown check against a target with the description's pause (no cooldownPauseSeconds)", () => {
  it("probes the pause of 600 s in the final stage, as the key's last request, and leaves the growth unchecked", async () => {
    const run = await cooldownRun({ pauseSeconds: 600, stepSeconds: 600 }, { cooldownPauseSeconds: undefined });
    expect(listed(run.results)).toEqual([
      [FAMILY, CLEARS, "pass"],
      [FAMILY, UNTIL, "pass"],
      [OTHER, OUTSIDE, "pass"],
      [FAMILY, PAUSED, "pass"],
      [FAMILY, AGREES, "pass"],
      [
        FAMILY,
        GROWS,
        "skip",
        "the declaration gives no cooldownPauseSeconds (the shortened pause the target uses for testing); the description's pause of 600 s is not waited out",
      ],
    ]);
    // The final stage comes after the other model's create, before the probe.
    expect(run.stages).toEqual([[STAGE.final, 8]]);
    expect(run.creates).toHaveLength(9);
    expect(run.creates[8]).toBe("raw family failed 429");
  });

  it("fails a pause of the shortened length where the description's is expected", async () => {
    const run = await cooldownRun({}, { cooldownPauseSeconds: undefined });
    expect(resultOf(run, AGREES)).toMatchObject({
      outcome: "fail",
      detail: "retry_after_seconds is 10; the pause of 600 s began at most 2.5 s ago",
    });
  });
});

describe("a success clears the failures before it", () => {
  it("fails a target whose success does not clear them: the run of failures after it is paused one failure early", async () => {
    const run = await cooldownRun({ clears: false });
    // The 4th failure in a row pauses it for 10 s and a step; the last create comes half a second later.
    const refusal = textOf(cooldown429(20));
    expect(resultOf(run, CLEARS)).toMatchObject({
      outcome: "fail",
      detail: `the run of failures after a success, which followed 2 failures, was paused early: the failures before the success still counted (refused after 2 failed jobs: 429 ${refusal})`,
    });
    expect(resultOf(run, CLEARS)?.curl).toContain(MARKER);
    expect(resultOf(run, CLEARS)?.curl).toContain(`Bearer ${COOLDOWN_KEY}`);
    // Nothing else is judged.
    expect(run.results).toHaveLength(1);
  });

  it("fails a target that pauses after 2 failures: the success after them is refused with the cooldown 429", async () => {
    const run = await cooldownRun({ consecutive: 2 });
    // Paused for 10 s at the second failure, the success comes half a second later: 10 s, rounded up.
    expect(listed(run.results)).toEqual([
      [FAMILY, UNTIL, "fail", `a success of the family, after 2 failures, was refused: 429 ${textOf(cooldown429(10))}`],
    ]);
    expect(run.results[0]?.curl).toContain(`Bearer ${COOLDOWN_KEY}`);
  });

  it("fails a success after the failures refused otherwise, quoting 200 characters of the answer", async () => {
    const run = await cooldownRun(answering([4], LONG_REFUSAL));
    expect(listed(run.results)).toEqual([
      [
        FAMILY,
        CLEARS,
        "fail",
        `a success of the family, after 2 failures, was refused: 503 ${textOf(LONG_REFUSAL).slice(0, 200)}`,
      ],
    ]);
  });

  it("runs the first success, of exact price (I-B low at 1K: 50 credits), beside the billing check's measurement of the key's account, telling it the charge", async () => {
    let measured: Promise<MeasuredCharge[]> | undefined;
    let created = () => {};
    const firstCreate = new Promise<void>((resolve) => (created = resolve));
    await cooldownRun(
      {
        change: (reply, call) => {
          if (call.kind === "family") created();
          return reply;
        },
      },
      {},
      (session) => {
        measured = session.client(COOLDOWN_KEY).charges.measure(async (window) => {
          // Room for one charge beside the measurement's own job.
          window.open({ cap: 2, own: 1 });
          // Open until the first create is sent; a charge that waits for the measurement instead ends it (real time, a bound on the wait).
          await Promise.race([firstCreate, new Promise((resolve) => setTimeout(resolve, 1000))]);
          return window.settled();
        });
      },
    );
    const charges = (await measured) ?? [];
    expect(charges.map((charge) => [charge.what, charge.credits, charge.charged()])).toEqual([
      [`${FAMILY} (img_family_1)`, 50, true],
    ]);
  });

  it("fails a success after the failures refused by another 429, or by the cooldown's body under another status", async () => {
    for (const refusal of [queueFull, COOLDOWN_BODY_503]) {
      const run = await cooldownRun(answering([4], refusal));
      expect(listed(run.results)).toEqual([
        [
          FAMILY,
          CLEARS,
          "fail",
          `a success of the family, after 2 failures, was refused: ${refusal.status} ${textOf(refusal)}`,
        ],
      ]);
    }
  });

  it("skips the rule where the last failure after the success is refused but not paused, failing the refusal", async () => {
    for (const refusal of [queueFull, COOLDOWN_BODY_503]) {
      const run = await cooldownRun(answering([7], refusal));
      const detail = `refused after 2 failed jobs: ${refusal.status} ${textOf(refusal)}`;
      expect(listed(run.results)).toEqual([
        [FAMILY, CLEARS, "skip", `the run of failures after the success broke off: ${detail}`],
        [FAMILY, UNTIL, "fail", detail],
      ]);
    }
  });

  it("stops at a failure refused beside one accepted, before the success or after it", async () => {
    // The second of each run's failures sent at once (creates 3 and 6) is refused, before the other's job ends.
    const refused = `refused after 0 failed jobs: 503 ${textOf(LONG_REFUSAL).slice(0, 200)}`;
    expect(listed((await cooldownRun(answering([3], LONG_REFUSAL))).results)).toEqual([
      [FAMILY, UNTIL, "fail", refused],
    ]);
    expect(listed((await cooldownRun(answering([6], LONG_REFUSAL))).results)).toEqual([
      [FAMILY, CLEARS, "skip", `the run of failures after the success broke off: ${refused}`],
      [FAMILY, UNTIL, "fail", refused],
    ]);
  });

  it("fails a target that pauses at the first failures: refused at once", async () => {
    const run = await cooldownRun(answering([2, 3], cooldown429(0)));
    expect(listed(run.results)).toEqual([
      [FAMILY, UNTIL, "fail", `refused after 0 failed jobs: 429 ${textOf(cooldown429(0))}`],
    ]);
  });

  it("fails failures refused otherwise (by the same rule: creates are accepted), quoting 200 characters", async () => {
    const run = await cooldownRun(answering([2, 3], LONG_REFUSAL));
    expect(listed(run.results)).toEqual([
      [FAMILY, UNTIL, "fail", `refused after 0 failed jobs: 503 ${textOf(LONG_REFUSAL).slice(0, 200)}`],
    ]);
  });

  it("fails an accepted failure whose create names no job to follow", async () => {
    const noId = { status: 200, body: { message: "Job accepted.", model: models["I-B"].slug, status: "pending" } };
    const run = await cooldownRun(answering([2, 3], noId));
    expect(listed(run.results)).toEqual([[FAMILY, UNTIL, "fail", "the create response carries no id"]]);
  });

  it("fails a marked job that succeeds: the declared failed marker makes a job fail", async () => {
    const run = await cooldownRun({ ends: (n) => (n === 2 || n === 3 ? "succeeded" : undefined) });
    expect(listed(run.results)).toEqual([[FAMILY, MARKED, "fail", "the job ended succeeded"]]);
    // The curl line repeats the marked create that went wrong, not the success before it.
    expect(run.results[0]?.curl).toContain(`Bearer ${COOLDOWN_KEY}`);
    expect(run.results[0]?.curl).toContain(MARKER);
  });

  it("skips the rule where the first success is refused (paused before the check), then copes: waits out the pause, clears it and passes the rest", async () => {
    const run = await cooldownRun({ earlier: 3 });
    expect(listed(run.results)).toEqual([
      [
        FAMILY,
        CLEARS,
        "skip",
        `the family was paused or refused before this check's failures: 429 ${textOf(cooldown429(10)).slice(0, 120)}`,
      ],
      ...HONEST.slice(1),
    ]);
    // Paused again by the first two of its own failures (the 4th and 5th: 10 s + 2 steps), waited out.
    expect(run.statuses).toEqual([
      "a success clearing the failures before it",
      "failed jobs 1 to 2 of 3",
      "failed job 3 of 3",
      "clearing earlier failures: a successful job of the family after the pause of 30 s",
      "failed jobs 1 to 2 of 3",
      "failed job 3 of 3",
      "waiting out the pause of 10 s",
    ]);
    expect(run.creates.slice(0, 5)).toEqual([
      "valid family ok 429",
      "valid family failed 200",
      "valid family failed 200",
      "valid family failed 429",
      "valid family ok 200",
    ]);
  });

  it("skips the rule where the first success does not succeed, naming its end", async () => {
    const run = await cooldownRun({ ends: (n) => (n === 1 ? "failed" : undefined) });
    expect(listed(run.results)[0]).toEqual([
      FAMILY,
      CLEARS,
      "skip",
      "a job of the family sent to succeed ended failed",
    ]);
    // Its failure and the next two pause the family: cleared with a success, the rest passes.
    expect(listed(run.results).slice(1)).toEqual(HONEST.slice(1));
  });

  it("names why the first success's job was given up (a poll refused)", async () => {
    const run = await cooldownRun({
      change: (reply, call) => (call.kind === "poll" && call.n === 1 ? LONG_REFUSAL : reply),
    });
    expect(listed(run.results)[0]).toEqual([
      FAMILY,
      CLEARS,
      "skip",
      "a job of the family sent to succeed ended a poll answered 503",
    ]);
  });

  it("skips the rule where the run of failures after the success breaks off, failing what broke it", async () => {
    const run = await cooldownRun({ ends: (n) => (n === 7 ? "succeeded" : undefined) });
    expect(listed(run.results)).toEqual([
      [FAMILY, CLEARS, "skip", "the run of failures after the success broke off: the job ended succeeded"],
      [FAMILY, MARKED, "fail", "the job ended succeeded"],
    ]);
  });
});

describe("failures from before the check", () => {
  /** Failures from before the check, and the last of the check's first run of failures (create 4) refused with `refusal`. */
  const refusedEarly = (refusal: Reply) => answering([4], refusal, { earlier: 3 });

  it("waits out a pause of 60 s before clearing them", async () => {
    const run = await cooldownRun(refusedEarly(cooldown429(60)));
    expect(run.statuses[3]).toBe("clearing earlier failures: a successful job of the family after the pause of 60 s");
    expect(listed(run.results).slice(1)).toEqual(HONEST.slice(1));
  });

  it("skips the rule where the pause is longer than 60 s", async () => {
    const run = await cooldownRun(refusedEarly(cooldown429(61)));
    expect(listed(run.results).slice(1)).toEqual([
      [
        FAMILY,
        UNTIL,
        "skip",
        `refused after 2 failed jobs: 429 ${textOf(cooldown429(61))}`.slice(0, 120) +
          ": failures from before this check (an earlier run's, within the hour) may have counted with its own, and the pause (61 s) is too long to wait out and clear with a success; run again once it is over, or with another cooldownApiKey",
      ],
    ]);
  });

  it("skips the rule where the 429 gives no Retry-After to wait out", async () => {
    const run = await cooldownRun(refusedEarly(without(cooldown429(20), "retry-after")));
    expect(resultOf(run, UNTIL)?.outcome).toBe("skip");
    expect(resultOf(run, UNTIL)?.detail).toContain(
      "and the pause (its 429 gives no Retry-After) is too long to wait out",
    );
  });

  it("skips the rule where the success that would clear them is refused or does not succeed", async () => {
    const refused = await cooldownRun(answering([5], LONG_REFUSAL, { earlier: 3 }));
    const early = `refused after 2 failed jobs: 429 ${textOf(cooldown429(30))}`.slice(0, 120);
    expect(listed(refused.results).slice(1)).toEqual([
      [
        FAMILY,
        UNTIL,
        "skip",
        `the family was paused early (${early}), and the success that would clear earlier failures did not succeed: 503 ${textOf(LONG_REFUSAL).slice(0, 120)}`,
      ],
    ]);
    const failed = await cooldownRun({ earlier: 3, ends: (n) => (n === 5 ? "failed" : undefined) });
    expect(listed(failed.results).slice(1)).toEqual([
      [
        FAMILY,
        UNTIL,
        "skip",
        `the family was paused early (${early}), and the success that would clear earlier failures did not succeed: failed`,
      ],
    ]);
  });

  it("fails a target paused early again after the success: a success clears the failures", async () => {
    const run = await cooldownRun({ earlier: 3, clears: false });
    // The 7th failure in a row pauses it for 10 s and 4 steps; the last create comes half a second later.
    expect(listed(run.results).slice(1)).toEqual([
      [FAMILY, UNTIL, "fail", `refused after 2 failed jobs: 429 ${textOf(cooldown429(50))}`],
    ]);
    expect(run.results[1]?.curl).toContain(MARKER);
  });

  it("passes the run of failures that is not paused early after a refused first success", async () => {
    // The first success refused otherwise than by a pause: nothing to clear.
    const run = await cooldownRun(answering([1], LONG_REFUSAL));
    expect(listed(run.results)).toEqual([
      [
        FAMILY,
        CLEARS,
        "skip",
        `the family was paused or refused before this check's failures: 503 ${textOf(LONG_REFUSAL).slice(0, 120)}`,
      ],
      ...HONEST.slice(1),
    ]);
    expect(run.statuses.filter((status) => status.startsWith("clearing"))).toEqual([]);
  });

  it("fails the run of failures broken by another answer after a refused first success", async () => {
    const run = await cooldownRun(answering([1], LONG_REFUSAL, { ends: (n) => (n === 4 ? "succeeded" : undefined) }));
    expect(listed(run.results).slice(1)).toEqual([[FAMILY, MARKED, "fail", "the job ended succeeded"]]);
  });
});

describe("the family's pause and its 429", () => {
  /** Changes the n-th probe's answer (the creates sent straight to the target). */
  const probe = (n: number, change: (reply: Reply) => Reply) => {
    let probes = 0;
    return (reply: Reply, call: Call) => (call.via === "raw" && ++probes === n ? change(reply) : reply);
  };

  it("fails a target that does not pause after 3 failures, and leaves the growth unchecked", async () => {
    const run = await cooldownRun({ consecutive: 4 });
    const probeAnswer = { id: "img_family_8", message: "Job accepted.", model: models["I-B"].slug, status: "pending" };
    expect(listed(run.results).slice(3)).toEqual([
      [FAMILY, PAUSED, "fail", `answered 200: ${JSON.stringify(probeAnswer)}`],
      [FAMILY, GROWS, "skip", "the first pause was not seen as cooldownPauseSeconds declares it"],
    ]);
    expect(resultOf(run, PAUSED)?.curl).toContain("/raw/v1/images/");
  });

  it("fails a probe refused otherwise than by the cooldown's 429, quoting 200 characters", async () => {
    for (const refusal of [queueFull, COOLDOWN_BODY_503, LONG_REFUSAL]) {
      // A queue-full probe is sent again once a slot is free: refused alike.
      const run = await cooldownRun({ change: (reply, call) => (call.via === "raw" ? refusal : reply) });
      expect(listed(run.results).slice(3)).toEqual([
        [FAMILY, PAUSED, "fail", `answered ${refusal.status}: ${textOf(refusal).slice(0, 200)}`],
        [FAMILY, GROWS, "skip", "the first pause was not seen as cooldownPauseSeconds declares it"],
      ]);
    }
  });

  it("does not judge an answer that came when the pause may have ended (10 s after the failure), but judges one 9.9 s after", async () => {
    const late = await cooldownRun({ consecutive: 4, otherMs: 7500 });
    expect(listed(late.results).slice(3)).toEqual([
      [
        FAMILY,
        PAUSED,
        "skip",
        "answered 200 10.0 s after the failure, when a pause of 10 s may have ended (this polling needs a longer cooldownPauseSeconds)",
      ],
      [FAMILY, GROWS, "skip", "the first pause was not seen as cooldownPauseSeconds declares it"],
    ]);
    const inTime = await cooldownRun({ consecutive: 4, otherMs: 7400 });
    expect(resultOf(inTime, PAUSED)?.outcome).toBe("fail");
  });

  it("judges a cooldown 429 that comes late: 2 s left of the pause, 10 s after the failure", async () => {
    const run = await cooldownRun({ otherMs: 7500 });
    expect(listed(run.results).slice(3, 5)).toEqual([
      [FAMILY, PAUSED, "pass"],
      [FAMILY, AGREES, "pass"],
    ]);
  });

  it("fails a cooldown 429 that breaks its documented response (the X-RateLimit-* headers are required), and still judges its seconds", async () => {
    const run = await cooldownRun({ change: probe(1, (reply) => without(reply, "x-ratelimit-limit")) });
    expect(listed(run.results).slice(3, 6)).toEqual([
      [FAMILY, PAUSED, "fail", "required header X-RateLimit-Limit is missing"],
      [FAMILY, AGREES, "pass"],
      [FAMILY, AFTER, "pass"],
    ]);
  });

  it("fails a cooldown 429 without Retry-After", async () => {
    const run = await cooldownRun({ change: probe(1, (reply) => without(reply, "retry-after")) });
    expect(listed(run.results).slice(4)).toEqual([
      [FAMILY, AGREES, "fail", "no Retry-After"],
      [FAMILY, GROWS, "skip", "the first pause was not seen as cooldownPauseSeconds declares it"],
    ]);
  });

  it("fails seconds left beyond the pause, or fewer than it can have left (the pause began after the last running poll, a second of slack)", async () => {
    // The last failure's job: created at 0, running at the poll sent at 0.5 s, failed at the next; the probe answered at 3 s.
    const seconds = (left: number, header = String(Math.ceil(left))) =>
      probe(1, (reply) => ({
        ...withHeaders(reply, { "retry-after": header }),
        body: { ...(reply.body as object), retry_after_seconds: left },
      }));
    const beyond = await cooldownRun({ change: seconds(11) });
    expect(resultOf(beyond, AGREES)).toMatchObject({
      outcome: "fail",
      detail: "retry_after_seconds is 11; the pause of 10 s began at most 2.5 s ago",
    });
    expect(resultOf(beyond, AGREES)?.curl).toContain(MARKER);
    expect(resultOf(await cooldownRun({ change: seconds(10) }), AGREES)?.outcome).toBe("pass");
    // 10 s less 2.5 s less a second: 6.5 s at least.
    expect(resultOf(await cooldownRun({ change: seconds(6.5, "7") }), AGREES)?.outcome).toBe("pass");
    expect(resultOf(await cooldownRun({ change: seconds(6.4, "7") }), AGREES)).toMatchObject({
      outcome: "fail",
      detail: "retry_after_seconds is 6.4; the pause of 10 s began at most 2.5 s ago",
    });
  });

  it("takes the seconds left inside the error object, where the description allows them too", async () => {
    const run = await cooldownRun({
      change: probe(1, (reply) => {
        const { retry_after_seconds, error } = reply.body as { retry_after_seconds: number; error: object };
        return { ...reply, body: { error: { ...error, retry_after_seconds } } };
      }),
    });
    expect(listed(run.results)).toEqual(HONEST);
  });

  it("fails a Retry-After more than a second from the seconds left", async () => {
    const header = (value: string) => probe(1, (reply) => withHeaders(reply, { "retry-after": value }));
    expect(resultOf(await cooldownRun({ change: header("8") }), AGREES)).toMatchObject({
      outcome: "fail",
      detail: "Retry-After is 8 beside retry_after_seconds: 10",
    });
    expect(resultOf(await cooldownRun({ change: header("12") }), AGREES)).toMatchObject({
      outcome: "fail",
      detail: "Retry-After is 12 beside retry_after_seconds: 10",
    });
    expect(resultOf(await cooldownRun({ change: header("9") }), AGREES)?.outcome).toBe("pass");
    expect(resultOf(await cooldownRun({ change: header("11") }), AGREES)?.outcome).toBe("pass");
  });
});

describe("models outside the paused family", () => {
  it("fails another model refused with the cooldown 429 while the family is paused", async () => {
    const run = await cooldownRun({ change: (reply, call) => (call.kind === "other" ? cooldown429(0) : reply) });
    expect(resultOf(run, OUTSIDE)).toMatchObject({
      route: OTHER,
      outcome: "fail",
      detail: `answered 429, the cooldown 429: ${textOf(cooldown429(0))}`,
    });
    expect(resultOf(run, OUTSIDE)?.curl).toContain(pricedPathOf("I-A"));
  });

  it("names only the cooldown's 429 as such", async () => {
    for (const refusal of [queueFull, COOLDOWN_BODY_503]) {
      const run = await cooldownRun({ change: (reply, call) => (call.kind === "other" ? refusal : reply) });
      expect(resultOf(run, OUTSIDE)?.detail).toBe(`answered ${refusal.status}: ${textOf(refusal)}`);
    }
  });

  it("fails another model refused otherwise, quoting 200 characters", async () => {
    const run = await cooldownRun({ change: (reply, call) => (call.kind === "other" ? LONG_REFUSAL : reply) });
    expect(resultOf(run, OUTSIDE)).toMatchObject({
      outcome: "fail",
      detail: `answered 503: ${textOf(LONG_REFUSAL).slice(0, 200)}`,
    });
  });

  it("skips the rule where the target implements no model outside the family", async () => {
    const run = await cooldownRun({}, { models: ["I-B"] });
    expect(listed(run.results).slice(2, 3)).toEqual([
      ["*", OUTSIDE, "skip", "the target implements no create route outside the family"],
    ]);
    expect(run.creates.filter((create) => create.includes("other"))).toEqual([]);
  });
});

describe("after the pause", () => {
  it("fails a target that starts the count again when a pause is over: one more failure does not pause the family", async () => {
    const run = await cooldownRun({ resetsAfterPause: true });
    const probeAnswer = { id: "img_family_10", message: "Job accepted.", model: models["I-B"].slug, status: "pending" };
    expect(listed(run.results).slice(5)).toEqual([
      [FAMILY, AFTER, "pass"],
      [FAMILY, AGAIN, "fail", `answered 200: ${JSON.stringify(probeAnswer)}`],
    ]);
  });

  it("fails a pause that does not grow: the second is as long as the first", async () => {
    const run = await cooldownRun({ stepSeconds: 0 });
    expect(listed(run.results).slice(5)).toEqual([
      [FAMILY, AFTER, "pass"],
      [FAMILY, AGAIN, "pass"],
      [FAMILY, `${GROWS} (10 s)`, "fail", "retry_after_seconds is 10; the pause of 20 s began at most 2.5 s ago"],
    ]);
  });

  it("fails one more failure refused once the pause is over", async () => {
    const run = await cooldownRun(answering([9], cooldown429(0)));
    expect(listed(run.results).slice(5)).toEqual([
      [FAMILY, AFTER, "fail", `refused after 3 failed jobs: 429 ${textOf(cooldown429(0))}`],
    ]);
  });

  it("fails one more marked job that does not fail", async () => {
    const run = await cooldownRun({ ends: (n) => (n === 9 ? "succeeded" : undefined) });
    expect(listed(run.results).slice(5)).toEqual([[FAMILY, MARKED, "fail", "the job ended succeeded"]]);
  });

  it("sends one more failure again when its create is answered queue full (beside the other model's job)", async () => {
    const run = await cooldownRun(answering([9], queueFull));
    expect(listed(run.results)).toEqual(HONEST);
    expect(run.creates.slice(9)).toEqual([
      "valid family failed 429",
      "valid family failed 200",
      "raw family failed 429",
    ]);
  });
});

describe("what the cooldown check needs and spends", () => {
  it("needs a stateful target, cooldownApiKey, outcomeMarkers.failed and a create route of the family", () => {
    expect(cooldown.blockedBy?.(sessionOf({ stateful: false }))).toBe("the target is stateless");
    expect(cooldown.blockedBy?.(sessionOf({ cooldownApiKey: undefined }))).toBe(
      "not declared: a key whose account the suite may pause (cooldownApiKey)",
    );
    expect(cooldown.blockedBy?.(sessionOf({ outcomeMarkers: {} }))).toBe(
      "not declared: a way to make a job fail (outcomeMarkers.failed)",
    );
    expect(cooldown.blockedBy?.(sessionOf({ models: ["I-A"] }))).toBe(
      "the target implements no create route of the content-filtered family",
    );
    expect(cooldown.blockedBy?.(sessionOf())).toBeNull();
  });

  it("takes a route of the family whose price is held, and none without a prompt (where the failed marker goes)", () => {
    // A description whose family is I-K (no prompt) and LS-A (its price held), not I-B.
    const doc = structuredClone(contract.doc) as OpenApiDocument & {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    delete doc.paths[pricedPathOf("I-B")]!.post!["x-model-family"];
    doc.paths[pricedPathOf("I-K")]!.post!["x-model-family"] = "content-filtered";
    doc.paths[pricedPathOf("LS-A")]!.post!["x-model-family"] = "content-filtered";
    const moved = new Contract(doc);
    expect(cooldown.blockedBy?.(sessionOf({}, undefined, moved))).toBeNull();
    expect(cooldown.blockedBy?.(sessionOf({ models: ["I-A", "I-B", "I-K"] }, undefined, moved))).toBe(
      "the target implements no create route of the content-filtered family",
    );
  });

  it("estimates, on the cooldown key, the other model once (I-A: 12 credits) and the family three times (I-B low at 1K: 50 credits)", () => {
    const spends = cooldown.spend?.(sessionOf()) ?? [];
    expect(spends.map((spend) => [spend.key, spend.what, spend.price.credits])).toEqual([
      ["cooldown", `${OTHER} (cooldown: another model)`, 12],
      ["cooldown", `${FAMILY} (cooldown: a success clearing earlier failures, if needed)`, 50],
      ["cooldown", `${FAMILY} (cooldown: a success clears the failures before it)`, 50],
      ["cooldown", `${FAMILY} (cooldown: a success clears the failures before it)`, 50],
    ]);
    expect((cooldown.spend?.(sessionOf({ models: ["I-B"] })) ?? []).map((spend) => spend.what)).toEqual([
      `${FAMILY} (cooldown: a success clearing earlier failures, if needed)`,
      `${FAMILY} (cooldown: a success clears the failures before it)`,
      `${FAMILY} (cooldown: a success clears the failures before it)`,
    ]);
  });

  it("reports in the cooldown group", () => {
    expect(cooldown.group).toBe("cooldown");
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`cooldown\` | ${cooldown.summary} |`);
  });
});
