/**
 * The plan-prices check (conformance/checks/plan-prices.ts) run on a session of the test's own
 * against a scripted service on 127.0.0.1: creates of any model start a job that the first poll
 * sees `succeeded`, which is when the account is charged what the test says, and
 * `GET /v1/account/credits` reads each key's `total_available`. Specification: "A plan's model
 * discounts and active promotions apply to API charges"; the Pro and Ultra plans' daily allowance
 * "is a shared pool of free generations per day across qualified image models, and it covers API
 * requests. The standard price applies once the day's pool is used." The discount, the pool's size
 * and its models are the declaration's (planDiscounts, freePool). Standard prices written out from
 * the specification: I-A 12 credits at 1K, I-B 50 (low quality, 1K), I-C a flat 25 per image, D-A
 * 270 without texture. An honest service passes; a charge that ignores the discount or the pool, a
 * refused create, a failed job and an unreadable balance each fail, the detail naming what was seen.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { discounted, planPrices, POOL_RENEWAL_MS } from "../../conformance/checks/plan-prices.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import type { JsonSchema } from "../../model/document.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, NOWHERE } from "./support/check-session.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const DISCOUNT_KEY = "sandbox-discount-key";
const POOL_KEY = "sandbox-pro-key";
const START_BALANCE = 10_000;

const routeOf = (label: string): string =>
  (contract.operations.find((op) => op.create?.label === label) as ContractOperation).route;

const DISCOUNTED = (label: string, percent: number) =>
  `a create of ${label} is charged its price less the plan's discount (${percent} %)`;
const POOL = (count: number) => `the day's free pool pays ${count} creates across its models`;
const AFTER_POOL = "once the day's pool is used, a create is charged its price";

/** One create the scripted service received. */
interface Create {
  readonly key: string;
  readonly label: string;
  readonly body: Record<string, unknown>;
}

/** What the service does with a create: the status it answers, the job's end, what success charges. */
interface Handling {
  readonly status?: number;
  /** The create answer names no id. */
  readonly noId?: boolean;
  readonly terminal?: string;
  readonly charge: number;
}

interface Service {
  /** How each create is handled; `earlier` are the creates before it, with its key. */
  readonly create: (create: Create, earlier: Create[]) => Handling;
  /** The credits route's answer for a key's nth read (1-based); default the balance. */
  readonly credits?: (key: string, read: number, balance: number) => { status: number; body: unknown };
}

interface PlanRun {
  readonly results: CheckResult[];
  readonly creates: Create[];
  readonly statuses: string[];
  readonly session: Session;
}

/** A refusal longer than the 200 characters a detail quotes of it. */
const REFUSAL = { error: { code: "refused", message: "This key's plan starts no job of this model. ".repeat(5) } };
const REFUSAL_QUOTED = JSON.stringify(REFUSAL).slice(0, 200);

/** The label of the create route at `path`, with this build's slug. */
const labelAt = (path: string): string | undefined =>
  contract.operations.find((op) => op.create && op.path === path)?.create?.label;

/** The check run alone against the scripted service. */
async function planRun(
  service: Service,
  config: Partial<TargetConfig>,
  before?: (session: Session) => void,
  of = contract,
) {
  const creates: Create[] = [];
  const balances = new Map<string, number>();
  const reads = new Map<string, number>();
  const jobs = new Map<string, { handling: Handling; key: string; charged: boolean }>();
  const server = await serveOnLoopback((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const key = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      const balance = balances.get(key) ?? START_BALANCE;
      const reply = (status: number, body: unknown) =>
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      const label = request.method === "POST" ? labelAt(path) : undefined;
      if (path === "/v1/account/credits") {
        const read = (reads.get(key) ?? 0) + 1;
        reads.set(key, read);
        const answer = service.credits?.(key, read, balance) ?? { status: 200, body: { total_available: balance } };
        return reply(answer.status, answer.body);
      }
      if (label) {
        const create = { key, label, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
        const handling = service.create(
          create,
          creates.filter((earlier) => earlier.key === key),
        );
        creates.push(create);
        if (handling.status !== undefined && handling.status !== 200) return reply(handling.status, REFUSAL);
        const id = `job_${jobs.size + 1}`;
        jobs.set(id, { handling, key, charged: false });
        return reply(200, { ...(handling.noId ? {} : { id }), status: "pending", message: "Job accepted." });
      }
      const job = jobs.get(path.split("/").at(-1) ?? "");
      if (request.method === "GET" && job) {
        const terminal = job.handling.terminal ?? "succeeded";
        if (terminal === "succeeded" && !job.charged) {
          job.charged = true;
          balances.set(job.key, (balances.get(job.key) ?? START_BALANCE) - job.handling.charge);
        }
        return reply(200, { status: terminal });
      }
      return reply(404, { error: { code: "not_found", message: "No such route." } });
    });
  });
  try {
    const session = sessionOf(config, server.url, of);
    before?.(session);
    const statuses: string[] = [];
    await planPrices.run?.({ session, stage: async () => {}, status: (text) => statuses.push(text) });
    return { results: session.results.all, creates, statuses, session } satisfies PlanRun;
  } finally {
    await server.close();
  }
}

/**
 * A session with neither plan declared unless `config` declares one; jobs polled at once, no stable
 * polls. The requests the description holds valid go to `target` (where a validation proxy would
 * be), the others to a port where nothing answers.
 */
function sessionOf(config: Partial<TargetConfig> = {}, target?: string, of = contract): Session {
  return checkSession({
    contract: of,
    config: {
      ...declared,
      stateful: true,
      planDiscounts: undefined,
      freePool: undefined,
      poll: { intervalMs: 1, timeoutSeconds: 5, stablePolls: 0 },
      ...config,
    },
    target,
    targetUrl: NOWHERE,
    proxied: false,
    apiKey: declared.apiKey as string,
  });
}

/** `route name -> [outcome, detail?]` of the results. */
const judged = (results: CheckResult[]) =>
  Object.fromEntries(
    results.map((result) => [
      `${result.route} ${result.name}`,
      result.detail === undefined ? [result.outcome] : [result.outcome, result.detail],
    ]),
  );

// The standard prices of the requests the check sends, from the specification.
const STANDARD: Record<string, number> = { "I-A": 12, "I-B": 50, "I-C": 25, "D-A": 270 };

/** A plan discounting each of `percents` models, charging the lower whole number of its discounted price. */
const discounting =
  (percents: Record<string, number>, round: (credits: number) => number = Math.floor) =>
  (create: Create): Handling => ({
    charge: round(((STANDARD[create.label] as number) * (100 - (percents[create.label] ?? 0))) / 100),
  });

const NO_POOL_SKIP = {
  "* the day's free pool pays its creates across its models": [
    "skip",
    "not declared: a key whose day's free pool is unused (freePool)",
  ],
};
const NO_DISCOUNTS_SKIP = {
  "* a create of a discounted model is charged its price less the plan's discount": [
    "skip",
    "not declared: a key whose plan's model discounts are given (planDiscounts)",
  ],
};

describe("the discounts a plan gives, exact or rounded either way", () => {
  it("takes the exact discounted price, or both whole numbers next to it", () => {
    // 15 % off 12 credits is 10.2: 10 or 11.
    expect(discounted(12, 15)).toEqual([10, 11]);
    // 10 % off 50 is 45 exactly.
    expect(discounted(50, 10)).toEqual([45]);
    expect(discounted(270, 50)).toEqual([135]);
    expect(discounted(50, 0)).toEqual([50]);
  });
});

describe("the plan-prices check on planDiscounts", () => {
  const planDiscounts = { apiKey: DISCOUNT_KEY, models: { "I-A": 15, "I-B": 10 } };

  it("passes each discounted model charged its standard price less the discount, one job each with the discount key", async () => {
    const run = await planRun({ create: discounting(planDiscounts.models) }, { planDiscounts });
    expect(judged(run.results)).toEqual({
      ...NO_POOL_SKIP,
      [`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]: ["pass"],
      [`${routeOf("I-B")} ${DISCOUNTED("I-B", 10)}`]: ["pass"],
    });
    // Each model's cheapest example at its standard price, as the description gives it.
    expect(run.creates).toEqual([
      { key: DISCOUNT_KEY, label: "I-A", body: { prompt: "A lighthouse on a cliff at dawn, watercolor" } },
      {
        key: DISCOUNT_KEY,
        label: "I-B",
        body: {
          prompt: "A paper boat on a rain puddle, macro photo",
          aspect_ratio: "3:2",
          num_images: 1,
          quality: "low",
          size: "1K",
        },
      },
    ]);
    expect(run.statuses).toEqual(["charging jobs on the declared plans"]);
    expect(new Set(run.results.map((result) => result.group))).toEqual(new Set([planPrices.group]));
    expect(planPrices.group).toBe("plan-prices");
  });

  it("takes the discounted price rounded up as well as down", async () => {
    const run = await planRun({ create: discounting(planDiscounts.models, Math.ceil) }, { planDiscounts });
    expect(run.results.map((result) => result.outcome)).toEqual(["skip", "pass", "pass"]);
  });

  it("fails a model charged its standard price, naming the fall of the balance and the prices allowed", async () => {
    const run = await planRun({ create: discounting({ "I-B": 10 }) }, { planDiscounts });
    expect(judged(run.results)).toMatchObject({
      [`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]: [
        "fail",
        "total_available fell by 12; the standard price is 12, less 15 % 10 or 11",
      ],
      [`${routeOf("I-B")} ${DISCOUNTED("I-B", 10)}`]: ["pass"],
    });
    const failed = run.results.find((result) => result.outcome === "fail");
    expect(failed?.curl).toContain(`${NOWHERE}${routeOf("I-A").split(" ")[1]}`);
  });

  it("fails a model discounted too much: 9 % off 50 is 45.5, so 45 or 46, not 44", async () => {
    const run = await planRun(
      { create: (create) => ({ charge: create.label === "I-B" ? 44 : 10 }) },
      { planDiscounts: { apiKey: DISCOUNT_KEY, models: { "I-B": 9 } } },
    );
    expect(judged(run.results)[`${routeOf("I-B")} ${DISCOUNTED("I-B", 9)}`]).toEqual([
      "fail",
      "total_available fell by 44; the standard price is 50, less 9 % 45 or 46",
    ]);
  });

  it("sends the cheapest example of exact standard price, one image where the body counts them", async () => {
    // createExamples all: I-C's text-to-image asks for two 2K images (50), made one (25), the first of
    // the two at 25; D-A's cheapest is its last example, the plain shape (270).
    const run = await planRun(
      { create: discounting({ "I-C": 20, "D-A": 50 }) },
      { createExamples: "all", planDiscounts: { apiKey: DISCOUNT_KEY, models: { "I-C": 20, "D-A": 50 } } },
    );
    expect(judged(run.results)).toMatchObject({
      [`${routeOf("I-C")} ${DISCOUNTED("I-C", 20)}`]: ["pass"],
      [`${routeOf("D-A")} ${DISCOUNTED("D-A", 50)}`]: ["pass"],
    });
    expect(run.creates.map((create) => [create.label, create.body])).toEqual([
      [
        "I-C",
        {
          prompt: "Isometric illustration of a tiny greenhouse",
          aspect_ratio: "4:3",
          background: "opaque",
          num_images: 1,
          size: "2K",
        },
      ],
      ["D-A", expect.objectContaining({ texture: false })],
    ]);
  });

  it("keeps the count of images where one image would make the body invalid", async () => {
    // A description asking I-C for two images at least: its text-to-image stays two, 50 credits (20 % off: 40);
    // the cutout's one image has no price there.
    const doc = structuredClone(contract.doc);
    const body = doc.paths[routeOf("I-C").split(" ")[1]!]?.post?.requestBody as {
      content: Record<string, { schema: { properties: Record<string, JsonSchema> } }>;
    };
    body.content["application/json"]!.schema.properties.num_images = { type: "integer", minimum: 2, maximum: 4 };
    const run = await planRun(
      { create: () => ({ charge: 40 }) },
      { createExamples: "all", planDiscounts: { apiKey: DISCOUNT_KEY, models: { "I-C": 20 } } },
      undefined,
      new Contract(doc),
    );
    expect(run.results.map((result) => result.outcome)).toEqual(["skip", "pass"]);
    expect(run.creates.map((create) => create.body)).toEqual([
      {
        prompt: "Isometric illustration of a tiny greenhouse",
        aspect_ratio: "4:3",
        background: "opaque",
        num_images: 2,
        size: "2K",
      },
    ]);
  });

  it("skips a model it cannot charge: not implemented, its jobs not followable, or no exact standard price", async () => {
    const models = { "I-B": 10, "VU-A": 10, "DM-A": 10, "I-D": 10 };
    const run = await planRun(
      { create: discounting(models) },
      {
        planDiscounts: { apiKey: DISCOUNT_KEY, models },
        models: ["I-A", "VU-A", "DM-A", "I-D"],
        jobIdFields: {},
      },
    );
    expect(judged(run.results)).toEqual({
      ...NO_POOL_SKIP,
      [`* ${DISCOUNTED("I-B", 10)}`]: ["skip", "I-B is not implemented (models, areas)"],
      [`* ${DISCOUNTED("VU-A", 10)}`]: [
        "skip",
        "VU-A's jobs cannot be followed (its create response names no id to poll)",
      ],
      // DM-A's price is at most one (its video's seconds), I-D's not shown.
      [`* ${DISCOUNTED("DM-A", 10)}`]: ["skip", "no create request of DM-A has an exact standard price"],
      [`* ${DISCOUNTED("I-D", 10)}`]: ["skip", "no create request of I-D has an exact standard price"],
    });
    expect(run.creates).toEqual([]);
  });

  it("fails a refused create, naming its answer, and goes on with the next model", async () => {
    const run = await planRun(
      { create: (create) => (create.label === "I-A" ? { status: 403, charge: 0 } : { charge: 45 }) },
      { planDiscounts },
    );
    expect(judged(run.results)).toMatchObject({
      [`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]: [
        "fail",
        `the create answered 403 without a job to follow: ${REFUSAL_QUOTED}`,
      ],
      [`${routeOf("I-B")} ${DISCOUNTED("I-B", 10)}`]: ["pass"],
    });
    expect(run.results[1]?.curl).toContain(NOWHERE);
  });

  it("fails a create whose answer names no job to follow", async () => {
    const run = await planRun({ create: () => ({ noId: true, charge: 0 }) }, { planDiscounts });
    expect(judged(run.results)[`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]).toEqual([
      "fail",
      'the create answered 200 without a job to follow: {"status":"pending","message":"Job accepted."}',
    ]);
  });

  it("fails a job that ends unsuccessful: what it would be charged cannot be seen", async () => {
    const run = await planRun(
      { create: (create) => (create.label === "I-A" ? { terminal: "failed", charge: 0 } : { charge: 45 }) },
      { planDiscounts },
    );
    expect(judged(run.results)).toMatchObject({
      [`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]: [
        "fail",
        "its job ended failed, not succeeded, so nothing it would be charged can be seen",
      ],
      [`${routeOf("I-B")} ${DISCOUNTED("I-B", 10)}`]: ["pass"],
    });
  });

  it("fails a model whose balance cannot be read, before the job or after it, and sends no create without a balance", async () => {
    // The first read of the balance (I-A's before) fails; then I-B's after.
    const answers: Record<number, { status: number; body: unknown }> = {
      1: { status: 500, body: { error: "down" } },
      3: { status: 200, body: { total_available: 12.5 } },
    };
    const run = await planRun(
      {
        create: discounting(planDiscounts.models),
        credits: (_key, read, balance) => answers[read] ?? { status: 200, body: { total_available: balance } },
      },
      { planDiscounts },
    );
    expect(judged(run.results)).toMatchObject({
      [`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]: [
        "fail",
        'GET /v1/account/credits answered 500: {"error":"down"}',
      ],
      [`${routeOf("I-B")} ${DISCOUNTED("I-B", 10)}`]: [
        "fail",
        'GET /v1/account/credits answered 200: {"total_available":12.5}',
      ],
    });
    expect(run.creates.map((create) => create.label)).toEqual(["I-B"]);
  });

  it("fails each model where the target does not implement the credits route", async () => {
    const run = await planRun(
      { create: discounting(planDiscounts.models) },
      {
        planDiscounts,
        areas: ["images"],
      },
    );
    expect(judged(run.results)).toMatchObject({
      [`${routeOf("I-A")} ${DISCOUNTED("I-A", 15)}`]: ["fail", "the target does not implement the credits route"],
    });
  });
});

describe("the plan-prices check on freePool", () => {
  const freePool = { apiKey: POOL_KEY, generations: 3, models: ["I-A", "I-B"] };
  /** An honest pool of `size` free creates of its models, then their standard prices. */
  const pooled =
    (size: number, models = freePool.models, percents: Record<string, number> = {}) =>
    (create: Create, earlier: Create[]): Handling => {
      const free = earlier.filter((one) => models.includes(one.label)).length < size && models.includes(create.label);
      return free ? { charge: 0 } : discounting(percents)(create);
    };

  afterEach(() => {
    vi.useRealTimers();
  });

  it("passes three free creates across the pool's models in turn, then the next charged its standard price", async () => {
    const started = Date.now();
    const run = await planRun({ create: pooled(3) }, { freePool });
    expect(judged(run.results)).toEqual({
      ...NO_DISCOUNTS_SKIP,
      [`* ${POOL(3)}`]: ["pass"],
      [`${routeOf("I-B")} ${AFTER_POOL}`]: ["pass"],
    });
    expect(run.creates.map((create) => [create.key, create.label])).toEqual([
      [POOL_KEY, "I-A"],
      [POOL_KEY, "I-B"],
      [POOL_KEY, "I-A"],
      [POOL_KEY, "I-B"],
    ]);
    // Said for the next run's report, which skips the pool for a day.
    expect(run.session.freePoolUsedAt).toBeGreaterThanOrEqual(started);
    expect(run.session.freePoolUsedAt).toBeLessThanOrEqual(Date.now());
  });

  it("fails a create the pool should pay, naming it, and creates no more", async () => {
    // A pool of one create: the second (I-B's) is charged its 50 credits.
    const run = await planRun({ create: pooled(1) }, { freePool });
    expect(judged(run.results)).toEqual({
      ...NO_DISCOUNTS_SKIP,
      [`${routeOf("I-B")} ${POOL(3)}`]: [
        "fail",
        "create 2 of 3 (I-B), which the pool should pay: total_available fell by 50, its price is 50",
      ],
    });
    expect(run.results.at(-1)?.curl).toContain(NOWHERE);
    expect(run.creates.map((create) => create.label)).toEqual(["I-A", "I-B"]);
  });

  it("fails a pool's create that is refused", async () => {
    const run = await planRun({ create: () => ({ status: 402, charge: 0 }) }, { freePool });
    expect(judged(run.results)[`${routeOf("I-A")} ${POOL(3)}`]).toEqual([
      "fail",
      `the create answered 402 without a job to follow: ${REFUSAL_QUOTED}`,
    ]);
  });

  it("fails a pool that is never used up: the create after it is charged nothing", async () => {
    const run = await planRun({ create: pooled(4) }, { freePool });
    expect(judged(run.results)).toMatchObject({
      [`* ${POOL(3)}`]: ["pass"],
      [`${routeOf("I-B")} ${AFTER_POOL}`]: [
        "fail",
        "after 3 free creates, one of I-B: total_available fell by 0; its price is 50",
      ],
    });
    expect(run.results.at(-1)?.curl).toContain(NOWHERE);
  });

  it("fails the create after the pool when its job fails", async () => {
    const run = await planRun(
      {
        create: (create, earlier) =>
          earlier.length === 3 ? { terminal: "timeout", charge: 0 } : pooled(3)(create, earlier),
      },
      { freePool },
    );
    expect(judged(run.results)[`${routeOf("I-B")} ${AFTER_POOL}`]).toEqual([
      "fail",
      "its job ended timeout, not succeeded, so nothing it would be charged can be seen",
    ]);
  });

  it("fails the pool when the balance cannot be read before it, without creating or saying the pool used", async () => {
    const run = await planRun(
      { create: pooled(3), credits: () => ({ status: 503, body: { error: "later" } }) },
      { freePool },
    );
    expect(judged(run.results)).toEqual({
      ...NO_DISCOUNTS_SKIP,
      [`* ${POOL(3)}`]: ["fail", 'GET /v1/account/credits answered 503: {"error":"later"}'],
    });
    expect(run.creates).toEqual([]);
    expect(run.session.freePoolUsedAt).toBeUndefined();
  });

  it("expects the create after the pool at the plan's discount where planDiscounts names the same key", async () => {
    // The pool pays I-A's create; I-B is discounted 10 % on this key, in the discounts' job and after the pool.
    const percents = { "I-B": 10 };
    const run = await planRun(
      { create: pooled(1, ["I-A"], percents) },
      {
        freePool: { apiKey: POOL_KEY, generations: 1, models: ["I-A", "I-B"] },
        planDiscounts: { apiKey: POOL_KEY, models: percents },
      },
    );
    expect(judged(run.results)).toEqual({
      [`${routeOf("I-B")} ${DISCOUNTED("I-B", 10)}`]: ["pass"],
      [`* ${POOL(1)}`]: ["pass"],
      [`${routeOf("I-B")} ${AFTER_POOL}`]: ["pass"],
    });
  });

  it("fails the create after the pool charged its standard price where the key's plan discounts it, naming both prices allowed", async () => {
    // 9 % off I-B's 50 credits is 45.5: 45 or 46. The pool pays I-A's create; I-B is charged 50 throughout.
    const run = await planRun(
      { create: pooled(1, ["I-A"]) },
      {
        freePool: { apiKey: POOL_KEY, generations: 1, models: ["I-A", "I-B"] },
        planDiscounts: { apiKey: POOL_KEY, models: { "I-B": 9 } },
      },
    );
    expect(judged(run.results)[`${routeOf("I-B")} ${AFTER_POOL}`]).toEqual([
      "fail",
      "after 1 free creates, one of I-B: total_available fell by 50; its price is 45 or 46",
    ]);
  });

  it("expects the standard price after the pool where planDiscounts is another key's or does not name the model", async () => {
    const others: Array<{ apiKey: string; models: Record<string, number> }> = [
      { apiKey: DISCOUNT_KEY, models: { "I-B": 10 } },
      { apiKey: POOL_KEY, models: { "I-C": 10 } },
    ];
    for (const planDiscounts of others) {
      const run = await planRun(
        { create: pooled(1, ["I-A"], { "I-C": 10 }) },
        { freePool: { apiKey: POOL_KEY, generations: 1, models: ["I-A", "I-B"] }, planDiscounts },
      );
      expect(judged(run.results)[`${routeOf("I-B")} ${AFTER_POOL}`], planDiscounts.apiKey).toEqual(["pass"]);
    }
  });

  it("skips the pool where one of its models cannot be charged, naming the first", async () => {
    const run = await planRun({ create: pooled(3) }, { freePool: { ...freePool, models: ["I-A", "I-D", "DM-A"] } });
    expect(judged(run.results)).toEqual({
      ...NO_DISCOUNTS_SKIP,
      [`* ${POOL(3)}`]: ["skip", "no create request of I-D has an exact standard price"],
    });
    expect(run.creates).toEqual([]);
  });

  it("skips the pool and what follows it within a day of an earlier run's use, sending nothing", async () => {
    // Date alone is faked, so that a day's bound is met to the millisecond.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-02T09:00:00Z") });
    const used = Date.now() - POOL_RENEWAL_MS + 1;
    const run = await planRun({ create: pooled(3) }, { freePool }, (session) =>
      Object.assign(session, { earlierFreePoolUse: used }),
    );
    const reason =
      "an earlier run on this target used freePool's pool at 2026-03-01T09:00:00.001Z (its report's freePoolUsedAt), and a day's pool may not be renewed for a day: declare a key whose pool is unused, or run this check a day later";
    expect(judged(run.results)).toEqual({
      ...NO_DISCOUNTS_SKIP,
      [`* ${POOL(3)}`]: ["skip", reason],
      [`* ${AFTER_POOL}`]: ["skip", reason],
    });
    expect(run.creates).toEqual([]);
  });

  it("uses the pool again a whole day after an earlier run's use", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-02T09:00:00Z") });
    const used = Date.now() - POOL_RENEWAL_MS;
    const run = await planRun({ create: pooled(3) }, { freePool }, (session) =>
      Object.assign(session, { earlierFreePoolUse: used }),
    );
    expect(run.results.map((result) => result.outcome)).toEqual(["skip", "pass", "pass"]);
    expect(run.creates).toHaveLength(4);
  });

  it("takes a day as 24 hours: the specification does not say when a day begins", () => {
    expect(POOL_RENEWAL_MS).toBe(86_400_000);
  });
});

describe("what the plan-prices check needs and spends", () => {
  const planDiscounts = { apiKey: DISCOUNT_KEY, models: { "I-A": 15, "DM-A": 10, "I-B": 10 } };
  const freePool = { apiKey: POOL_KEY, generations: 2, models: ["I-A", "I-B"] };

  it("needs a stateful target, a declared plan and the credits route", () => {
    expect(planPrices.blockedBy?.(sessionOf({ stateful: false, planDiscounts }))).toBe("the target is stateless");
    expect(planPrices.blockedBy?.(sessionOf())).toBe(
      "not declared: a key whose plan's model discounts are given (planDiscounts), or a key whose day's free pool is unused (freePool)",
    );
    expect(planPrices.blockedBy?.(sessionOf({ planDiscounts, areas: ["images"] }))).toBe(
      "the target does not implement the credits route",
    );
    expect(planPrices.blockedBy?.(sessionOf({ planDiscounts }))).toBeNull();
    expect(planPrices.blockedBy?.(sessionOf({ freePool }))).toBeNull();
  });

  it("estimates one job of each discounted model it can charge, at its standard price", () => {
    const spends = planPrices.spend?.(sessionOf({ planDiscounts })) ?? [];
    // DM-A's price is at most one: it is not charged.
    expect(spends).toEqual([
      {
        key: "plan discounts",
        what: `${routeOf("I-A")} (plan discount, at most)`,
        price: { credits: 12, atMost: false },
      },
      {
        key: "plan discounts",
        what: `${routeOf("I-B")} (plan discount, at most)`,
        price: { credits: 50, atMost: false },
      },
    ]);
  });

  it("estimates the pool's creates and the next across its models, each at its standard price", () => {
    const spends = planPrices.spend?.(sessionOf({ freePool })) ?? [];
    expect(spends.map((spend) => [spend.key, spend.what, spend.price.credits])).toEqual([
      ["free pool", `${routeOf("I-A")} (free pool, at most)`, 12],
      ["free pool", `${routeOf("I-B")} (free pool, at most)`, 50],
      ["free pool", `${routeOf("I-A")} (free pool, at most)`, 12],
    ]);
    expect(planPrices.spend?.(sessionOf({ planDiscounts, freePool }))).toHaveLength(5);
    expect(planPrices.spend?.(sessionOf())).toEqual([]);
  });

  it("names its results by templates of its rules", () => {
    expect(templateOf(planPrices, DISCOUNTED("I-A", 15))).toBe(
      "a create of {model} is charged its price less the plan's discount{percent}",
    );
    expect(templateOf(planPrices, POOL(3))).toBe("the day's free pool pays {count} creates across its models");
    expect(templateOf(planPrices, AFTER_POOL)).toBe(AFTER_POOL);
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`plan-prices\` | ${planPrices.summary} |`);
  });
});
