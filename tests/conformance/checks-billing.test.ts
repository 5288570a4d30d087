/**
 * The billing check (conformance/checks/billing.ts) run on a session of the test's own against a
 * small in-process account (a `node:http` server on 127.0.0.1) that keeps a balance and charges as
 * the specification says, unless a test twists one answer or one charge. Specification: "Credits
 * are charged only when a job reaches `succeeded`" (never for failures, timeouts or content blocked
 * before generation), "Lip-sync jobs reserve their quoted price when created", "The 3D create
 * response's `credits` is held until the job finishes", stock searches cost "10 credits per
 * search"; the balance is `total_available` of `GET /v1/account/credits`. The honest account passes;
 * each twist fails the result of the rule it breaks, the detail naming what the balance did.
 *
 * Prices, by hand from the specification (the cheapest example of each route, as the suite sends
 * one): I-A text-to-image at 1K 12 credits, I-C 25, I-E 40, I-J grounded at 1K 65, D-A plain shape
 * (no texture) 270, a stock image search 10.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { billing, STANDARD_PRICES } from "../../conformance/checks/billing.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { chargedCreate } from "../../conformance/jobs.ts";
import { marked, validRequests } from "../../conformance/requests.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { checkSession } from "./support/check-session.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { serveOnLoopback, type TestServer } from "../support/loopback-server.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const MAIN_KEY = declared.apiKey as string;
const createOf = (label: string): ContractOperation =>
  contract.operations.find((op) => op.create?.label === label) as ContractOperation;
const routeOf = (label: string): string => createOf(label).route;

/** The standard price of each route's cheapest example (specification, by hand). */
const PRICES: Record<string, number> = { "I-A": 12, "I-C": 25, "I-E": 40, "I-J": 65, "D-A": 270 };
const SEARCH_PRICE = 10;
/** An answer longer than the 200 characters a detail quotes of it. */
const LONG = { error: { message: "The service is busy. ".repeat(12) } };
const SEARCH = "GET /v1/stock/images";
const START = 10_000;

// The declaration's outcome markers (conformance/targets/sandbox.json).
const FAILED = "[sandbox:failed]";
const TIMEOUT = "[sandbox:timeout]";
const BLOCKED = /\[sandbox:moderation=([a-z_]+)\]/;

const READ = "the balance can be read";
const RESERVED = "a held price is reserved when the job is created";
const HELD = "a held price is charged when its job succeeds";
const SUCCEEDED = "a succeeded job is charged exactly its quote";
const FAILED_JOB = "a failed job is charged nothing";
const TIMED_OUT = "a timed-out job is charged nothing";
const MODERATION = "a request blocked by moderation is charged nothing";
const BESIDE = "a job run beside the billing check is charged its quote";
const TOGETHER = "the balance falls by the quotes of the jobs that ran";
const SEARCHED = "a search priced per request is charged its price";

/**
 * The routes the tests implement: I-A (the cheapest exact price: the succeeded job), I-C, I-E and
 * I-J (prompted, outside any family: the failed, timed-out and blocked requests), D-A (a held
 * price), the stock searches (priced per request); beside them routes the check must not pick for a
 * marker: I-B (the content-filtered family), I-K (no prompt), MC-A (a price "at most").
 */
const NARROW: Partial<TargetConfig> = {
  areas: ["images", "3d", "motion-control", "account", "stock"],
  models: ["I-A", "I-B", "I-C", "I-E", "I-J", "I-K", "D-A", "MC-A"],
  poll: { intervalMs: 1, timeoutSeconds: 5, stablePolls: 0 },
};

interface Reply {
  readonly status: number;
  readonly body: unknown;
}

interface FakeJob {
  readonly id: string;
  readonly label: string;
  readonly prompt: string;
  /** The status its prompt's marker asks for (succeeded without one). */
  readonly outcome: string;
  /** Credits taken when it was created (a held price). */
  reserved: number;
  settled: boolean;
}

/** How the account departs from the specification; each hook left out is honest. */
interface Twists {
  /** The n-th read of the balance (from 1), answered otherwise. */
  balance?(n: number): Reply | undefined;
  /** A create answered otherwise, before any job starts. */
  create?(label: string, prompt: string): Reply | undefined;
  /** The credits a held price's create response names (honest: its price; undefined: none). */
  heldCredits?(job: FakeJob): number | undefined;
  /** The credits a held price takes when its job is created (honest: its price). */
  reserve?(job: FakeJob): number;
  /** The terminal status its polls report (honest: its marker's). */
  ends?(job: FakeJob): string | undefined;
  /** Its polls answer 404 (the job is lost). */
  lost?(job: FakeJob): boolean;
  /** What the account pays in all for a job once it has ended (honest, or undefined: its price if it succeeded, else nothing). */
  charge?(job: FakeJob): number | undefined;
  /** What a moderation block costs (honest: nothing). */
  blocked?: number;
  /** The moderation marker is ignored: the request starts a job like any other. */
  unmoderated?: boolean;
  /** What a search costs (honest: 10), or its answer. */
  search?: number | Reply;
}

interface Fake {
  /** Where the requests the description holds valid go (a validation proxy's place). */
  readonly proxyUrl: string;
  /** The target itself, where the others go. */
  readonly targetUrl: string;
  balance: number;
  /** What happened, in order: `read n`, `create I-A`, `ended I-A succeeded`, `search`. */
  readonly events: string[];
  /** Each create: its label, prompt and the place it was sent to. */
  readonly creates: Array<{ label: string; prompt: string; via: "proxy" | "target" }>;
  /** The place each search was sent to. */
  readonly searches: string[];
  /** A charge made outside the routes (another check's job, in-process). */
  debit(credits: number): void;
  close(): Promise<void>;
}

const labelOf = (path: string): string | undefined =>
  contract.operations.find((op) => op.method === "post" && op.path === path)?.create?.label;

async function startFake(twists: Twists = {}): Promise<Fake> {
  const jobs = new Map<string, FakeJob>();
  let reads = 0;
  const fake: Fake = {
    proxyUrl: "",
    targetUrl: "",
    balance: START,
    events: [],
    creates: [],
    searches: [],
    debit: (credits) => void (fake.balance -= credits),
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };

  const answer = (path: string, method: string, body: Record<string, unknown>, via: "proxy" | "target"): Reply => {
    if (method === "GET" && path === "/v1/account/credits") {
      fake.events.push(`read ${++reads}`);
      return twists.balance?.(reads) ?? { status: 200, body: { total_available: fake.balance } };
    }
    if (method === "GET" && path === "/v1/stock/images") {
      fake.events.push("search");
      fake.searches.push(via);
      const search = twists.search ?? SEARCH_PRICE;
      if (typeof search !== "number") return search;
      fake.balance -= search;
      return { status: 200, body: { results: [] } };
    }
    const label = method === "POST" ? labelOf(path) : undefined;
    if (label) {
      const prompt = typeof body.prompt === "string" ? body.prompt : "";
      fake.creates.push({ label, prompt, via });
      fake.events.push(`create ${label}`);
      const twisted = twists.create?.(label, prompt);
      if (twisted) return twisted;
      const reason = twists.unmoderated ? undefined : BLOCKED.exec(prompt)?.[1];
      if (reason) {
        fake.balance -= twists.blocked ?? 0;
        return { status: 400, body: { error: "Blocked by input content moderation.", restriction_reason: reason } };
      }
      const outcome = prompt.includes(FAILED) ? "failed" : prompt.includes(TIMEOUT) ? "timeout" : "succeeded";
      const job: FakeJob = { id: `job-${jobs.size + 1}`, label, prompt, outcome, reserved: 0, settled: false };
      jobs.set(job.id, job);
      if (label === "D-A") {
        job.reserved = twists.reserve?.(job) ?? (PRICES[label] as number);
        fake.balance -= job.reserved;
        const credits = twists.heldCredits ? twists.heldCredits(job) : PRICES[label];
        return { status: 200, body: { id: job.id, status: "pending", ...(credits === undefined ? {} : { credits }) } };
      }
      return { status: 200, body: { id: job.id, status: "pending" } };
    }
    const job = method === "GET" ? jobs.get(path.split("/").at(-1) ?? "") : undefined;
    if (!job || twists.lost?.(job)) return { status: 404, body: { error: { message: "No such job." } } };
    const status = twists.ends?.(job) ?? job.outcome;
    if (!job.settled) {
      job.settled = true;
      fake.events.push(`ended ${job.label} ${status}`);
      const charge = twists.charge?.(job) ?? (status === "succeeded" ? (PRICES[job.label] ?? 0) : 0);
      fake.balance -= charge - job.reserved;
    }
    return { status: 200, body: { status } };
  };

  const listen = (via: "proxy" | "target"): Promise<TestServer> =>
    serveOnLoopback((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
        const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
        const reply = answer(path, request.method ?? "GET", body, via);
        response.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
      });
    });
  const servers = await Promise.all([listen("proxy"), listen("target")]);
  const [proxyUrl, targetUrl] = servers.map((server) => server.url) as [string, string];
  return Object.assign(fake, { proxyUrl, targetUrl });
}

let open: Fake[] = [];
afterEach(async () => {
  await Promise.all(open.map((fake) => fake.close()));
  open = [];
});

const sessionOf = (config: Partial<TargetConfig> = {}, fake?: Fake): Session =>
  checkSession({
    contract,
    config: { ...declared, ...NARROW, ...config },
    ...(fake ? { target: fake.proxyUrl, targetUrl: fake.targetUrl } : {}),
    apiKey: MAIN_KEY,
  });

interface BillingRun {
  readonly results: CheckResult[];
  readonly statuses: string[];
  readonly fake: Fake;
}

/**
 * The check run against the fake account twisted by `twists`; `opened` runs once the check opens
 * its measurement to other charges (the other checks' jobs), and is awaited after the run.
 */
async function billingRun(
  twists: Twists = {},
  config: Partial<TargetConfig> = {},
  opened?: (session: Session, fake: Fake) => Promise<unknown>,
  before?: (session: Session, fake: Fake) => Promise<unknown>,
): Promise<BillingRun> {
  const fake = await startFake(twists);
  open.push(fake);
  const session = sessionOf(config, fake);
  const statuses: string[] = [];
  const beside: Array<Promise<unknown>> = [];
  const earlier = before?.(session, fake);
  await billing.run?.({
    session,
    stage: async () => {},
    status: (text) => {
      statuses.push(text);
      if (text.startsWith("following") && opened) beside.push(opened(session, fake));
    },
  });
  await Promise.all([...beside, earlier]);
  return { results: session.results.all, statuses, fake };
}

/** D-A's held price as `credits` throughout: named in its create response, reserved, and charged on success. */
const heldAt = (credits: number): Twists => ({
  heldCredits: () => credits,
  reserve: () => credits,
  charge: (job) => (job.label === "D-A" ? credits : undefined),
});

/** The results as `route | name | outcome`, in the order the check gave them. */
const listed = (results: CheckResult[]): string[] =>
  results.map((result) => `${result.route} | ${result.name} | ${result.outcome}`);
const failures = (results: CheckResult[]) =>
  results.filter((result) => result.outcome === "fail").map(({ route, name, detail }) => ({ route, name, detail }));

/** Every result of a run in which each charge agrees with its quote. */
const HONEST = [
  `${routeOf("D-A")} | ${RESERVED} | pass`,
  `${routeOf("I-A")} | ${SUCCEEDED} | pass`,
  `${routeOf("I-C")} | ${FAILED_JOB} | pass`,
  `${routeOf("I-E")} | ${TIMED_OUT} | pass`,
  `${routeOf("I-J")} | ${MODERATION} | pass`,
  `${routeOf("D-A")} | ${HELD} | pass`,
  `${SEARCH} | ${SEARCHED} | pass`,
];

/** A request of `label`'s cheapest example as the check sends it (with the main key), marked with `marker`. */
function requestOf(session: Session, label: string, marker?: string) {
  const op = createOf(label);
  const spec = validRequests(session, op, session.main, session.createExamples(op))[0]!.spec;
  return { op, spec: marker ? marked(spec, marker) : spec };
}

describe("the billing check against an account charged as the specification says", () => {
  it("passes every result: the held price reserved and charged, the succeeded job its quote, the failed, timed-out and blocked ones nothing, the search 10", async () => {
    const run = await billingRun();
    expect(listed(run.results)).toEqual(HONEST);
    // 270 + 12 + 10 in all: the held price once, the succeeded job, the search.
    expect(run.fake.balance).toBe(START - 292);
    expect(run.statuses).toEqual(["reading the balance", "creating a job whose price is held", "following 4 jobs"]);
  });

  it("sends each outcome's marker in the prompt of a route of its own, each price above the sum of those before it, the moderation reason filled in", async () => {
    const run = await billingRun();
    // The held job first; the others together, in any order.
    expect(run.fake.creates[0]).toEqual({ label: "D-A", prompt: "", via: "proxy" });
    const prompts = Object.fromEntries(run.fake.creates.map(({ label, prompt }) => [label, prompt]));
    expect(prompts).toEqual({
      "D-A": "",
      "I-A": expect.not.stringContaining("[sandbox:"),
      "I-C": expect.stringMatching(/ \[sandbox:failed\]$/),
      "I-E": expect.stringMatching(/ \[sandbox:timeout\]$/),
      // The first restriction reason the description lists.
      "I-J": expect.stringMatching(/ \[sandbox:moderation=input_csam\]$/),
    });
  });

  it("gives a marker the first route priced above the sum of the roles before it: the blocked request V-A's 525, above 12 + 25 + 40, rather than I-J's 65 or V-G's 75", async () => {
    // V-A's text-to-video at its defaults: 5 s at 768p, 105 per second; V-G's: 75.
    const run = await billingRun(
      {},
      { areas: [...(NARROW.areas ?? []), "videos"], models: [...(NARROW.models ?? []), "V-A", "V-G"] },
    );
    expect(run.results.find((result) => result.name === MODERATION)).toMatchObject({
      route: routeOf("V-A"),
      outcome: "pass",
    });
    expect(run.fake.creates.map((create) => create.label).sort()).toEqual(["D-A", "I-A", "I-C", "I-E", "V-A"]);
    expect(run.results.filter((result) => result.outcome !== "pass")).toEqual([]);
  });

  it("never takes a price given only as a bound (\"at most\") for the succeeded job: V-F's exact 2600, not DM-A's cheaper bound of 600", async () => {
    const run = await billingRun({}, { areas: ["depth-maps", "videos", "account"], models: ["DM-A", "V-F"] });
    expect(run.results.find((result) => result.name === SUCCEEDED)?.route).toBe(routeOf("V-F"));
    expect(run.fake.creates.map((create) => create.label)).toEqual(["V-F"]);
  });

  it("gives a marker a route priced above the sum of the roles before it, not one equal to it: the timed-out job V-G's 75 rather than I-J's 65 (I-C's 25 + I-E's 40)", async () => {
    const run = await billingRun({}, { areas: ["images", "videos", "account"], models: ["I-C", "I-E", "I-J", "V-G"] });
    expect(run.results.find((result) => result.name === TIMED_OUT)).toMatchObject({
      route: routeOf("V-G"),
      outcome: "pass",
    });
    // The blocked request takes what is left over: no route is priced above 25 + 40 + 75.
    expect(run.results.find((result) => result.name === MODERATION)?.route).toBe(routeOf("I-J"));
  });

  it("reads the balance before the held job, after its create, and once every job has ended, then searches and reads it again", async () => {
    const run = await billingRun();
    const events = run.fake.events;
    expect(events.slice(0, 3)).toEqual(["read 1", "create D-A", "read 2"]);
    expect(events.indexOf("read 3")).toBe(events.length - 3);
    expect(events.slice(-2)).toEqual(["search", "read 4"]);
    expect(events.filter((event) => event.startsWith("ended")).sort()).toEqual([
      "ended D-A succeeded",
      "ended I-A succeeded",
      "ended I-C failed",
      "ended I-E timeout",
    ]);
  });

  it("sends the requests the description holds valid through the validation proxy's place, the moderation block to the target", async () => {
    const run = await billingRun();
    expect(run.fake.creates.map(({ label, via }) => `${label} ${via}`).sort()).toEqual([
      "D-A proxy",
      "I-A proxy",
      "I-C proxy",
      "I-E proxy",
      "I-J target",
    ]);
    expect(run.fake.searches).toEqual(["proxy"]);
  });
});

describe("the balance must be readable", () => {
  it("fails at once, and sends nothing more, when the first read is refused", async () => {
    const run = await billingRun({ balance: () => ({ status: 503, body: { error: { message: "down" } } }) });
    expect(run.results).toEqual([
      expect.objectContaining({
        route: "*",
        name: READ,
        outcome: "fail",
        detail: 'GET /v1/account/credits answered 503: {"error":{"message":"down"}}',
      }),
    ]);
    expect(run.fake.events).toEqual(["read 1"]);
  });

  it("fails the held price's reservation when the read after its create is refused, and judges the rest", async () => {
    const run = await billingRun({
      balance: (n) => (n === 2 ? { status: 200, body: { total_available: "plenty" } } : undefined),
    });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("D-A"),
        name: RESERVED,
        detail: 'GET /v1/account/credits answered 200: {"total_available":"plenty"}',
      },
    ]);
    expect(listed(run.results).slice(1)).toEqual(HONEST.slice(1));
  });

  it("fails when the read after the jobs is refused, and judges no charge", async () => {
    const run = await billingRun({ balance: (n) => (n === 3 ? { status: 500, body: {} } : undefined) });
    expect(listed(run.results)).toEqual([`${routeOf("D-A")} | ${RESERVED} | pass`, `* | ${READ} | fail`]);
    expect(run.results[1]?.detail).toBe("GET /v1/account/credits answered 500: {}");
  });
});

describe("a held price (3D: the create response's credits, held until the job finishes)", () => {
  it("fails a balance that does not fall by the held price when the job is created", async () => {
    // Taken only on success: the final balance agrees, the reservation does not.
    const run = await billingRun({ reserve: () => 0, charge: (job) => (job.label === "D-A" ? 270 : undefined) });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("D-A"),
        name: RESERVED,
        detail: "total_available fell by 0 when the job was created; its held price is 270",
      },
    ]);
    expect(run.results.find((result) => result.name === RESERVED)?.curl).toContain(createOf("D-A").path);
    expect(listed(run.results).slice(1)).toEqual(HONEST.slice(1));
  });

  it("fails a create response without its credits, and judges the other jobs with its job's charge counted at its quote", async () => {
    const run = await billingRun({ heldCredits: () => undefined });
    // Its job still runs and is charged D-A's 270 on success, which no other job is blamed for.
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("D-A"),
        name: RESERVED,
        detail: 'the create answered 200 without its credits: {"id":"job-1","status":"pending"}',
      },
    ]);
    expect(run.statuses).toContain("following 3 jobs");
    expect(run.results.map((result) => result.name)).not.toContain(HELD);
    expect(run.results.filter((result) => result.outcome === "pass")).toHaveLength(5);
  });

  it("counts nothing for the job of a create response without its credits where that job fails: the held price given back", async () => {
    const run = await billingRun({
      heldCredits: () => undefined,
      ends: (job) => (job.label === "D-A" ? "failed" : undefined),
    });
    expect(failures(run.results).map((failure) => failure.name)).toEqual([RESERVED]);
    expect(listed(run.results).slice(1)).toEqual(HONEST.slice(1).filter((line) => !line.includes(HELD)));
    // 12 for the succeeded job and 10 for the search: the 270 reserved was given back.
    expect(run.fake.balance).toBe(START - 22);
    expect(run.fake.creates).toHaveLength(5);
  });

  it("fails a refused create, naming its status", async () => {
    const run = await billingRun({
      create: (label) => (label === "D-A" ? { status: 500, body: LONG } : undefined),
    });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("D-A"),
        name: RESERVED,
        detail: `the create answered 500 without a job and its credits: ${JSON.stringify(LONG).slice(0, 200)}`,
      },
    ]);
    // The reservation it never made leaves the others' verdicts standing.
    expect(run.results.filter((result) => result.outcome === "pass")).toHaveLength(5);
  });

  it("judges the held price by the credits its create response names", async () => {
    // Held and charged 300, as named: the balance agrees with it.
    const run = await billingRun(heldAt(300));
    expect(listed(run.results)).toEqual(HONEST);
  });
});

describe("each job must end as its marker asks before its charge is judged", () => {
  it("fails a job that ends otherwise, and leaves it out of the verdict", async () => {
    const run = await billingRun({ ends: (job) => (job.outcome === "failed" ? "timeout" : undefined) });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-C"),
        name: `${FAILED_JOB}: the job ends failed`,
        detail: "the job ended timeout, so its charge cannot be judged",
      },
    ]);
    expect(listed(run.results).filter((line) => !line.includes(": the job ends"))).toEqual(
      HONEST.filter((line) => !line.includes(FAILED_JOB)),
    );
  });

  it("fails a job seen in no terminal status, naming why its polling stopped", async () => {
    const run = await billingRun({ lost: (job) => job.label === "I-A" });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-A"),
        name: `${SUCCEEDED}: the job ends succeeded`,
        detail: "the job ended without a terminal status (a poll answered 404), so its charge cannot be judged",
      },
    ]);
    expect(run.results.map((result) => result.name)).not.toContain(SUCCEEDED);
  });

  it("fails a create refused where a job should start, naming its answer", async () => {
    const run = await billingRun({
      create: (label) => (label === "I-E" ? { status: 500, body: LONG } : undefined),
    });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-E"),
        name: `${TIMED_OUT}: the job is created`,
        detail: `the create answered 500: ${JSON.stringify(LONG).slice(0, 200)}`,
      },
    ]);
    expect(run.results.filter((result) => result.outcome === "pass")).toHaveLength(6);
  });

  it("fails a moderation block answered without the restriction reason, or with another status", async () => {
    const plain = {
      error: { type: "invalid_request_error", code: "invalid_request", message: "Rejected. ".repeat(25) },
    };
    const withReason = { error: "Blocked.", restriction_reason: "input_csam" };
    const [refused, forbidden] = await Promise.all([
      billingRun({ create: (label) => (label === "I-J" ? { status: 400, body: plain } : undefined) }),
      billingRun({ create: (label) => (label === "I-J" ? { status: 403, body: withReason } : undefined) }),
    ]);
    expect(failures(refused.results)).toEqual([
      {
        route: routeOf("I-J"),
        name: `${MODERATION}: the request is blocked`,
        detail: `answered 400, not the moderation block: ${JSON.stringify(plain).slice(0, 200)}`,
      },
    ]);
    expect(failures(forbidden.results)).toEqual([
      {
        route: routeOf("I-J"),
        name: `${MODERATION}: the request is blocked`,
        detail: `answered 403, not the moderation block: ${JSON.stringify(withReason)}`,
      },
    ]);
    // The others are judged all the same.
    expect(listed(refused.results).filter((line) => line.endsWith("pass"))).toEqual(
      HONEST.filter((line) => !line.includes(MODERATION)),
    );
  });
});

describe("a job that ends otherwise than its marker asked, yet succeeds, is charged its quote all the same", () => {
  it("fails a request the target did not block, counting its job's charge (65), not the failed and timed-out jobs', whose quotes add up to it", async () => {
    const run = await billingRun({ unmoderated: true });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-J"),
        name: `${MODERATION}: the request is blocked`,
        detail: "the job ended succeeded, so its charge cannot be judged",
      },
    ]);
    expect(run.fake.balance).toBe(START - 292 - 65);
    expect(listed(run.results).filter((line) => line.endsWith("pass"))).toEqual(
      HONEST.filter((line) => !line.includes(MODERATION)),
    );
  });

  it("fails a failed job's marker the target ignored, its charge (25) not blamed on the fall", async () => {
    const run = await billingRun({ ends: (job) => (job.outcome === "failed" ? "succeeded" : undefined) });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-C"),
        name: `${FAILED_JOB}: the job ends failed`,
        detail: "the job ended succeeded, so its charge cannot be judged",
      },
    ]);
  });
});

describe("a fall the check's own quotes explain names the jobs charged otherwise", () => {
  const explained = (fell: number, credits: number, was: boolean) =>
    `total_available fell by ${fell} for this check's requests, which is ${was ? "" : "not "}explained by charging its ${credits} credits`;

  it("fails a failed job charged its quote (270 + 12 + 25), the others passing", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "I-C" ? 25 : undefined) });
    expect(failures(run.results)).toEqual([
      { route: routeOf("I-C"), name: FAILED_JOB, detail: explained(307, 25, true) },
    ]);
    expect(run.results).toHaveLength(HONEST.length);
  });

  it("fails a timed-out job charged its quote (270 + 12 + 40)", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "I-E" ? 40 : undefined) });
    expect(failures(run.results)).toEqual([
      { route: routeOf("I-E"), name: TIMED_OUT, detail: explained(322, 40, true) },
    ]);
  });

  it("fails a succeeded job charged nothing (270 alone)", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "I-A" ? 0 : undefined) });
    expect(failures(run.results)).toEqual([
      { route: routeOf("I-A"), name: SUCCEEDED, detail: explained(270, 12, false) },
    ]);
  });

  it("fails a held price given back although its job succeeded (12 alone)", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "D-A" ? 0 : undefined) });
    expect(failures(run.results)).toEqual([{ route: routeOf("D-A"), name: HELD, detail: explained(12, 270, false) }]);
    // The reservation itself was made.
    expect(run.results[0]).toMatchObject({ name: RESERVED, outcome: "pass" });
  });

  it("passes a fall equal to the quotes that should be charged though another set adds up to it too: a held price of 65 beside I-J's 65 (65 + 12)", async () => {
    const run = await billingRun(heldAt(65));
    expect(listed(run.results)).toEqual(HONEST);
    // Nothing measured again alone.
    expect(run.fake.creates).toHaveLength(5);
  });
});

describe("a fall no set of the check's quotes explains: each request is measured again alone", () => {
  const alone = (what: string, ended: string, fell: number, quote: number) =>
    `measured alone, ${what} (${ended}) made total_available fall by ${fell}; its quote is ${quote}`;

  it("names the request charged otherwise than its quote (13 for I-A's 12), the others passing alone", async () => {
    const run = await billingRun({
      charge: (job) => (job.label === "I-A" && job.outcome === "succeeded" ? 13 : undefined),
    });
    expect(listed(run.results)).toEqual([
      `${routeOf("D-A")} | ${RESERVED} | pass`,
      `${routeOf("I-A")} | ${SUCCEEDED} | fail`,
      `${routeOf("I-C")} | ${FAILED_JOB} | pass`,
      `${routeOf("I-E")} | ${TIMED_OUT} | pass`,
      `${routeOf("I-J")} | ${MODERATION} | pass`,
      `${routeOf("D-A")} | ${HELD} | pass`,
    ]);
    const failure = run.results[1]!;
    expect(failure.detail).toBe(alone(`${routeOf("I-A")} "text-to-image"`, "ended succeeded", 13, 12));
    expect(failure.curl).toContain(createOf("I-A").path);
    // Each of the five sent again alone, after the two reads around the measurement and the one after it.
    expect(run.fake.creates.map((create) => create.label).slice(5)).toEqual(["I-A", "I-C", "I-E", "I-J", "D-A"]);
    // Measured alone, each goes where it went in the measurement: the moderation block to the target.
    expect(run.fake.creates.slice(5).map(({ label, via }) => `${label} ${via}`)).toEqual([
      "I-A proxy",
      "I-C proxy",
      "I-E proxy",
      "I-J target",
      "D-A proxy",
    ]);
    expect(run.fake.events.filter((event) => event.startsWith("read"))).toHaveLength(3 + 2 * 5);
  });

  it("names a moderation block that was charged, by its body (no example) and its answer, where two sets of quotes explain the fall", async () => {
    // 65 more: I-J's own price, which I-C's and I-E's (25 + 40) add up to as well.
    const run = await billingRun({ blocked: 65 });
    const blocked = run.results.filter((result) => result.outcome === "fail");
    expect(blocked.map(({ route, name }) => [route, name])).toEqual([[routeOf("I-J"), MODERATION]]);
    // The body's first 120 characters stand for it.
    const [, body] =
      /^measured alone, \S+ \S+ (.*) \(answered 400\) made total_available fall by 65; its quote is 0$/.exec(
        blocked[0]?.detail ?? "",
      ) ?? ["", ""];
    expect(body).toHaveLength(120);
    expect(body).toMatch(/^\{"prompt":".* \[sandbox:moderation=input_csam\]",/);
    expect(blocked[0]?.detail?.startsWith(`measured alone, ${routeOf("I-J")} {`)).toBe(true);
    expect(run.fake.searches).toEqual([]);
  });

  it("fails the fall itself where every request, measured alone, is charged its quote", async () => {
    // Only the first I-A job is charged one credit more: together, not alone.
    let first = true;
    const run = await billingRun({
      charge: (job) => {
        if (job.label !== "I-A" || !first) return undefined;
        first = false;
        return 13;
      },
    });
    expect(failures(run.results)).toEqual([
      {
        route: "*",
        name: TOGETHER,
        detail:
          "total_available fell by 283 while jobs quoted 282 ran together, yet each, measured alone, was charged its quote",
      },
    ]);
    expect(run.results.filter((result) => result.outcome === "pass")).toHaveLength(6);
  });

  it("expects nothing charged for a request measured alone whose job did not succeed", async () => {
    // I-A's first job is charged 13; measured alone, its job fails and is charged nothing.
    const seen: string[] = [];
    const run = await billingRun({
      ends: (job) => {
        if (job.label !== "I-A") return undefined;
        if (!seen.includes(job.id)) seen.push(job.id);
        return seen.indexOf(job.id) === 0 ? undefined : "failed";
      },
      charge: (job) => (job.label === "I-A" && seen.indexOf(job.id) === 0 ? 13 : undefined),
    });
    expect(run.results.find((result) => result.name === SUCCEEDED)?.outcome).toBe("pass");
    expect(failures(run.results)).toEqual([
      {
        route: "*",
        name: TOGETHER,
        detail:
          "total_available fell by 283 while jobs quoted 282 ran together, yet each, measured alone, was charged its quote",
      },
    ]);
  });

  it("does not measure again alone a job run beside it that was not charged (it failed)", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "I-A" ? 13 : undefined) }, {}, (session) => {
      const { op, spec } = requestOf(session, "I-E", FAILED);
      return chargedCreate(session.main, op, spec, 40);
    });
    expect(failures(run.results).map((failure) => failure.name)).toEqual([SUCCEEDED]);
    // Five and the one beside in the measurement; only the five alone.
    expect(run.fake.creates.map((create) => create.label).slice(6)).toEqual(["I-A", "I-C", "I-E", "I-J", "D-A"]);
  });

  it("fails, and stops measuring, when a read around a request measured alone is refused", async () => {
    const over = (job: FakeJob) => (job.label === "I-A" ? 13 : undefined);
    const [beforeIt, afterIt] = await Promise.all([
      billingRun({ charge: over, balance: (n) => (n === 4 ? { status: 503, body: { at: "before" } } : undefined) }),
      billingRun({ charge: over, balance: (n) => (n === 5 ? { status: 502, body: { at: "after" } } : undefined) }),
    ]);
    for (const [run, detail] of [
      [beforeIt, 'GET /v1/account/credits answered 503: {"at":"before"}'],
      [afterIt, 'GET /v1/account/credits answered 502: {"at":"after"}'],
    ] as const) {
      expect(listed(run.results)).toEqual([`${routeOf("D-A")} | ${RESERVED} | pass`, `* | ${READ} | fail`]);
      expect(run.results[1]?.detail).toBe(detail);
    }
  });
});

describe("jobs of other checks run beside the measurement", () => {
  it("counts a job run beside it at its quote: the balance then agrees", async () => {
    const run = await billingRun({}, {}, (session) => {
      const { op, spec } = requestOf(session, "I-E");
      return chargedCreate(session.main, op, spec, 40);
    });
    expect(listed(run.results)).toEqual(HONEST);
    expect(run.fake.balance).toBe(START - 292 - 40);
    // It ran within the measurement: before the read after the jobs.
    expect(run.fake.events.indexOf("ended I-E succeeded")).toBeLessThan(run.fake.events.indexOf("read 3"));
  });

  it("counts nothing for a job beside it that was not charged (it failed)", async () => {
    const run = await billingRun({}, {}, (session) => {
      const { op, spec } = requestOf(session, "I-E", FAILED);
      return chargedCreate(session.main, op, spec, 40);
    });
    expect(listed(run.results)).toEqual(HONEST);
  });

  it("names a job beside it charged otherwise, measured alone", async () => {
    const run = await billingRun(
      { charge: (job) => (job.label === "I-E" && job.outcome === "succeeded" ? 45 : undefined) },
      {},
      (session) => {
        const { op, spec } = requestOf(session, "I-E");
        return chargedCreate(session.main, op, spec, 40);
      },
    );
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-E"),
        name: BESIDE,
        detail: `measured alone, ${routeOf("I-E")} "text-to-image" (ended succeeded) made total_available fall by 45; its quote is 40`,
      },
    ]);
    // Measured alone last, through the validation proxy's place as the description holds it valid.
    expect(run.fake.creates.at(-1)).toMatchObject({ label: "I-E", via: "proxy" });
    expect(run.fake.creates.at(-1)?.prompt).not.toContain("[sandbox:");
  });

  it("measures a request beside it once, under the check's own name, where it is the check's own request too", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "I-A" ? 13 : undefined) }, {}, (session) => {
      const { op, spec } = requestOf(session, "I-A");
      return chargedCreate(session.main, op, spec, 12);
    });
    expect(failures(run.results).map((failure) => failure.name)).toEqual([SUCCEEDED]);
    // Two in the measurement, one alone.
    expect(run.fake.creates.filter((create) => create.label === "I-A")).toHaveLength(3);
  });

  it("judges by its own quotes a fall they explain beside a job no other check pledged: the failed job charged its quote (25)", async () => {
    const run = await billingRun({ charge: (job) => (job.label === "I-C" ? 25 : undefined) }, {}, (session) => {
      const { op, spec } = requestOf(session, "I-E");
      return chargedCreate(session.main, op, spec, 40);
    });
    expect(failures(run.results)).toEqual([
      {
        route: routeOf("I-C"),
        name: FAILED_JOB,
        detail: "total_available fell by 307 for this check's requests, which is explained by charging its 25 credits",
      },
    ]);
    // Nothing measured again alone: the five and the one beside.
    expect(run.fake.creates).toHaveLength(6);
  });

  it("leaves room for the jobs that fill the cap's round beside its own four: six of ten, a seventh waits until it is done", async () => {
    const done: number[] = [];
    const run = await billingRun({}, {}, (session, fake) => {
      const { op, spec } = requestOf(session, "I-A");
      return Promise.all(
        Array.from({ length: 7 }, (_, n) =>
          session.main.charges.charge(1, async (report) => {
            fake.debit(1);
            fake.events.push(`beside ${n}`);
            report({ what: `beside ${n}`, credits: 1, charged: () => true, op, spec });
            done.push(n);
          }),
        ),
      );
    });
    expect(listed(run.results)).toEqual(HONEST);
    const events = run.fake.events;
    const inside = events.filter((event, index) => event.startsWith("beside") && index < events.indexOf("read 3"));
    expect(inside).toHaveLength(6);
    expect(events.at(-1)).toBe("beside 6");
    expect(done).toHaveLength(7);
  });
});

describe("charges another check pledged to the measurement", () => {
  /** One pledged charge of 40 credits that takes `debit` from the account, and the verdicts it is told. */
  function pledged(debit: number) {
    const verdicts: boolean[] = [];
    const before = async (session: Session, fake: Fake) => {
      const { op, spec } = requestOf(session, "I-E");
      await session.main.charges.pledge(1).charge(async (report) => {
        fake.debit(debit);
        report({
          what: "pledged",
          credits: 40,
          charged: () => true,
          op,
          spec,
          verdict: (agreed) => void verdicts.push(agreed),
        });
      });
    };
    return { verdicts, before };
  }

  it("tells it the balance agreed with every quote, and judges its own", async () => {
    const { verdicts, before } = pledged(40);
    const run = await billingRun({}, {}, undefined, before);
    expect(listed(run.results)).toEqual(HONEST);
    expect(verdicts).toEqual([true]);
  });

  it("tells it the balance disagreed, measures its own requests alone without blaming the pledged one's difference on them, and blames the fall on nobody", async () => {
    // 25 more than pledged: what I-C's failed job would cost, had it been charged.
    const { verdicts, before } = pledged(65);
    const run = await billingRun({}, {}, undefined, before);
    expect(verdicts).toEqual([false]);
    expect(listed(run.results)).toEqual(HONEST.slice(0, -1));
    // Each of its own five measured alone, the pledged one not (its check measures it).
    expect(run.fake.creates).toHaveLength(10);
  });
});

describe("a search priced per request (10 credits per search)", () => {
  it("fails a search charged otherwise", async () => {
    const run = await billingRun({ search: 20 });
    expect(failures(run.results)).toEqual([
      { route: SEARCH, name: SEARCHED, detail: "total_available fell by 20; the search costs 10" },
    ]);
  });

  it("fails a search refused, naming its status", async () => {
    const run = await billingRun({ search: { status: 403, body: {} } });
    expect(failures(run.results)).toEqual([{ route: SEARCH, name: SEARCHED, detail: "the search answered 403" }]);
    expect(run.results.at(-1)?.curl).toContain("/v1/stock/images");
  });

  it("fails when the balance after the search cannot be read", async () => {
    const run = await billingRun({ balance: (n) => (n === 4 ? { status: 503, body: {} } : undefined) });
    expect(failures(run.results)).toEqual([
      { route: SEARCH, name: SEARCHED, detail: "GET /v1/account/credits answered 503: {}" },
    ]);
  });

  it("sends none where no route is priced per request", async () => {
    const run = await billingRun({}, { areas: ["images", "3d", "account"] });
    expect(listed(run.results)).toEqual(HONEST.slice(0, -1));
    expect(run.fake.searches).toEqual([]);
  });
});

describe("the outcomes it cannot try are skipped, saying why", () => {
  it("skips the failed, timed-out and blocked requests where the declaration gives no outcomeMarkers", async () => {
    const run = await billingRun({}, { outcomeMarkers: {} });
    expect(run.results.slice(0, 3)).toEqual(
      [FAILED_JOB, TIMED_OUT, MODERATION].map((name) =>
        expect.objectContaining({
          route: "*",
          name,
          outcome: "skip",
          detail: "the declaration gives no outcomeMarkers for it",
        }),
      ),
    );
    expect(run.statuses).toContain("following 2 jobs");
    expect(listed(run.results.slice(3))).toEqual([HONEST[0], HONEST[1], HONEST[5], HONEST[6]]);
  });

  /** The failed, timed-out and blocked requests skipped: no route can take their marker. */
  const NO_MARKED_ROUTE = [FAILED_JOB, TIMED_OUT, MODERATION].map((name) =>
    expect.objectContaining({
      route: "*",
      name,
      outcome: "skip",
      detail: "no implemented create route takes a prompt for the marker",
    }),
  );

  it("skips them where no other route of exact price outside any family takes a prompt", async () => {
    const run = await billingRun({}, { models: ["I-A", "I-B", "I-K", "D-A", "MC-A"] });
    expect(run.results.slice(0, 3)).toEqual(NO_MARKED_ROUTE);
  });

  it("gives no marker to a prompted route whose price is not shown (I-D), skipping the outcomes instead", async () => {
    const run = await billingRun({}, { areas: ["images", "account"], models: ["I-A", "I-D"] });
    expect(run.results.slice(0, 3)).toEqual(NO_MARKED_ROUTE);
    expect(run.fake.creates.map((create) => create.label)).toEqual(["I-A"]);
  });

  it("takes no route whose price is not shown (I-D) for the succeeded job: run where blockedBy would stop it, it sends nothing", async () => {
    const config: Partial<TargetConfig> = { areas: ["images", "account"], models: ["I-D"] };
    expect(billing.blockedBy?.(sessionOf(config))).toBe("no implemented create request has an exact standard price");
    const run = await billingRun({}, config);
    expect(run.results.filter((result) => result.outcome !== "skip")).toEqual([]);
    expect(run.fake.creates).toEqual([]);
  });

  it("tries only the outcomes whose marker is declared", async () => {
    const run = await billingRun({}, { outcomeMarkers: { failed: FAILED } });
    expect(run.results.filter((result) => result.outcome === "skip").map((result) => result.name)).toEqual([
      TIMED_OUT,
      MODERATION,
    ]);
    expect(run.results.find((result) => result.name === FAILED_JOB)).toMatchObject({
      route: routeOf("I-C"),
      outcome: "pass",
    });
  });

  it("creates no held job where no held price is implemented", async () => {
    const run = await billingRun({}, { areas: ["images", "account", "stock"] });
    expect(run.statuses).toEqual(["reading the balance", "following 3 jobs"]);
    expect(listed(run.results)).toEqual([HONEST[1], HONEST[2], HONEST[3], HONEST[4], HONEST[6]]);
  });
});

describe("what the billing check needs and spends", () => {
  it("needs a stateful target, standardPrices, the credits route and a create of exact standard price", () => {
    const blocked = (config: Partial<TargetConfig>) => billing.blockedBy?.(sessionOf(config));
    expect(blocked({ stateful: false })).toBe("the target is stateless");
    expect(blocked({ standardPrices: false })).toBe(
      "not declared: the account pays standard prices, so that its balance can be predicted (standardPrices)",
    );
    expect(blocked({ areas: ["images", "stock"] })).toBe("the target does not implement the credits route");
    // I-D's price is not shown; DM-A's is only a bound ("at most").
    expect(blocked({ areas: ["images", "depth-maps", "account"], models: ["I-D", "DM-A"] })).toBe(
      "no implemented create request has an exact standard price",
    );
    expect(blocked({ areas: ["images", "account"], models: ["I-D", "I-A"] })).toBeNull();
    expect(blocked({})).toBeNull();
    expect(STANDARD_PRICES.field).toBe("standardPrices");
  });

  it("estimates the succeeded job (12), the held price (270) and the search (10), all on the main key", () => {
    const spends = billing.spend?.(sessionOf()) ?? [];
    expect(spends.map((spend) => [spend.key, spend.what, spend.price.credits])).toEqual([
      ["main", `${routeOf("I-A")} (billing)`, 12],
      ["main", `${routeOf("D-A")} (billing)`, 270],
      ["main", `${SEARCH} (billing)`, 10],
    ]);
    expect(billing.spend?.(sessionOf({ areas: ["account"] }))).toEqual([]);
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`billing\` | ${billing.summary} |`);
  });
});
