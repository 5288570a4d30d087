/**
 * The generated-requests check (conformance/checks/generated-requests.ts) run alone, through its own
 * `run`, against a tiny target of the test's own; tests/conformance/generated-requests.test.ts
 * covers what is drawn, tests/conformance/generated-faults.test.ts whole runs against the sandbox.
 * Specification, Endpoints: "Enum values and ranges are exact", so a near miss of the schema is
 * refused with 400 and the error body; a body the schema holds valid is accepted, or refused for a
 * reason the description gives. A failure is reported shrunk, with the seed that repeats it; a
 * search whose target stops answering ends as a skip, not a failure of the target. Positives that
 * start jobs cost credits (specification, What the service does: "Credits are charged only on
 * success"), so they are sent within the declared budget, followed to their end, and shrunk only
 * with what the budget leaves.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Check } from "../../conformance/check.ts";
import { generatedRequests } from "../../conformance/checks/generated-requests.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { MeasuredCharge } from "../../conformance/coordination.ts";
import { nearMissRisk, planOf } from "../../conformance/generation/plan.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, NOWHERE } from "./support/check-session.ts";
import { pricedPathOf } from "../client/labels.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const I_A_PATH = pricedPathOf("I-A");
const LS_A_PATH = pricedPathOf("LS-A");
const declared = sandboxDeclaration(contract);
const MAIN_KEY = declared.apiKey as string;
/** Negatives go with the planDiscounts key, sparing the main key's rate-limit window. */
const NEGATIVES_KEY = declared.planDiscounts?.apiKey as string;
const POSTS = contract.byPath("post", "/v1/posts") as ContractOperation;
const I_A = contract.operations.find((op) => op.create?.label === "I-A") as ContractOperation;
const SEED = 7;

/** The check as the registry makes it: the other checks it is given include itself. */
function freshCheck(): Check {
  const check: Check = generatedRequests(() => [check]);
  return check;
}

const NEGATIVES = `near-miss negatives refused with 400 (3 cases, seed ${SEED})`;
const POSITIVES = `generated valid requests accepted or refused for a documented reason (3 cases, seed ${SEED})`;
const REPEAT = `seed ${SEED}, --cases 3: --seed ${SEED} repeats it`;
const ERROR = { error: { type: "invalid_request_error", code: "invalid_request", message: "The body is invalid." } };

/** A request the target heard: the key it came with, and its body. */
interface Heard {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body: unknown;
  /** Sent where a validation proxy would be, as a request the description holds valid (else under UNPROXIED). */
  readonly valid: boolean;
}

/** The session's targetUrl, where the requests the description holds invalid go: the same target under this prefix. */
const UNPROXIED = "/unproxied";

/** A status and JSON body (`without` one of the rate-limit headers), or a reset connection. */
type Served = { status: number; body: unknown; without?: string } | "reset";

interface Target {
  readonly url: string;
  readonly heard: Heard[];
  close(): Promise<void>;
}

/** A target on 127.0.0.1 answering each request as `answer` says, with the rate-limit headers. */
async function startTarget(answer: (heard: Heard, index: number) => Served): Promise<Target> {
  const heard: Heard[] = [];
  const server = await serveOnLoopback((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      const seen: Heard = {
        method: request.method ?? "",
        path: path.replace(UNPROXIED, ""),
        key: (request.headers.authorization ?? "").replace(/^Bearer /, ""),
        body: text ? (JSON.parse(text) as unknown) : undefined,
        valid: !path.startsWith(UNPROXIED),
      };
      heard.push(seen);
      const served = answer(seen, heard.length - 1);
      if (served === "reset") {
        request.socket.destroy();
        return;
      }
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-ratelimit-limit": "6000",
        "x-ratelimit-remaining": "5999",
        "x-ratelimit-reset": "42",
        // A socket of its own for each request: a reset is then never taken for a stale kept-alive one and sent again.
        connection: "close",
      };
      if (served.without) delete headers[served.without];
      response.writeHead(served.status, headers).end(JSON.stringify(served.body));
    });
  });
  return {
    url: server.url,
    heard,
    close: server.close,
  };
}

/** A posts target as the description has it: a body the schema holds valid accepted, any other refused with 400. */
const honestPosts = (heard: Heard): Served =>
  contract.validBody(POSTS, heard.body) ? { status: 200, body: {} } : { status: 400, body: ERROR };

/** I-A's jobs: a create accepted with an id, each poll answered succeeded with the image. */
function imageJobs(heard: Heard, index: number): Served {
  if (heard.method === "GET")
    return {
      status: 200,
      body: { status: "succeeded", images: [{ url: "https://files.example.com/0.png", position: 0 }] },
    };
  return {
    status: 200,
    body: { id: `img_${index}`, message: "Job accepted.", model: "model-identifier", status: "pending" },
  };
}

function sessionOf(config: Partial<TargetConfig>, target = NOWHERE, progress?: (line: string) => void): Session {
  const session = checkSession({
    contract,
    config: {
      ...declared,
      stateful: false,
      areas: ["posts"],
      poll: { intervalMs: 1, timeoutSeconds: 30, stablePolls: 0 },
      generated: { seed: SEED, cases: 3 },
      ...config,
    },
    target,
    targetUrl: target === NOWHERE ? NOWHERE : `${target}${UNPROXIED}`,
    proxied: false,
    apiKey: MAIN_KEY,
  });
  // The check's progress lines, which a test's session otherwise drops.
  if (progress) Object.assign(session, { progress });
  return session;
}

interface GeneratedRun {
  readonly results: CheckResult[];
  readonly heard: Heard[];
  readonly statuses: string[];
  readonly progress: string[];
  readonly session: Session;
}

/** The check run alone against a target answering `answer`; `before` is given the session first. */
async function generatedRun(
  config: Partial<TargetConfig>,
  answer: (heard: Heard, index: number) => Served,
  before: (session: Session) => void = () => {},
): Promise<GeneratedRun> {
  const check = freshCheck();
  const target = await startTarget(answer);
  try {
    const progress: string[] = [];
    const session = sessionOf(config, target.url, (line) => progress.push(line));
    check.prepare?.(session);
    before(session);
    const statuses: string[] = [];
    await check.run?.({ session, stage: async () => {}, status: (text) => statuses.push(text) });
    return { results: session.results.all, heard: target.heard, statuses, progress, session };
  } finally {
    await target.close();
  }
}

/** `name -> [outcome, detail?]` of the results on one route. */
const judged = (results: CheckResult[]) =>
  Object.fromEntries(
    results.map((result) => [
      result.name,
      result.detail === undefined ? [result.outcome] : [result.outcome, result.detail],
    ]),
  );

const byKey = (heard: Heard[], key: string) => heard.filter((request) => request.key === key);

describe("the generated-requests check on an honest target", () => {
  it("passes near misses refused with 400 and valid bodies accepted, negatives with the planDiscounts key before positives with the main key", async () => {
    const run = await generatedRun({}, honestPosts);
    expect(run.results.map(({ route, name, outcome }) => [route, name, outcome])).toEqual([
      [POSTS.route, "near-miss negatives refused with 400: every kind once per field (2 cases)", "pass"],
      [POSTS.route, NEGATIVES, "pass"],
      [POSTS.route, POSITIVES, "pass"],
    ]);
    // Two coverage cases and three seeded negatives, then three positives, the only ones sent where a validation proxy would be.
    expect(run.heard.map((request) => [request.key, request.valid])).toEqual([
      ...Array(5).fill([NEGATIVES_KEY, false]),
      ...Array(3).fill([MAIN_KEY, true]),
    ]);
    expect(run.heard.every((request) => request.method === "POST" && request.path === "/v1/posts")).toBe(true);
    expect(run.progress).toEqual([
      `generated-requests: seed ${SEED}, 3 cases per operation and kind (--seed ${SEED} repeats them)`,
    ]);
    expect(run.statuses).toEqual(["1 operations"]);
  });
});

describe("the generated-requests check fails what the description refuses or allows", () => {
  it("fails a near miss accepted, shrunk to a body still breaking the schema, with its kind, rule, seed and a curl line", async () => {
    const run = await generatedRun({}, () => ({ status: 200, body: {} }));
    const seeded = run.results.filter(
      (result) => result.name.startsWith("near-miss negative refused: ") && !/\)$/.test(result.name),
    );
    expect(seeded).toHaveLength(1);
    const [failure] = seeded as [CheckResult];
    const kind = failure.name.replace("near-miss negative refused: ", "");
    expect(failure.outcome).toBe("fail");
    expect(failure.detail).toMatch(
      new RegExp(`^${kind} .+: accepted it with 200, not 400: \\{\\} \\(shrunk in \\d+ steps; ${REPEAT}\\)$`),
    );
    expect(failure.curl).toContain(`Bearer ${NEGATIVES_KEY}`);
    const body = JSON.parse(/--data-raw '(.*)'$/s.exec(failure.curl ?? "")?.[1] ?? "null") as unknown;
    expect(contract.validBody(POSTS, body)).toBe(false);
    // The shrunk body was sent with the negatives' key.
    expect(byKey(run.heard, NEGATIVES_KEY).map((request) => request.body)).toContainEqual(body);
    expect(judged(run.results)[NEGATIVES]).toBeUndefined();
    expect(judged(run.results)[POSITIVES]).toEqual(["pass"]);
  });

  it("fails a valid body refused with 400 for no reason the description gives, shrunk, with the seed and a curl line", async () => {
    const run = await generatedRun({}, () => ({ status: 400, body: ERROR }));
    const results = judged(run.results);
    expect(results[NEGATIVES]).toEqual(["pass"]);
    expect(results[POSITIVES]).toBeUndefined();
    expect(results["generated valid request"]?.[0]).toBe("fail");
    expect(results["generated valid request"]?.[1]).toMatch(
      new RegExp(
        `^refused with 400 a body the description holds valid, with no media input a server could find unusable: .+ \\(shrunk in \\d+ steps; ${REPEAT}\\)$`,
      ),
    );
    const failure = run.results.find((result) => result.name === "generated valid request");
    expect(failure?.curl).toContain(`Bearer ${MAIN_KEY}`);
  });

  it("sends at most 40 more requests to shrink a failure", async () => {
    // Seed 5 draws first a V-B body with many reference images, whose shrink candidates are more
    // than 40; the target refuses that body alone, so every candidate is sent until the bound.
    let first: string | undefined;
    const run = await generatedRun(
      { areas: ["videos"], models: ["V-B"], generated: { seed: 5, cases: 3 } },
      (heard) => {
        if (heard.key === NEGATIVES_KEY) return { status: 400, body: ERROR };
        first ??= JSON.stringify(heard.body);
        return JSON.stringify(heard.body) === first
          ? { status: 500, body: ERROR }
          : {
              status: 200,
              body: { id: "vid_1", message: "Job accepted.", model: "model-identifier", status: "pending" },
            };
      },
    );
    expect(byKey(run.heard, MAIN_KEY)).toHaveLength(41);
    expect(judged(run.results)["generated valid request"]?.[1]).toBe(
      "status 500 is not documented (documented: 200, 400, 401, 403, 410, 429) (shrunk in 0 steps; seed 5, --cases 3: --seed 5 repeats it)",
    );
  });
});

describe("the generated-requests check names every problem of an answer", () => {
  it("fails a 400 without the error body and without X-RateLimit-Remaining, for a near miss and for a valid body", async () => {
    const run = await generatedRun({}, () => ({ status: 400, body: {}, without: "x-ratelimit-remaining" }));
    // The body's problems, then the header's, each apart.
    const both = new RegExp(
      `body of 400 does not match its schema: .+ \\[oneOf\\]; required header X-RateLimit-Remaining is missing \\(shrunk in 0 steps; ${REPEAT}\\)$`,
    );
    const results = judged(run.results);
    expect(results[NEGATIVES]).toBeUndefined();
    const seeded = run.results.find((result) => /^near-miss negative refused: [a-z-]+$/.test(result.name));
    expect(seeded?.detail).toMatch(both);
    expect(results["generated valid request"]?.[1]).toMatch(/^body of 400 does not match its schema: /);
    expect(results["generated valid request"]?.[1]).toMatch(both);
  });
});

describe("the generated-requests check and a target that stops answering", () => {
  it("ends each search at the first request without an answer, as a skip naming it, and sends no more", async () => {
    // The two coverage cases are refused; every later request gets its connection reset.
    const run = await generatedRun({}, (heard, index) => (index < 2 ? honestPosts(heard) : "reset"));
    const results = judged(run.results);
    for (const name of [NEGATIVES, POSITIVES]) {
      expect(results[name]?.[0]).toBe("skip");
      expect(results[name]?.[1]).toMatch(/^stopped: POST \/v1\/posts got no HTTP answer: /);
    }
    // One seeded negative and one positive, each unanswered: the searches send nothing more.
    expect(run.heard.map((request) => request.key)).toEqual([NEGATIVES_KEY, NEGATIVES_KEY, NEGATIVES_KEY, MAIN_KEY]);
  });

  it("still reports a failure found before the target stopped answering while it was shrunk", async () => {
    // I-A's first positive is refused with an undocumented 500; every later one gets no answer.
    let positives = 0;
    const run = await generatedRun({ areas: ["images"], models: ["I-A"] }, (heard) =>
      heard.key === NEGATIVES_KEY
        ? { status: 400, body: ERROR }
        : ++positives === 1
          ? { status: 500, body: ERROR }
          : "reset",
    );
    expect(positives).toBe(2);
    expect(judged(run.results)["generated valid request"]).toEqual([
      "fail",
      `status 500 is not documented (documented: 200, 400, 401, 403, 410, 429) (shrunk in 0 steps; ${REPEAT})`,
    ]);
  });
});

describe("the generated-requests check and positives that start jobs", () => {
  const STATEFUL_I_A: Partial<TargetConfig> = { stateful: true, areas: ["images"], models: ["I-A"] };
  /** Negatives refused, the rest answered as I-A's jobs. */
  const refusingNegatives = (heard: Heard, index: number): Served =>
    heard.key === NEGATIVES_KEY ? { status: 400, body: ERROR } : imageJobs(heard, index);

  it("sends none without a budget, saying how to send them, and states no verdict on them", async () => {
    const run = await generatedRun(STATEFUL_I_A, refusingNegatives);
    expect(judged(run.results)["generated valid requests"]).toEqual([
      "skip",
      "generated positives start jobs, which cost credits: declare budgetCredits (or --budget) to send them",
    ]);
    expect(judged(run.results)[POSITIVES]).toBeUndefined();
    expect(byKey(run.heard, MAIN_KEY)).toEqual([]);
  });

  it("sends the admitted ones as jobs followed to their end, and passes them", async () => {
    // Nothing is left for shrinking: the admitted ones are sent all the same.
    const run = await generatedRun({ ...STATEFUL_I_A, budgetCredits: 1_000_000 }, refusingNegatives, (session) => {
      planOf(session, () => []).shrinkCredits = 0;
    });
    expect(judged(run.results)[POSITIVES]).toEqual(["pass"]);
    const main = byKey(run.heard, MAIN_KEY);
    expect(main.filter((request) => request.method === "POST")).toHaveLength(3);
    // Each job polled until succeeded.
    expect(main.filter((request) => request.method === "GET")).toHaveLength(3);
    expect(
      freshCheck()
        .spend?.(run.session)
        .map((planned) => [planned.key, planned.what]),
    ).toEqual(Array(3).fill(["main", `${I_A.route} (a generated request)`]));
  });

  it("sends only the admitted ones where the budget covers some", async () => {
    // 30 credits: one or two of the three drawn images (11 to 48 credits each, by size), not all three.
    // What is left for shrinking pays for no body the budget did not admit.
    const run = await generatedRun({ ...STATEFUL_I_A, budgetCredits: 30 }, refusingNegatives, (session) => {
      planOf(session, () => []).shrinkCredits = 1_000_000;
    });
    const skipped = judged(run.results)["generated valid requests"]?.[1] as string;
    const notSent = Number(/^(\d) of 3 not sent: /.exec(skipped)?.[1]);
    expect(notSent).toBeGreaterThan(0);
    expect(notSent).toBeLessThan(3);
    expect(byKey(run.heard, MAIN_KEY).filter((request) => request.method === "POST")).toHaveLength(3 - notSent);
    expect(judged(run.results)[POSITIVES]).toEqual(["pass"]);
  });

  it("shrinks a failing one only with what the budget leaves: 11 credits pay for one more I-A image at 768px", async () => {
    const run = await generatedRun(
      { ...STATEFUL_I_A, budgetCredits: 1_000_000 },
      (heard, index) =>
        heard.key === MAIN_KEY && heard.method === "POST"
          ? { status: 500, body: ERROR }
          : refusingNegatives(heard, index),
      (session) => {
        planOf(session, () => []).shrinkCredits = 11;
      },
    );
    const creates = byKey(run.heard, MAIN_KEY).filter((request) => request.method === "POST");
    // The first positive fails; one shrink step of 11 credits (the cheapest size) is sent, then nothing is left.
    expect(creates).toHaveLength(2);
    expect(planOf(run.session, () => []).shrinkCredits).toBe(0);
    expect(judged(run.results)["generated valid request"]?.[1]).toMatch(/ \(shrunk in 1 steps; /);
  });

  it("estimates the admitted ones within what the budget leaves after the other checks' estimate", () => {
    const spender: Check = {
      group: "other",
      summary: "",
      spend: () => [{ key: "main", what: "x", price: { credits: 100, atMost: false } }],
    };
    const check: Check = generatedRequests(() => [check, spender]);
    const session = sessionOf({ ...STATEFUL_I_A, budgetCredits: 100 });
    expect(check.spend?.(session)).toEqual([]);
    expect(planOf(session, () => []).operations[0]?.positivesSkipped).toMatch(
      /^3 of 3 not sent: \d+ credits, past what budgetCredits leaves \(0\)(; \d+ credits, past what budgetCredits leaves \(0\))*$/,
    );
  });

  it("makes its plan when prepared, so that the estimate can state what wrongly accepted negatives could cost", () => {
    const session = sessionOf(STATEFUL_I_A);
    expect(nearMissRisk(session)).toBeUndefined();
    freshCheck().prepare?.(session);
    expect(nearMissRisk(session)).toMatch(/^ {2}near-miss negatives: \d+ creates/);
  });

  it("lets a positive of exact price run beside the billing measurement and report its price; one priced at most waits", async () => {
    let allJoined!: () => void;
    const joined = new Promise<void>((resolve) => (allJoined = resolve));
    let measured: Promise<MeasuredCharge[]> | undefined;
    let imageCreates = 0;
    const run = await generatedRun(
      { stateful: true, areas: ["images", "lip-sync"], models: ["I-A", "LS-A"], budgetCredits: 1_000_000 },
      (heard, index) => {
        if (heard.key === MAIN_KEY && heard.path === I_A_PATH && ++imageCreates === 3) allJoined();
        if (heard.path.startsWith("/v1/lip-sync/") && heard.method === "POST" && heard.key === MAIN_KEY)
          return {
            status: 200,
            body: {
              id: `mtn_${index}`,
              credits: 336,
              seconds: 4,
              message: "Job accepted.",
              model: "m",
              status: "pending",
            },
          };
        return refusingNegatives(heard, index);
      },
      (session) => {
        measured = session.main.charges.measure(async (window) => {
          window.open({ cap: 10, own: 1 });
          await joined;
          return window.settled();
        });
      },
    );
    const charges = (await measured) ?? [];
    // I-A's three positives have exact prices; LS-A's depend on the audio's length, at most 10080.
    expect(charges.map((charge) => charge.what.replace(/ \(.*\)$/, ""))).toEqual(Array(3).fill(I_A.route));
    expect(charges.every((charge) => charge.credits >= 12)).toBe(true);
    expect(byKey(run.heard, MAIN_KEY).filter((request) => request.path === LS_A_PATH)).toHaveLength(3);
  });
});

describe("the generated-requests check and near misses the description does not let it send", () => {
  it("skips them, counted by reason with an example rule, where the target does not declare it takes the described shapes", async () => {
    // D-B's fields are named only by implication; its positives would start jobs, and no budget is declared.
    const run = await generatedRun(
      { stateful: true, describedShapes: false, areas: ["3d"], models: ["D-B"] },
      () => "reset",
    );
    const results = judged(run.results);
    expect(results["near-miss negatives not sent (2)"]).toEqual([
      "skip",
      'the rule is on image, whose name the specification only implies: 1, e.g. image in the wrong JSON type ("string" expected); the rule is on texture, whose name the specification only implies: 1, e.g. texture in the wrong JSON type ("boolean" expected)',
    ]);
    expect(run.heard).toEqual([]);
  });
});

describe("what the generated-requests check observes", () => {
  it("reports in the generated-requests group", () => {
    expect(freshCheck().group).toBe("generated-requests");
  });

  it("names each result by a template of its rules: a near miss refused observes the route's body fields, exact enums and ranges, the 400 of a model not available, the media input forms and video or audio by URL only; a valid body, the route's body fields", () => {
    const check = freshCheck();
    const negative = [
      "route:*.body.*",
      "endpoints.enums-ranges-exact",
      "errors.400-model-not-available",
      "service.input-media-forms",
      "service.video-audio-by-url",
    ];
    const bodyFields = ["route:*.body.*"];
    const named: Array<[string, string, string[]]> = [
      [NEGATIVES, "near-miss negatives refused with 400 ({cases})", negative],
      [
        "near-miss negatives refused with 400: every kind once per field (2 cases)",
        "near-miss negatives refused with 400: every kind once per field ({cases})",
        negative,
      ],
      ["near-miss negative refused: wrong-type", "near-miss negative refused: {kind}", negative],
      ["near-miss negatives not sent (2)", "near-miss negatives not sent ({count})", bodyFields],
      [POSITIVES, "generated valid requests accepted or refused for a documented reason ({cases})", bodyFields],
      ["generated valid request", "generated valid request", bodyFields],
      ["generated valid requests", "generated valid requests", bodyFields],
    ];
    for (const [name, template, rules] of named) {
      expect(templateOf(check, name), name).toBe(template);
      expect(check.rules?.[template], template).toEqual(rules);
    }
    expect(Object.keys(check.rules ?? {})).toHaveLength(named.length);
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(
      `| \`generated-requests\` | ${freshCheck().summary} |`,
    );
  });
});
