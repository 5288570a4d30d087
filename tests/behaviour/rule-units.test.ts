/**
 * The sandbox's rule code without HTTP: the cooldown's counting, the ledger's spend limit, the
 * fixed request windows, job timing and status progression, and the field names of a 400's
 * problems. Each case states a rule that mutation testing found no HTTP test held to.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { AreaModel, ServiceModel } from "../../model/service-model.ts";
import { Cooldowns } from "../../behaviour/cooldown.ts";
import { JobStore, type Job } from "../../behaviour/jobs.ts";
import { mediaDurationProblem, mediaDurations } from "../../behaviour/media.ts";
import { sandboxChoices, timingOf } from "../../sandbox/choices.ts";
import { Ledger } from "../../behaviour/ledger.ts";
import { durationIn, outcomeOf, priceFacts } from "../../sandbox/markers.ts";
import { FixedWindows, RollingWindow } from "../../behaviour/rate-windows.ts";
import { bodyShapeProblem, describeProblem, describeProblems } from "../../behaviour/validation.ts";
import { RULES, type Call } from "../../behaviour/rules.ts";
import { ServiceState } from "../../behaviour/state.ts";
import { resolveConfig, type SandboxConfig } from "../../sandbox/config.ts";
import { checkedSandboxes, configWith, example, KEY, model, routeWhere } from "../sandbox/support.ts";

const sandbox = checkedSandboxes();

/** A sandbox's state with the default config, for rules called one at a time. */
const serviceState = (config: SandboxConfig, of: ServiceModel = model): ServiceState =>
  new ServiceState(of, config, sandboxChoices(of, config));
const stateOf = (): ServiceState => serviceState(resolveConfig(configWith(), model));
/** The create operation of the route labelled `label`. */
const createOf = (label: string) => {
  const route = routeWhere((candidate) => candidate.label === label);
  return model.operations.find((op) => op.path === route.path && op.method === "post")!;
};
const requestSchemaOf = (label: string) => stateOf().requestSchemas.get(createOf(label).operationId)?.schema;
/** A call of `op` by the main key with `body`, before any rule has run. */
const callOf = (op: Call["op"], body: unknown): Call => ({
  op,
  params: {},
  query: new URLSearchParams(),
  ip: "127.0.0.1",
  key: KEY,
  authorization: `Bearer ${KEY}`,
  now: 0,
  text: body === undefined ? "" : JSON.stringify(body),
  contentType: body === undefined ? null : "application/json",
  utf8: true,
  account: null,
  body,
  window: null,
  quote: null,
  free: false,
  outcome: null,
});

describe("the cooldown", () => {
  const MINUTE = 60_000;
  // A pause longer than its growth step, so that a pause begun one failure early would still be running.
  const cooldowns = () =>
    new Cooldowns({ consecutiveFailures: 3, withinMs: 60 * MINUTE, pauseMs: 10 * MINUTE, growthMs: 2 * MINUTE });

  it("pauses nothing before the third consecutive failure, then pauses for the whole pause", () => {
    const family = cooldowns();
    family.failed("a", 0);
    family.failed("a", MINUTE);
    expect(family.pausedFor("a", MINUTE)).toBeNull();
    family.failed("a", 2 * MINUTE);
    expect(family.pausedFor("a", 2 * MINUTE)).toBe(600);
  });

  it("forgets a failure that ended exactly the window's length before the latest one", () => {
    const family = cooldowns();
    family.failed("a", 0);
    family.failed("a", 30 * MINUTE);
    family.failed("a", 60 * MINUTE);
    expect(family.pausedFor("a", 60 * MINUTE)).toBeNull();
  });

  it("keeps a pause known from outside until it ends, in whole seconds rounded up", () => {
    const family = cooldowns();
    family.pause("a", 90_500);
    expect([family.pausedFor("a", 0), family.pausedFor("a", 90_499), family.pausedFor("a", 90_500)]).toEqual([
      91,
      1,
      null,
    ]);
    expect(family.pausedFor("b", 0)).toBeNull();
  });

  it("is the same plain data whatever order its families were heard of in: the oracle tells states apart by it", () => {
    const heard = (ids: string[]) => {
      const family = cooldowns();
      for (const id of ids) family.failed(id, 0);
      return family.snapshot();
    };
    expect(heard(["b", "a"])).toEqual(heard(["a", "b"]));
  });
});

describe("the ledger's monthly spend limit", () => {
  it("counts the quotes committed to jobs still running, and the prices held", () => {
    for (const held of [false, true]) {
      const ledger = new Ledger(1_000, 0, 100);
      ledger.reserve(60, held);
      expect([ledger.overSpendLimit(40), ledger.overSpendLimit(41)], held ? "held" : "committed").toEqual([
        false,
        true,
      ]);
    }
  });

  it("stops counting a job's quote once the job ended uncharged", () => {
    const ledger = new Ledger(1_000, 0, 100);
    ledger.reserve(60, false);
    ledger.settle(60, false, false);
    expect(ledger.overSpendLimit(100)).toBe(false);
  });

  it("charges the month's allowance first, then the extra credits", () => {
    const ledger = new Ledger(10, 100, null);
    ledger.charge(8);
    ledger.charge(5);
    expect(ledger.balance()).toEqual({
      monthlyLimit: 10,
      monthlyUsed: 10,
      monthlyRemaining: 0,
      extra: 97,
      totalAvailable: 97,
    });
  });

  it("is set, raised or removed by the owner (errors.429-spend-limit: a limit the account owner set)", () => {
    const ledger = new Ledger(1_000, 0, null);
    ledger.reserve(60, false);
    expect(ledger.overSpendLimit(500)).toBe(false);
    ledger.setSpendLimit(100);
    expect([ledger.overSpendLimit(40), ledger.overSpendLimit(41)]).toEqual([false, true]);
    ledger.setSpendLimit(200);
    expect(ledger.overSpendLimit(41)).toBe(false);
    ledger.setSpendLimit(null);
    expect(ledger.overSpendLimit(500)).toBe(false);
  });

  it("counts what was charged to the extra credits once the month's allowance is spent", () => {
    const ledger = new Ledger(10, 100, 100);
    ledger.charge(50);
    expect(ledger.balance()).toMatchObject({ monthlyUsed: 10, extra: 60 });
    expect([ledger.overSpendLimit(50), ledger.overSpendLimit(51)]).toEqual([false, true]);
  });
});

describe("the rolling uploads window", () => {
  it("is the same plain data whatever order its accounts uploaded in: the oracle tells states apart by it", () => {
    const uploaded = (ids: string[]) => {
      const window = new RollingWindow(5, 60_000);
      for (const id of ids) window.take(id, 0);
      return window.snapshot();
    };
    expect(uploaded(["b", "a"])).toEqual(uploaded(["a", "b"]));
  });
});

describe("a fixed request window", () => {
  it("lets the limit's last request through with 0 remaining, and refuses the one after", () => {
    const windows = new FixedWindows(2, 60_000);
    expect(
      [windows.hit("key", 0), windows.hit("key", 1), windows.hit("key", 2)].map(({ remaining, exceeded }) => [
        remaining,
        exceeded,
      ]),
    ).toEqual([
      [1, false],
      [0, false],
      [0, true],
    ]);
  });
});

describe("jobs", () => {
  const area = (typical: number | undefined, hours: number | undefined) =>
    ({
      poll: {
        typicalDurationSeconds: typical === undefined ? undefined : { min: typical },
        retention: hours === undefined ? undefined : { hours },
      },
    }) as unknown as AreaModel;

  it("run and are kept the description's figures, else the config's, on a clock a hundred times faster", () => {
    expect(
      timingOf(area(120, 24), {
        clock: { speed: 100 },
        jobs: { defaultDurationSeconds: 10, defaultRetentionHours: 1 },
      }),
    ).toEqual({ runMs: 1_200, retentionMs: 864_000 });
    expect(
      timingOf(area(undefined, undefined), {
        clock: { speed: 100 },
        jobs: { defaultDurationSeconds: 10, defaultRetentionHours: 1 },
      }),
    ).toEqual({ runMs: 100, retentionMs: 36_000 });
  });

  const statuses = (values: string[], initial: string) =>
    ({
      jobStatus: { values, terminal: ["succeeded", "failed"], initial, success: "succeeded" },
    }) as unknown as ServiceModel;
  const job = { createdAt: 0, endAt: 300, outcome: "succeeded" } as Job;
  const ids = sandboxChoices(model, resolveConfig(configWith(), model));

  it("walk the running statuses from the initial one, skipping those before it", () => {
    const store = new JobStore(statuses(["queued", "pending", "processing", "succeeded", "failed"], "pending"), ids);
    expect([0, 149, 150, 299, 300].map((now) => store.statusAt(job, now))).toEqual([
      "pending",
      "pending",
      "processing",
      "processing",
      "succeeded",
    ]);
  });

  it("are numbered from 1, as the opaque ids' first part too", () => {
    const store = new JobStore(statuses(["pending", "succeeded", "failed"], "pending"), ids);
    expect([store.nextId("img_", true), store.nextId("img_", true)]).toEqual(["1", "2"]);
    expect(store.nextId("img_", false)).toMatch(/^img_000003[0-9a-z]{1,6}$/);
  });

  it("refuse a description whose initial status is not a running one, naming it", () => {
    expect(() => new JobStore(statuses(["pending", "succeeded", "failed"], "succeeded"), ids)).toThrow(
      "JobStatus's initial status succeeded is not a running status",
    );
  });
});

describe("a 400's problem", () => {
  const typeError = (instancePath: string): ErrorObject => ({
    keyword: "type",
    instancePath,
    schemaPath: "#/properties/x/type",
    params: { type: "string" },
    message: "must be string",
  });
  /** A failed `not` at `schemaPath`, at the body's root. */
  const notError = (schemaPath: string): ErrorObject => ({
    keyword: "not",
    instancePath: "",
    schemaPath,
    params: {},
    message: "must NOT be valid",
  });

  it("names the field by JSON pointer, unescaping ~1 and ~0, and array positions of any length in brackets", () => {
    expect(describeProblem("body", typeError("/a~1b/12/c~0d/x1"))).toBe("body.a/b[12].c~d.x1: must be string (type)");
    // Only a key of digits alone is an array position.
    expect(describeProblem("body", typeError("/a/2b/3"))).toBe("body.a.2b[3]: must be string (type)");
  });

  it("quotes no rule from a schema path that leads past the schema", () => {
    const schema = { allOf: [{ description: "Only one of a and b." }] };
    const error = notError("#/allOf/3/not/required");
    expect(describeProblem("body", error, schema)).toBe("body: must NOT be valid (not)");
  });

  it("quotes an allOf member's description on one line, and no description of the path's other schemas", () => {
    const schema = {
      properties: {
        x: { description: "An x.", allOf: [{ description: "Not both\n   a and b. ", not: { required: ["a", "b"] } }] },
      },
    };
    const error: ErrorObject = {
      keyword: "not",
      instancePath: "/x",
      schemaPath: "#/properties/x/allOf/0/not",
      params: {},
      message: "must NOT be valid",
    };
    expect(describeProblem("body", error, schema)).toBe("body.x: breaks the rule Not both a and b.");
    expect(describeProblem("body", { ...error, schemaPath: "#/properties/x/not" }, schema)).toBe(
      "body.x: must NOT be valid (not)",
    );
  });

  it("quotes no rule from a schema path that runs into a null", () => {
    const error = notError("#/allOf/0/not");
    expect(describeProblem("body", error, { allOf: [null] })).toBe("body: must NOT be valid (not)");
  });

  it("adds the rule to a leaf's own words where the leaf sits under an allOf member", () => {
    const schema = { allOf: [{ description: "A source needs its kind.", required: ["kind"] }] };
    const error: ErrorObject = {
      keyword: "required",
      instancePath: "",
      schemaPath: "#/allOf/0/required",
      params: { missingProperty: "kind" },
      message: "must have required property 'kind'",
    };
    expect(describeProblem("body", error, schema)).toBe("body.kind: is required; rule: A source needs its kind.");
  });

  it("names a const's one allowed value, as JSON", () => {
    const error: ErrorObject = {
      keyword: "const",
      instancePath: "/kind",
      schemaPath: "#/properties/kind/const",
      params: { allowedValue: "image" },
      message: "must be equal to constant",
    };
    expect(describeProblem("body", error)).toBe('body.kind: must be "image"');
  });

  it("leaves out the combinators' own failures (anyOf, oneOf, allOf, if) where leaves explain them", () => {
    const combinator = (keyword: string): ErrorObject => ({
      keyword,
      instancePath: "",
      schemaPath: `#/${keyword}`,
      params: {},
      message: `must match ${keyword}`,
    });
    const errors = [...["anyOf", "oneOf", "allOf", "if"].map(combinator), typeError("/x")];
    expect(describeProblems("body", errors)).toEqual(["body.x: must be string (type)"]);
    expect(describeProblems("body", [combinator("oneOf")])).toEqual(["body: must match oneOf (oneOf)"]);
  });

  it("quotes only the description of an allOf member as a rule", () => {
    const schema = { not: { description: "Not this.", required: ["a"] } };
    const error = notError("#/not");
    expect(describeProblem("body", error, schema)).toBe("body: must NOT be valid (not)");
  });

  it("quotes a rule only from a schema path within the schema (#/...)", () => {
    const schema = { allOf: [{ description: "Only one of a and b.", not: { required: ["a", "b"] } }] };
    const error = notError("#/allOf/0/not");
    expect(describeProblem("body", error, schema)).toBe("body: breaks the rule Only one of a and b.");
    // A path that is not this schema's, though read from its third character it would lead to the rule.
    expect(describeProblem("body", { ...error, schemaPath: "a/allOf/0/not" }, schema)).toBe(
      "body: must NOT be valid (not)",
    );
  });

  it("is cut at 300 characters, the last an ellipsis: a field name comes from the client and may be of any length", () => {
    const unknownField = (name: string): ErrorObject => ({
      keyword: "additionalProperties",
      instancePath: "",
      schemaPath: "#/additionalProperties",
      params: { additionalProperty: name },
      message: "must NOT have additional properties",
    });
    // "body." and ": is not a known field" are 5 and 22 characters: a name of 273 makes exactly 300;
    // one more, and 299 characters are kept.
    const longest = `body.${"y".repeat(273)}: is not a known field`;
    expect(describeProblems("body", [unknownField("y".repeat(273))])).toEqual([longest]);
    expect(describeProblems("body", [unknownField("x".repeat(274))])).toEqual([
      `body.${"x".repeat(274)}: is not a known fie…`,
    ]);
  });
});

describe("a request body's content type", () => {
  const image = routeWhere((route) => route.label === "I-A");

  it("comes before the body's problems, which are each named in one message", async () => {
    const sb = await sandbox();
    const wrong = await sb.send("POST", image.path, { body: { not_a_field: 1 } });
    expect([wrong.status, wrong.json.error.message]).toEqual([
      400,
      expect.stringMatching(
        /body\.prompt: is required; .*body\.not_a_field: is not a known field|body\.not_a_field: is not a known field; .*body\.prompt: is required/,
      ),
    ]);
  });

  it("does not matter when a create is sent without a body, which it requires", async () => {
    const sb = await sandbox();
    const empty = await sb.send("POST", image.path, { body: "  ", contentType: "text/plain" });
    expect([empty.status, empty.json.error.message]).toEqual([
      400,
      expect.stringContaining("body: is required (a JSON object)"),
    ]);
  });

  it("is application/json in any case, with other parameters, and at most a UTF-8 charset, quoted or not", async () => {
    const sb = await sandbox();
    const statusWith = async (contentType: string) =>
      (await sb.send("POST", image.path, { body: example(image.path), contentType })).status;
    const accepted = [
      "application/json",
      "Application/JSON; charset=UTF-8",
      'application/json; charset="utf-8"',
      "application/json; version=1",
    ];
    const refused = [
      "text/plain",
      "application/json; charset=latin1",
      "application/json; charset=utf-8x",
      "application/json; charset=charset=utf-8",
    ];
    expect(await Promise.all(accepted.map(statusWith))).toEqual([200, 200, 200, 200]);
    expect(await Promise.all(refused.map(statusWith))).toEqual([400, 400, 400, 400]);
    const long = `text/plain; ${"x".repeat(100)}`;
    const named = await sb.send("POST", image.path, { body: example(image.path), contentType: long });
    expect(named.json.error.message).toContain(
      `content-type: must be application/json, as every body is JSON (got ${JSON.stringify(long.slice(0, 80))})`,
    );
  });
});

describe("the rules", () => {
  it("apply in this order: every request counts against the windows, rejected ones too, before any other rule refuses it; a retired model is gone whatever its body; only a valid body is priced or charged", () => {
    // The names the faults of the conformance self-test replace rules by.
    expect(RULES.map((rule) => rule.name)).toEqual([
      "request-windows",
      "authentication",
      "plan-gate",
      "retired-model",
      "request-body",
      "media-forms",
      "media-durations",
      "uploads-window",
      "cooldown",
      "outcome-marker",
      "price",
      "plan-price",
      "spend-limit",
      "concurrency",
      "credits",
    ]);
  });

  it("refuse a media field in a form its x-media does not take, and take the forms it lists", async () => {
    const sb = await sandbox();
    const route = routeWhere((candidate) => candidate.label === "DM-A");
    const send = (video: string) => sb.send("POST", route.path, { body: { ...example(route.path), video } });
    const inlined = await send("data:video/mp4;base64,AAAAGGZ0eXBtcDQy");
    expect(inlined.status).toBe(400);
    // Refused by the request schema itself, as any validator of the description refuses it (MediaUrl).
    expect(inlined.json.error.message).toContain("body.video: must match pattern");
    expect((await send("AAAAGGZ0eXBtcDQy")).status).toBe(400);
    expect((await send("https://files.example.com/clip.mp4")).status).toBe(200);
  });

  it("refuse, in the media-forms rule itself, a media value in a form its field does not take, naming the body's field (service.input-media-forms)", () => {
    // The request schema refuses an inlined value first where the field refers to MediaUrl; the rule reads x-media.forms, whatever the schema says.
    const create = createOf("DM-A");
    const rule = RULES.find((candidate) => candidate.name === "media-forms")!;
    const check = (video: string) => rule.check(callOf(create, { ...example(create.path), video }), stateOf());
    const refused = check("data:video/mp4;base64,AAAAGGZ0eXBtcDQy");
    expect(refused?.status).toBe(400);
    expect(JSON.stringify(refused?.body)).toMatch(
      /"message":"body\.video: takes [^"]*public-url[^"]*, not a data-uri"/,
    );
    expect(check("https://files.example.com/clip.mp4")).toBeUndefined();
  });

  it("refuse a media input whose #duration is outside its field's limits, on unpriced routes too", async () => {
    const sb = await sandbox();
    const v = (label: string) => routeWhere((candidate) => candidate.label === label);
    const clip = (seconds: number) => `https://files.example.com/clip.mp4#duration=${seconds}`;
    const send = (label: string, body: Record<string, unknown>) =>
      sb.send("POST", v(label).path, { body: { ...example(v(label).path), ...body } });
    // V-B's price is not shown; its reference videos are 2 to 15 s each, 15 s combined.
    const long = await send("V-B", { reference_videos: [clip(16)] });
    expect([long.status, long.json.error.message]).toEqual([
      400,
      "body.reference_videos (#duration): must be at most 15 seconds",
    ]);
    expect((await send("V-B", { reference_videos: [clip(1)] })).json.error.message).toBe(
      "body.reference_videos (#duration): must be at least 2 seconds",
    );
    expect((await send("V-B", { reference_videos: [clip(8), clip(8)] })).json.error.message).toBe(
      "body.reference_videos (#duration): must be at most 15 seconds combined",
    );
    // With a 15-s output: the input video plus the output length are 30 s together, V-B's most.
    expect((await send("V-B", { reference_videos: [clip(7), clip(8)], length_seconds: 15 })).status).toBe(200);
    // The bounds themselves are within them.
    expect((await send("V-B", { reference_videos: [clip(15)], length_seconds: 15 })).status).toBe(200);
    expect((await send("V-B", { reference_videos: [clip(2)] })).status).toBe(200);
    // The example's 20-s output with 15 s of video: 35 s together.
    expect((await send("V-B", { reference_videos: [clip(7), clip(8)] })).json.error.message).toBe(
      "body.reference_videos (#duration): 15 seconds plus body.length_seconds (20) must be at most 30 seconds",
    );
    // MC-A: a reference video of at most 30 s, or 10 s when the character image sets the orientation.
    expect((await send("MC-A", { video: clip(12), character_orientation: "video" })).status).toBe(200);
    expect((await send("MC-A", { video: clip(12), character_orientation: "image" })).json.error.message).toBe(
      "body.video (#duration): must be at most 10 seconds",
    );
  });

  it("report the per-key window in X-RateLimit-* when it and the address's have as many requests left", async () => {
    const sb = await sandbox(
      configWith({}, { limits: { requests: { perKey: 2, perSourceIp: 3, windowSeconds: 60 } } }),
    );
    expect((await sb.send("GET", "/v1/account/credits", { key: null })).status).toBe(401);
    const tie = await sb.send("GET", "/v1/account/credits");
    expect([
      tie.status,
      tie.headers.get(model.rateLimitHeaders.limit),
      tie.headers.get(model.rateLimitHeaders.remaining),
    ]).toEqual([200, "2", "1"]);
  });

  it("act on outcome markers in creates only: a quote of a body asking for a moderation block is a quote", async () => {
    const sb = await sandbox();
    const image = routeWhere((route) => route.label === "I-A");
    const body = { ...example(image.path), prompt: `x [sandbox:moderation=${model.errors.moderation.reasons[0]}]` };
    const quoted = await sb.send("POST", "/v1/cost", { body: { model: image.slug, body } });
    // One image at the default 1K: 12 credits.
    expect([quoted.status, quoted.json.credits]).toEqual([200, 12]);
    expect((await sb.send("POST", image.path, { body })).status).toBe(400);
    // A marker at the top of a body that creates nothing is text like any other.
    const upload = await sb.send("POST", "/v1/uploads", { body: { media: body.prompt } });
    expect(upload.status).toBe(200);
  });

  it("price only the operation a path's price belongs to: a request with another method there is not quoted", () => {
    // No path of the description has both a priced and an unpriced method; one may (x-pricing is per operation).
    const create = createOf("I-A");
    const call = callOf({ ...create, method: "get" }, undefined);
    expect(RULES.find((rule) => rule.name === "price")!.check(call, stateOf())).toBeUndefined();
    expect(call.quote).toBeNull();
  });

  it("refuse, in the price rule too, a media input its quote finds outside the field's limits, named as the request carries it", () => {
    // media-durations refuses such a body first; the price rule's own refusal keeps a quote's error a 400 naming the body's field.
    const create = createOf("V-A");
    const body = { ...example(create.path), reference_videos: ["https://files.example.com/clip.mp4#duration=16"] };
    const reply = RULES.find((rule) => rule.name === "price")!.check(callOf(create, body), stateOf());
    expect(JSON.stringify(reply)).toContain('"message":"body.reference_videos (#duration): must be 2 to 15 seconds"');
  });

  it("find no duration problem in a body that is not an object, or in an item that is not a URL", () => {
    const schema = requestSchemaOf("V-B");
    expect(mediaDurationProblem(schema, null, durationIn)).toBeNull();
    expect(mediaDurationProblem(schema, undefined, durationIn)).toBeNull();
    expect(mediaDurationProblem(schema, "https://files.example.com/clip.mp4#duration=99", durationIn)).toBeNull();
    // An item that is no string names no duration, even one whose text would.
    expect(
      mediaDurationProblem(
        schema,
        { reference_videos: [["https://files.example.com/clip.mp4#duration=99"]] },
        durationIn,
      ),
    ).toBeNull();
    expect(
      mediaDurationProblem(
        schema,
        { reference_videos: ["https://files.example.com/clip.mp4#duration=99"] },
        durationIn,
      ),
    ).toBe("body.reference_videos (#duration): must be at most 15 seconds");
  });

  it("refuse V-B's reference videos whose seconds plus the output length pass 30 s, and take 30 s exactly", () => {
    // Specification, V-B: "input video duration plus output length must not exceed 30 s".
    const schema = requestSchemaOf("V-B");
    const clip = (seconds: number) => `https://files.example.com/clip.mp4#duration=${seconds}`;
    const body = (videos: number[], length?: number) => ({
      reference_videos: videos.map(clip),
      ...(length === undefined ? {} : { length_seconds: length }),
    });
    expect(mediaDurationProblem(schema, body([10, 5], 15), durationIn)).toBeNull();
    expect(mediaDurationProblem(schema, body([10, 5], 16), durationIn)).toBe(
      "body.reference_videos (#duration): 15 seconds plus body.length_seconds (16) must be at most 30 seconds",
    );
    expect(mediaDurationProblem(schema, body([2], 28), durationIn)).toBeNull();
    expect(mediaDurationProblem(schema, body([2.5], 28), durationIn)).toMatch(
      /2\.5 seconds plus body\.length_seconds \(28\)/,
    );
    // No output length sent, or one that is no number (the schema refuses it first): nothing to add.
    expect(mediaDurationProblem(schema, body([15]), durationIn)).toBeNull();
    expect(mediaDurationProblem(schema, { ...body([15]), length_seconds: "30" }, durationIn)).toBeNull();
  });

  it("say whether the API key is missing, sent with another scheme or unknown, and which route the Free plan may not call", async () => {
    const sb = await sandbox({
      accounts: {
        main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 100, extra: 0 } },
        free: { keys: ["free-key"], plan: "free", credits: { monthlyLimit: 100, extra: 0 } },
      },
    });
    const gated = routeWhere((route) => route.label === "I-A");
    expect((await sb.send("GET", "/v1/account/credits", { key: null })).json.error.message).toBe(
      "Missing API key: send Authorization: Bearer <API_KEY>.",
    );
    const basic = await sb.send("GET", "/v1/account/credits", { authorization: `Basic ${KEY}` });
    expect([basic.status, basic.json.error.message]).toEqual([
      401,
      "Authorization: the scheme is HTTP bearer with a key: send Authorization: Bearer <API_KEY>.",
    ]);
    expect((await sb.send("GET", "/v1/account/credits", { key: "no-such-key" })).json.error.message).toBe(
      "Invalid API key.",
    );
    const refused = await sb.send("POST", gated.path, { key: "free-key", body: example(gated.path) });
    expect([refused.status, refused.json.error.message]).toEqual([
      403,
      `Keys on the Free plan may not call POST ${gated.path}.`,
    ]);
  });
});

describe("outcome markers", () => {
  it("may ask for one outcome in several fields; a later marker asking for another is an error naming its field", () => {
    const image = "https://media.example/a.png";
    expect(outcomeOf(model, { prompt: "a [sandbox:failed]", image: `${image}#sandbox:failed` })).toEqual({
      status: "failed",
    });
    expect(() => outcomeOf(model, { prompt: "a [sandbox:failed]", image: `${image}#sandbox:timeout` })).toThrow(
      /^body\.image: "sandbox:timeout" contradicts an earlier marker$/,
    );
  });

  it("are read in the string items of an array too, other items skipped, and named by their position", () => {
    const images = [3, null, "https://media.example/a.png#sandbox:timeout"];
    expect(outcomeOf(model, { prompt: "a", images })).toEqual({ status: "timeout" });
    expect(() => outcomeOf(model, { images: [...images, "[sandbox:nothing]"] })).toThrow(
      /^body\.images\[3\]: "sandbox:nothing" is not a sandbox marker/,
    );
    // The error lists the markers there are: each terminal status, and moderation with each reason.
    expect(() => outcomeOf(model, { prompt: "[sandbox:pending]" })).toThrow(
      'body.prompt: "sandbox:pending" is not a sandbox marker (sandbox:succeeded, sandbox:failed, sandbox:timeout, ' +
        "sandbox:moderation=<input_csam|input_explicit_adult|input_upload_nudity|input_celebrity_likeness|strict_model_nsfw>)",
    );
    // A value belongs to the moderation marker alone.
    expect(() => outcomeOf(model, { prompt: "[sandbox:failed=input_csam]" })).toThrow(
      /^body\.prompt: "sandbox:failed=input_csam" is not a sandbox marker/,
    );
  });
});

describe("a request body's size in entries", () => {
  it("may hold 10 000 array items and object members, all levels together; one more is refused before it is parsed", () => {
    const items = (count: number) => JSON.stringify(new Array(count).fill(0));
    expect(bodyShapeProblem("body", items(10_000))).toBeNull();
    expect(bodyShapeProblem("body", `{"a":${items(9_999)}}`)).toBeNull();
    expect(bodyShapeProblem("body", items(10_001))).toBe(
      "body: holds 10001 array items and object members; a request holds at most 10000",
    );
  });
});

describe("a media duration in a URL's fragment", () => {
  it("is #duration=N, alone or among other fragment parameters joined by & (or ;)", () => {
    const clip = "https://media.example/clip.mp4";
    expect(durationIn(`${clip}#duration=12`)).toBe(12);
    expect(durationIn(`${clip}#duration=7.2&t=3`)).toBe(7.2);
    expect(durationIn(`${clip}#t=3;duration=12;x=1`)).toBe(12);
    expect(durationIn(`${clip}#duration=12s`)).toBeNull();
    expect(durationIn(clip)).toBeNull();
  });
});

describe("the facts an upscale's price reads, as the sandbox derives them", () => {
  const facts = { result_resolution: ["1080p"], mode: ["precise", "creative"] };
  const clip = "https://media.example/clip.mp4";

  it("are the mode from its `mode` field and the result's height from the input's #height=N times upscale_factor", () => {
    expect(
      priceFacts({ video: `${clip}#duration=6&height=720`, upscale_factor: 1.5, mode: "creative" }, facts, ["video"]),
    ).toEqual({
      mode: "creative",
      result_resolution: "1080p",
    });
    expect(priceFacts({ video: `${clip}#t=1;height=540`, upscale_factor: 2.5 }, facts, ["video"])).toEqual({
      result_resolution: "1350p",
    });
    expect(priceFacts({ video: `${clip}#height=720&duration=6`, upscale_factor: 1.5 }, facts, ["video"])).toEqual({
      result_resolution: "1080p",
    });
  });

  it("leave out what the body does not give: no #height, no upscale_factor, a mode that is no text", () => {
    expect(priceFacts({ video: `${clip}#duration=6`, upscale_factor: 2, mode: 3 }, facts, ["video"])).toEqual({});
    expect(priceFacts({ video: `${clip}#height=720` }, facts, ["video"])).toEqual({});
    expect(priceFacts({ video: `${clip}#height=720p`, upscale_factor: 2 }, facts, ["video"])).toEqual({});
    expect(priceFacts({ upscale_factor: 2, mode: "precise" }, facts, ["video"])).toEqual({ mode: "precise" });
  });

  it("derive only the facts the route's price reads", () => {
    const body = { video: `${clip}#height=720`, upscale_factor: 1.5, mode: "quality" };
    expect(priceFacts(body, {}, ["video"])).toEqual({});
    expect(priceFacts(body, { mode: ["precise"] }, ["video"])).toEqual({ mode: "quality" });
    expect(priceFacts(body, { result_resolution: ["1080p"] }, ["video"])).toEqual({ result_resolution: "1080p" });
  });
});

describe("a media input's duration without #duration", () => {
  it("is the configured default kept within the field's limits: the smallest stated maximum, the minimum, an even share of a combined maximum", () => {
    const clip = "https://media.example/clip.mp4";
    // Only a string states a duration: an item of another type (one a schema would refuse) takes the fallback.
    const body = {
      a: clip,
      b: clip,
      c: clip,
      d: [clip, clip, clip, clip],
      e: `${clip}#duration=7`,
      f: [[`${clip}#duration=5`]],
    };
    const durations = mediaDurations(
      body,
      {
        a: { list: false, maxDurationSeconds: 5 },
        b: {
          list: false,
          maxDurationSeconds: 8,
          conditionalLimits: [{ when: { fact: "x", equals: 1 }, limits: { maxDurationSeconds: 3 } }],
        },
        c: { list: false, minDurationSeconds: 12 },
        d: { list: true, maxCombinedDurationSeconds: 10 },
        e: { list: false, maxDurationSeconds: 5 },
        f: { list: true },
        absent: { list: false },
      },
      9,
      durationIn,
    );
    expect(durations).toEqual({ a: 5, b: 3, c: 12, d: [2.5, 2.5, 2.5, 2.5], e: 7, f: [9] });
  });
});

describe("the sandbox's state", () => {
  it("names the operation the description lacks, should the model name one", () => {
    const state = serviceState(resolveConfig(configWith(), model));
    const op = { ...model.operations[0]!, method: "post" as const, path: "/v1/nowhere" };
    expect(() => state.operation(op)).toThrow(/^no POST \/v1\/nowhere in the description$/);
  });

  it("compiles a description's request schemas once, however many sandboxes serve it", () => {
    const state = () => serviceState(resolveConfig(configWith(), model));
    expect(state().requestSchemas).toBe(state().requestSchemas);
  });

  it("takes a request body as optional where the description does not say it is required (OpenAPI's default)", () => {
    const op = model.operations.find((candidate) => candidate.kind === "create")!;
    const doc = structuredClone(model.doc);
    delete doc.paths[op.path]![op.method]!.requestBody!.required;
    const state = serviceState(resolveConfig(configWith(), model), { ...model, doc });
    expect(serviceState(resolveConfig(configWith(), model)).requestSchemas.get(op.operationId)?.required).toBe(true);
    expect(state.requestSchemas.get(op.operationId)?.required).toBe(false);
  });
});
