/**
 * The lifecycle check (conformance/checks/lifecycle.ts) run alone against a tiny target of the
 * test's own, which answers each create with a job id and each poll as the test scripts it.
 * Specification, What the service does: "A create call returns a job `id` and no media. The caller
 * polls a status route until `status` is terminal"; Job status values: "`pending`, `starting`,
 * `processing`, `completing`, `succeeded`, `failed`, `timeout`. The terminal values are
 * `succeeded`, `failed` and `timeout`"; States: succeeded: "Result URLs are present in the poll
 * response"; Poll results: "The `status` field is present in every poll response", with each
 * route's result fields (`images` for images, `model_url` and `files` for 3D, none shown for lip
 * sync, whose succeeded poll must still hold a URL, in a field of any name). An honest target passes; each broken answer fails the result of the rule it breaks.
 * Prices, from the specification's tables: I-A's text-to-image 12 credits, its edit with two
 * 2K references 38; D-B untextured 1080; LS-A's portrait-speech at most 10080 (84 credits a second,
 * its audio's length not known).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STAGE } from "../../conformance/check.ts";
import { lifecycle } from "../../conformance/checks/lifecycle.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { MeasuredCharge } from "../../conformance/coordination.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { type CheckSessionOptions, checkSession, NOWHERE } from "./support/check-session.ts";
import { pricedPathOf } from "../client/labels.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const I_A_PATH = pricedPathOf("I-A");
const D_B_PATH = pricedPathOf("D-B");
const LS_A_PATH = pricedPathOf("LS-A");
const declared = sandboxDeclaration(contract);
const createOf = (label: string) => contract.operations.find((op) => op.create?.label === label) as ContractOperation;
const I_A = createOf("I-A");
const D_B = createOf("D-B");
const LS_A = createOf("LS-A");
const VU_A = createOf("VU-A");
/** How the check names a followed job's results: its create route, then its poll route. */
const JOB = `${I_A.route} -> GET /v1/images/{id}`;
const JOB_3D = `${D_B.route} -> GET /v1/3d/{id}`;
const JOB_LS = `${LS_A.route} -> GET /v1/lip-sync/{id}`;

const ACCEPTED = 'valid request "text-to-image" accepted';
const FOLLOWED = "job followed through its id";
const POLLABLE = "job pollable through its id";
const MATCHES = "every poll response matches the description";
const VALUES = "only the JobStatus values appear";
const TERMINAL = "terminal state reached";
const STABLE = "no return from a terminal state, terminal state stable";
const RESULTS = "result fields exactly once succeeded";

const IMAGES = [{ url: "https://files.example.com/img/0.png", position: 0 }];

/** What the target answers: a status and a JSON body (or a text), or a reset connection. */
type Served = { status: number; body: unknown; without?: string } | "reset";
/** A poll's answer by the job's id and how many times it has been polled (1 for the first). */
type PollScript = (id: string, count: number) => Served;

/** A job that runs, then succeeds with its result fields, then stays succeeded. */
const honest: PollScript = (id, count) =>
  count === 1 ? { status: 200, body: { status: "processing" } } : { status: 200, body: succeeded(id) };

/** The succeeded poll body of the job `id`, its area told by the id's prefix. */
function succeeded(id: string): Record<string, unknown> {
  if (id.startsWith("img_")) return { status: "succeeded", images: IMAGES };
  if (id.startsWith("3d_"))
    return {
      status: "succeeded",
      model_url: "https://files.example.com/m.glb",
      files: ["https://files.example.com/m.glb"],
    };
  // Lip sync: the name of the result's field is not shown; the target picks one of its own.
  return { status: "succeeded", output: { video: "https://files.example.com/v.mp4" } };
}

/** The create response of each area: the id prefixes of the specification, 3D and lip sync with their credits. */
function createdBody(area: string, n: number): Record<string, unknown> {
  const common = { message: "Job accepted.", model: "model-identifier", status: "pending" };
  if (area === "images") return { id: `img_${n}`, ...common };
  if (area === "3d") return { id: `3d_${n}`, credits: 1080, ...common };
  if (area === "lip-sync") return { id: `mtn_${n}`, credits: 336, seconds: 4, ...common };
  // The upscale create response's shape is not shown.
  return {};
}

interface Target {
  readonly url: string;
  /** `METHOD path` of each request, in the order they came, and the events the test adds. */
  readonly log: string[];
  close(): Promise<void>;
}

/** Answers a create of `area`, the `n`th of that area. */
type CreateScript = (area: string, n: number) => Served;

const accepting: CreateScript = (area, n) => ({ status: 200, body: createdBody(area, n) });

/**
 * A target on 127.0.0.1 answering creates with `create` and polls with `poll`, each answer with
 * the rate-limit headers (but the one it goes `without`); `heard` is told each request.
 */
async function startTarget(
  poll: PollScript = honest,
  create: CreateScript = accepting,
  heard: (line: string) => void = () => {},
): Promise<Target> {
  const log: string[] = [];
  const polls = new Map<string, number>();
  const creates = new Map<string, number>();
  const server = await serveOnLoopback((request, response) => {
    request.resume();
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    log.push(`${request.method} ${path}`);
    heard(`${request.method} ${path}`);
    const [, area = "", last = ""] = /^\/v1\/([^/]+)\/(.+)$/.exec(path) ?? [];
    let served: Served;
    if (request.method === "POST") {
      creates.set(area, (creates.get(area) ?? 0) + 1);
      served = create(area, creates.get(area) ?? 0);
    } else {
      const count = (polls.get(last) ?? 0) + 1;
      polls.set(last, count);
      served = poll(last, count);
    }
    if (served === "reset") {
      request.socket.destroy();
      return;
    }
    const text = typeof served.body === "string" ? served.body : JSON.stringify(served.body);
    const headers: Record<string, string> = {
      "content-type": typeof served.body === "string" ? "text/plain" : "application/json",
      "x-ratelimit-limit": "600",
      "x-ratelimit-remaining": "599",
      "x-ratelimit-reset": "42",
    };
    if (served.without) delete headers[served.without];
    response.writeHead(served.status, headers).end(text);
  });
  return {
    url: server.url,
    log,
    close: server.close,
  };
}

/** Polled every millisecond, given 30 s, one stable poll after the terminal status. */
const POLL = { intervalMs: 1, timeoutSeconds: 30, stablePolls: 1 };

/**
 * A session sending to `target` the requests the description holds valid (where a validation proxy
 * would be), any other to a port where nothing answers: the check sends only valid ones.
 */
function sessionOf(target: string, config: Partial<TargetConfig>, options: Partial<CheckSessionOptions> = {}): Session {
  return checkSession({
    contract,
    config: { ...declared, stateful: true, createExamples: "one", poll: POLL, ...config },
    target,
    targetUrl: NOWHERE,
    proxied: false,
    apiKey: declared.apiKey as string,
    ...options,
  });
}

interface LifecycleRun {
  readonly results: CheckResult[];
  readonly statuses: string[];
  readonly log: string[];
}

/** The check run alone against `target` with `config`; the stages it waits for go to the log. */
async function runOn(target: Target, session: Session): Promise<LifecycleRun> {
  const statuses: string[] = [];
  await lifecycle.run?.({
    session,
    stage: async (stage) => void target.log.push(`stage ${stage}`),
    status: (text) => statuses.push(text),
  });
  return { results: session.results.all, statuses, log: target.log };
}

/** The check run alone against a target answering polls with `poll`. */
async function lifecycleRun(
  config: Partial<TargetConfig>,
  poll: PollScript = honest,
  create?: CreateScript,
): Promise<LifecycleRun> {
  const target = await startTarget(poll, create);
  try {
    return await runOn(target, sessionOf(target.url, config));
  } finally {
    await target.close();
  }
}

/** `route name -> [outcome, detail?]`. */
const judged = (results: CheckResult[]) =>
  Object.fromEntries(
    results.map((result) => [
      `${result.route} ${result.name}`,
      result.detail === undefined ? [result.outcome] : [result.outcome, result.detail],
    ]),
  );

describe("the lifecycle check on an honest target", () => {
  it("sends I-A's cheapest example, follows its job through the id to succeeded and one stable poll, and passes every result", async () => {
    const run = await lifecycleRun({ models: ["I-A"] });
    expect(run.results.map(({ route, name, outcome }) => [route, name, outcome])).toEqual([
      [I_A.route, ACCEPTED, "pass"],
      [JOB, POLLABLE, "pass"],
      [JOB, MATCHES, "pass"],
      [JOB, VALUES, "pass"],
      [JOB, TERMINAL, "pass"],
      [JOB, STABLE, "pass"],
      [JOB, RESULTS, "pass"],
    ]);
    // processing, succeeded, and the stable poll; then the late stage, with nothing unfollowable to send.
    expect(run.log).toEqual([
      `POST ${I_A_PATH}`,
      "GET /v1/images/img_1",
      "GET /v1/images/img_1",
      "GET /v1/images/img_1",
      `stage ${STAGE.late}`,
    ]);
    expect(run.statuses).toEqual(["1 jobs to follow", "1 of 1 jobs ended, 0 in flight"]);
    expect(new Set(run.results.map((result) => result.group))).toEqual(new Set(["lifecycle"]));
  });

  it("with every example sent, labels each job's results by its example", async () => {
    const run = await lifecycleRun({ models: ["I-A"], createExamples: "all" });
    const names = run.results.filter((result) => result.route === JOB).map((result) => result.name);
    for (const example of ['("text-to-image")', '("edit-with-references")'])
      expect(names.filter((name) => name.endsWith(` ${example}`))).toEqual(
        [POLLABLE, MATCHES, VALUES, TERMINAL, STABLE, RESULTS].map((name) => `${name} ${example}`),
      );
    expect(run.results.filter((result) => result.outcome !== "pass")).toEqual([]);
    expect(run.statuses[0]).toBe("2 jobs to follow");
    expect(run.statuses.at(-1)).toBe("2 of 2 jobs ended, 0 in flight");
  });

  it("estimates each example it sends with the main key at its standard price", () => {
    const spend = (config: Partial<TargetConfig>) =>
      lifecycle
        .spend?.(sessionOf("http://127.0.0.1:9", config))
        .map((planned) => [planned.key, planned.what, planned.price.credits]);
    expect(spend({ models: ["I-A"] })).toEqual([["main", `${I_A.route} "text-to-image"`, 12]]);
    expect(spend({ models: ["I-A", "VU-A"], createExamples: "all", jobIdFields: {} })).toEqual([
      ["main", `${I_A.route} "text-to-image"`, 12],
      ["main", `${I_A.route} "edit-with-references"`, 38],
      // The upscale's price reads facts of the result that the body does not hold.
      ["main", `${VU_A.route} "double"`, null],
      ["main", `${VU_A.route} "with-prompt"`, null],
    ]);
  });
});

describe("the lifecycle check fails a job that breaks the lifecycle", () => {
  it("fails an accepted create whose response names no id: the job cannot be followed", async () => {
    const run = await lifecycleRun({ models: ["I-A"] }, honest, () => ({
      status: 200,
      body: { message: "Job accepted.", model: "model-identifier", status: "pending" },
    }));
    const results = judged(run.results);
    expect(results[`${I_A.route} ${ACCEPTED}`]?.[0]).toBe("fail");
    expect(results[`${I_A.route} ${FOLLOWED}`]).toEqual(["fail", "the create response carries no id"]);
    expect(run.results.find((result) => result.name === FOLLOWED)?.curl).toMatch(new RegExp(`^curl .*${I_A_PATH}`));
    expect(run.log).toEqual([`POST ${I_A_PATH}`, `stage ${STAGE.late}`]);
  });

  it("fails a refused create as a valid request refused, and follows no job", async () => {
    const error = { error: { type: "api_error", code: "internal", message: "Something broke." } };
    const run = await lifecycleRun({ models: ["I-A"] }, honest, () => ({ status: 400, body: error }));
    expect(run.results.map(({ route, name, outcome }) => [route, name, outcome])).toEqual([
      [I_A.route, ACCEPTED, "fail"],
    ]);
  });

  it("fails a job whose first poll is not answered 200, quoting 200 characters of the answer", async () => {
    const message = "x".repeat(300);
    const run = await lifecycleRun({ models: ["I-A"] }, () => ({
      status: 404,
      body: { error: { type: "invalid_request_error", code: "not_found", message } },
    }));
    const answer = JSON.stringify({ error: { type: "invalid_request_error", code: "not_found", message } });
    const results = judged(run.results);
    expect(results[`${JOB} ${POLLABLE}`]).toEqual(["fail", `the first poll answered 404: ${answer.slice(0, 200)}`]);
    // No status was read, so none is out of the enum; polling stopped at the 404.
    expect(results[`${JOB} ${VALUES}`]).toEqual(["pass"]);
    expect(results[`${JOB} ${TERMINAL}`]).toEqual(["fail", "a poll answered 404 (sequence: )"]);
    expect(results[`${JOB} ${STABLE}`]).toBeUndefined();
  });

  it("fails a job it could never poll (no answer to the poll), and judges nothing else of it", async () => {
    const run = await lifecycleRun({ models: ["I-A"] }, () => "reset");
    const job = run.results.filter((result) => result.route === JOB);
    expect(job).toHaveLength(1);
    expect(job[0]).toMatchObject({ name: POLLABLE, outcome: "fail" });
    expect(job[0]?.detail).toMatch(/^never polled: polling failed: GET \/v1\/images\/\{id\} got no HTTP answer/);
    expect(job[0]?.curl).toMatch(/^curl .*\/v1\/images\/img_1/);
  });

  it("fails a status outside JobStatus, naming the values, and a poll response the description does not allow", async () => {
    const run = await lifecycleRun({ models: ["I-A"] }, (id, count) =>
      count === 1
        ? { status: 200, body: { status: "done" } }
        : count === 2
          ? { status: 200, body: { status: "processing" }, without: "x-ratelimit-remaining" }
          : { status: 200, body: succeeded(id) },
    );
    const results = judged(run.results);
    expect(results[`${JOB} ${VALUES}`]).toEqual([
      "fail",
      'status "done" is not one of pending, starting, processing, completing, succeeded, failed, timeout',
    ]);
    expect(results[`${JOB} ${MATCHES}`]?.[0]).toBe("fail");
    // Both the first poll's status and the second's header, each numbered by its poll.
    const details = String(results[`${JOB} ${MATCHES}`]?.[1]).split("; ");
    expect(details.map((detail) => detail.slice(0, 8))).toEqual(["poll 1: ", "poll 2: "]);
    expect(details[1]).toContain("X-RateLimit-Remaining");
    expect(results[`${JOB} ${TERMINAL}`]).toEqual(["pass"]);
  });

  it("fails a job that reaches no terminal status within poll.timeoutSeconds, with its sequence", async () => {
    const run = await lifecycleRun(
      { models: ["I-A"], poll: { intervalMs: 5, timeoutSeconds: 0, stablePolls: 1 } },
      () => ({
        status: 200,
        body: { status: "processing" },
      }),
    );
    const results = judged(run.results);
    expect(results[`${JOB} ${TERMINAL}`]).toEqual([
      "fail",
      "no terminal status within 0 s (poll.timeoutSeconds) (sequence: processing)",
    ]);
    expect(results[`${JOB} ${STABLE}`]).toBeUndefined();
    expect(results[`${JOB} ${RESULTS}`]).toBeUndefined();
  });

  it("fails a job leaving its terminal status: succeeded, then processing again", async () => {
    const run = await lifecycleRun({ models: ["I-A"] }, (id, count) =>
      count === 2 ? { status: 200, body: succeeded(id) } : { status: 200, body: { status: "processing" } },
    );
    const results = judged(run.results);
    expect(results[`${JOB} ${TERMINAL}`]).toEqual(["pass"]);
    expect(results[`${JOB} ${STABLE}`]).toEqual([
      "fail",
      'illegal status sequence processing -> succeeded -> processing: "succeeded" is terminal',
    ]);
    // The last poll is of a job still running, and carries no result field.
    expect(results[`${JOB} ${RESULTS}`]).toEqual(["pass"]);
  });

  it("passes a job that reached a terminal status before its first poll and stays there", async () => {
    const run = await lifecycleRun({ models: ["I-A"] }, (id) => ({ status: 200, body: succeeded(id) }));
    expect(run.results.filter((result) => result.outcome !== "pass")).toEqual([]);
  });

  it("fails result fields missing once succeeded, and carried by a running or failed job", async () => {
    // The first job runs with its images and succeeds without them; the second fails with them.
    const run = await lifecycleRun({ models: ["I-A"], createExamples: "all" }, (id, count) => {
      if (id === "img_1")
        return count === 1
          ? { status: 200, body: { status: "processing", images: IMAGES } }
          : { status: 200, body: { status: "succeeded" } };
      return { status: 200, body: { status: "failed", images: IMAGES } };
    });
    const results = judged(run.results);
    expect(results[`${JOB} ${RESULTS} ("text-to-image")`]).toEqual([
      "fail",
      "a still running processing job carries the result field images; a succeeded job lacks its result field images; a succeeded job lacks its result field images",
    ]);
    expect(results[`${JOB} ${RESULTS} ("edit-with-references")`]).toEqual([
      "fail",
      "a failed job carries the result field images; a failed job carries the result field images",
    ]);
  });

  it("fails a succeeded lip-sync job whose poll holds no URL (the result field's name is not shown, so any field may hold it)", async () => {
    const run = await lifecycleRun({ models: ["LS-A"] }, (_id, count) =>
      count === 1
        ? { status: 200, body: { status: "processing" } }
        : { status: 200, body: { status: "succeeded", output: { video: "v.mp4", seconds: 4 } } },
    );
    const problem =
      "a succeeded job's poll carries no URL, where the specification says result URLs are present in the poll response (the description names no result field for GET /v1/lip-sync/{id}, so any field may hold it)";
    // Once per succeeded poll: the one that saw the terminal status and the stable one after it.
    expect(judged(run.results)[`${JOB_LS} ${RESULTS}`]).toEqual(["fail", `${problem}; ${problem}`]);
  });

  it("judges result fields only on polls answered 200, and reads no status from a body that is no JSON", async () => {
    const run = await lifecycleRun({ models: ["I-A"], poll: { ...POLL, stablePolls: 2 } }, (id, count) => {
      if (count === 1) return { status: 200, body: "still working" };
      if (count === 2) return { status: 200, body: succeeded(id) };
      // A stable poll the target fails, whose body would be a running job with a result field.
      return { status: 500, body: { status: "processing", images: IMAGES } };
    });
    const results = judged(run.results);
    expect(results[`${JOB} ${VALUES}`]).toEqual([
      "fail",
      'status "undefined" is not one of pending, starting, processing, completing, succeeded, failed, timeout',
    ]);
    expect(results[`${JOB} ${STABLE}`]).toEqual(["pass"]);
    expect(results[`${JOB} ${RESULTS}`]).toEqual(["pass"]);
  });

  it("fails a job whose polling the run stopped, as polling stopped", async () => {
    const controller = new AbortController();
    let polls = 0;
    const target = await startTarget(() => ({ status: 200, body: { status: "processing" } }));
    try {
      const session = sessionOf(
        target.url,
        { models: ["I-A"] },
        {
          signal: controller.signal,
          // The run is stopped once the second poll is answered.
          observe: (_session, seen) => {
            if (seen.op.method === "get" && ++polls === 2) controller.abort();
          },
        },
      );
      const run = await runOn(target, session);
      expect(judged(run.results)[`${JOB} ${TERMINAL}`]).toEqual([
        "fail",
        "polling stopped (sequence: processing -> processing)",
      ]);
    } finally {
      await target.close();
    }
  });
});

describe("the lifecycle check on a stateless target", () => {
  it("polls each job once and skips the sequence rules, saying why", async () => {
    const run = await lifecycleRun({ models: ["I-A"], stateful: false }, () => ({
      status: 200,
      body: { status: "processing" },
    }));
    const reason =
      "the target is stateless (the mock answers every poll with one fixed example), so there is no status sequence";
    expect(judged(run.results)).toEqual({
      [`${I_A.route} ${ACCEPTED}`]: ["pass"],
      [`${JOB} ${POLLABLE}`]: ["pass"],
      [`${JOB} ${MATCHES}`]: ["pass"],
      [`${JOB} ${VALUES}`]: ["pass"],
      [`${JOB} ${TERMINAL}`]: ["skip", reason],
      [`${JOB} ${STABLE}`]: ["skip", reason],
      [`${JOB} ${RESULTS}`]: ["skip", reason],
    });
    expect(run.log.filter((line) => line.startsWith("GET"))).toEqual(["GET /v1/images/img_1"]);
  });
});

describe("the lifecycle check and jobs the description says outlast poll.timeoutSeconds", () => {
  // D-B's jobs usually take 120 to 300 s (the description's typical duration).
  const OUTLASTS =
    "the description says these jobs usually take 120 to 300 s, longer than poll.timeoutSeconds (119 s); followed while the other jobs ran";

  it("starts them first, polls them once more when the others have ended, and skips their sequence rules with the reason", async () => {
    const run = await lifecycleRun({ models: ["I-A", "D-B"], poll: { ...POLL, timeoutSeconds: 119 } }, (id, count) =>
      id.startsWith("3d_") ? { status: 200, body: { status: "processing" } } : honest(id, count),
    );
    expect(run.log.filter((line) => line.startsWith("POST")).sort()).toEqual([`POST ${D_B_PATH}`, `POST ${I_A_PATH}`]);
    // Its one poll comes once I-A's job (its three polls) is over.
    expect(run.log.filter((line) => line.startsWith("GET"))).toEqual([
      "GET /v1/images/img_1",
      "GET /v1/images/img_1",
      "GET /v1/images/img_1",
      "GET /v1/3d/3d_1",
    ]);
    const results = judged(run.results);
    expect(results[`${D_B.route} valid request "untextured" accepted`]).toEqual(["pass"]);
    for (const name of [POLLABLE, MATCHES, VALUES]) expect(results[`${JOB_3D} ${name}`]).toEqual(["pass"]);
    for (const name of [TERMINAL, STABLE, RESULTS]) expect(results[`${JOB_3D} ${name}`]).toEqual(["skip", OUTLASTS]);
    expect(results[`${JOB} ${TERMINAL}`]).toEqual(["pass"]);
  });

  it("follows them as any other job where poll.timeoutSeconds is as long as their shortest typical duration (120 s)", async () => {
    const run = await lifecycleRun({ models: ["D-B"], poll: { ...POLL, timeoutSeconds: 120 } });
    expect(run.results.filter((result) => result.outcome !== "pass")).toEqual([]);
    expect(judged(run.results)[`${JOB_3D} ${RESULTS}`]).toEqual(["pass"]);
  });

  it("reports a job of exact price to the billing measurement it runs beside; one of a price at most, or one that outlasts, waits for the measurement to end", async () => {
    let created!: () => void;
    const iACreated = new Promise<void>((resolve) => (created = resolve));
    const target = await startTarget(honest, accepting, (line) => line === `POST ${I_A_PATH}` && created());
    try {
      const session = sessionOf(target.url, { models: ["I-A", "D-B", "LS-A"], poll: { ...POLL, timeoutSeconds: 119 } });
      const measured = session.main.charges.measure(async (window): Promise<MeasuredCharge[]> => {
        // Room for nine charges beside the measurement's own job.
        window.open({ cap: 10, own: 1 });
        // Measured until the job that joined it has ended.
        await iACreated;
        const charges = await window.settled();
        target.log.push("measured");
        return charges;
      });
      const run = await runOn(target, session);
      expect((await measured).map((charge) => [charge.what, charge.credits])).toEqual([[`${I_A.route} (img_1)`, 12]]);
      const creates = run.log.filter((line) => line.startsWith("POST") || line === "measured");
      expect(creates[0]).toBe(`POST ${I_A_PATH}`);
      expect(creates[1]).toBe("measured");
      expect(creates.slice(2).sort()).toEqual([`POST ${D_B_PATH}`, `POST ${LS_A_PATH}`]);
      // The description names no result field of a lip-sync job: its URL, under a name of the target's, passes.
      expect(judged(run.results)[`${JOB_LS} ${RESULTS}`]).toEqual(["pass"]);
    } finally {
      await target.close();
    }
  });
});

describe("the lifecycle check and creates whose jobs it cannot follow", () => {
  const SKIPPED =
    "no create response of POST /v1/video-upscales/vu-a names the job's id (the description shows none), so the suite has no real id to poll with";

  it("skips their poll route, then sends them at the late stage while the cap has room, and skips the rest", async () => {
    const run = await lifecycleRun({ models: ["VU-A"], jobIdFields: {}, createExamples: "all", concurrency: 1 });
    expect(judged(run.results)).toEqual({
      [`GET /v1/video-upscales/{id} ${POLLABLE}`]: ["skip", SKIPPED],
      [`${VU_A.route} valid request "double" accepted`]: ["pass"],
      [`${VU_A.route} valid request "with-prompt" accepted`]: [
        "skip",
        "the concurrency cap is taken by jobs the suite cannot follow",
      ],
    });
    // Its job holds its slot to the end of the run, so it waits for every other check's late stage.
    expect(run.log).toEqual([`stage ${STAGE.late}`, "POST /v1/video-upscales/vu-a"]);
    expect(run.statuses).toEqual(["0 jobs to follow"]);
  });

  it("sends every example where the cap has room for them", async () => {
    const run = await lifecycleRun({ models: ["VU-A"], jobIdFields: {}, createExamples: "all", concurrency: 2 });
    expect(run.results.filter((result) => result.outcome === "pass").map((result) => result.name)).toEqual([
      'valid request "double" accepted',
      'valid request "with-prompt" accepted',
    ]);
  });

  it("follows them where the declaration names their id field (jobIdFields)", async () => {
    const run = await lifecycleRun({ models: ["VU-A"], jobIdFields: { "VU-A": "id" } }, honest, (_area, n) => ({
      status: 200,
      body: { id: `up_${n}` },
    }));
    expect(run.results.map((result) => [result.name, result.outcome])).toEqual([
      ['valid request "double" accepted', "pass"],
      [POLLABLE, "pass"],
      [MATCHES, "pass"],
      [VALUES, "pass"],
      [TERMINAL, "pass"],
      [STABLE, "pass"],
      [RESULTS, "pass"],
    ]);
  });
});

describe("what the lifecycle check observes", () => {
  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`lifecycle\` | ${lifecycle.summary} |`);
  });
});
