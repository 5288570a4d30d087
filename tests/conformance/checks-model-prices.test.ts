/**
 * The model-prices check (conformance/checks/model-prices.ts) run on a session of the test's own
 * against a scripted model list on 127.0.0.1 that answers each `GET /v1/models` as the test says.
 * Specification: "`GET /v1/models` lists the models and their current prices (including
 * `resolution_pricing` and, for depth maps, `size_pricing`)"; the depth-map model is listed "with
 * `type: "video-depth"` and `size_pricing`" (small = 20, base = 30, large = 40 credits per second);
 * V-A's prices per output second are 480p = 65, 768p = 105, 1080p = 210, 2k = 420; the list's filter
 * `type` (for example `3d`) lists only models of that type. An honest list passes, wherever in the
 * answer its entries sit; a list answering otherwise, a price map that differs, and a filter that
 * lists another type or leaves its own model out each fail, the detail naming what was seen.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { modelPrices } from "../../conformance/checks/model-prices.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract } from "../../contract/contract.ts";
import type { OpenApiDocument } from "../../model/document.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, NOWHERE } from "./support/check-session.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const LIST = "GET /v1/models";

const DEPTH = "the model list shows DM-A's type and size_pricing at the standard prices";
const RESOLUTION = "the model list shows V-A's resolution_pricing at the standard prices";
const FILTER_3D = "the type filter 3d lists only models of type 3d";
const FILTER_DEPTH = "the type filter video-depth lists only models of type video-depth";
const ANSWERS = "the model list answers";
const QUOTES = "POST /v1/cost quotes each priced field";
const QUOTES_SKIPPED =
  "the field of a quote's price is shown only for depth maps, whose quotes the cost-quotes check reads (with costRequest: the shape of a quote request is not shown)";

// The list's entries, their price maps written out from the specification.
const SIZE_PRICING = { small: 20, base: 30, large: 40 };
const RESOLUTION_PRICING = { "480p": 65, "768p": 105, "1080p": 210, "2k": 420 };
const DM_A = { model: "dm-a", type: "video-depth", size_pricing: SIZE_PRICING };
const V_A = { model: "v-a", type: "video", resolution_pricing: RESOLUTION_PRICING };
const D_A = { model: "d-a", type: "3d" };
const D_B = { model: "d-b", type: "3d" };
const HONEST = [DM_A, V_A, D_A, D_B];

/** The honest list: every entry, or those of the `type` asked for. */
const honest = (type: string | null) => ({
  models: type === null ? HONEST : HONEST.filter((entry) => entry.type === type),
});

interface Served {
  readonly status: number;
  /** A JSON value, or a text sent as it is. */
  readonly body: unknown;
}

/** What the list answers, by the `type` asked for (null: none). */
type Answer = (type: string | null) => Served;

interface ListRun {
  readonly results: CheckResult[];
  /** The paths (with their query) the list was asked for, in order. */
  readonly asked: string[];
  readonly statuses: string[];
}

/** The check run alone against a list answering `answer`. */
async function listRun(answer: Answer, config: Partial<TargetConfig> = {}, of = contract): Promise<ListRun> {
  const asked: string[] = [];
  const server = await serveOnLoopback((request, response) => {
    request.resume();
    asked.push(request.url ?? "");
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const served = url.pathname === "/v1/models" ? answer(url.searchParams.get("type")) : { status: 404, body: {} };
    const json = typeof served.body !== "string";
    response
      .writeHead(served.status, { "content-type": json ? "application/json" : "text/plain" })
      .end(json ? JSON.stringify(served.body) : served.body);
  });
  try {
    const session = sessionOf(config, server.url, of);
    const statuses: string[] = [];
    await modelPrices.run?.({ session, stage: async () => {}, status: (text) => statuses.push(text) });
    return { results: session.results.all, asked, statuses };
  } finally {
    await server.close();
  }
}

/**
 * A session sending to `target` the requests the description holds valid (where a validation proxy
 * would be), the others to a port where nothing answers.
 */
function sessionOf(config: Partial<TargetConfig> = {}, target?: string, of = contract): Session {
  return checkSession({
    contract: of,
    config: { ...declared, stateful: true, standardPrices: true, ...config },
    target,
    targetUrl: NOWHERE,
    proxied: false,
    apiKey: declared.apiKey as string,
  });
}

/** `name -> [outcome, detail?]` of the results (every one on the list's route unless said). */
const judged = (results: CheckResult[]) =>
  Object.fromEntries(
    results.map((result) => [
      result.route === LIST ? result.name : `${result.route} ${result.name}`,
      result.detail === undefined ? [result.outcome] : [result.outcome, result.detail],
    ]),
  );

const QUOTES_ROW = { [`* ${QUOTES}`]: ["skip", QUOTES_SKIPPED] };

describe("the model-prices check on an honest model list", () => {
  it("passes DM-A's type and size_pricing, V-A's resolution_pricing, and each documented type filter", async () => {
    const run = await listRun((type) => ({ status: 200, body: honest(type) }));
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [DEPTH]: ["pass"],
      [RESOLUTION]: ["pass"],
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: ["pass"],
    });
    expect(new Set(run.results.map((result) => result.group))).toEqual(new Set([modelPrices.group]));
    expect(modelPrices.group).toBe("model-prices");
    // The whole list once, then each documented value of the filter: 3d and video-depth.
    expect(run.asked).toEqual(["/v1/models", "/v1/models?type=3d", "/v1/models?type=video-depth"]);
    expect(run.statuses).toEqual([
      "reading the model list",
      "reading the model list of type 3d",
      "reading the model list of type video-depth",
    ]);
  });

  it("finds an entry wherever the answer holds it, among fields that are null, lists of text or numbers", async () => {
    const nested = (entries: object[]) => ({
      data: { page: null, groups: [[{ tags: ["new", 3], models: entries, next: null }]] },
    });
    const run = await listRun((type) => ({ status: 200, body: nested(honest(type).models) }));
    expect(run.results.map((result) => result.outcome)).toEqual(["skip", "pass", "pass", "pass", "pass"]);
  });

  it("takes an entry's further fields and their order as they come: only the fragment's fields are compared", async () => {
    const wider = [
      { label: "DM-A", size_pricing: { large: 40, base: 30, small: 20 }, type: "video-depth", min_seconds: 5 },
      { label: "V-A", resolution_pricing: { "2k": 420, "1080p": 210, "768p": 105, "480p": 65 }, type: "video" },
      D_A,
    ];
    const run = await listRun((type) => ({
      status: 200,
      body: type === null ? wider : wider.filter((entry) => entry.type === type),
    }));
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [DEPTH]: ["pass"],
      [RESOLUTION]: ["pass"],
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: ["pass"],
    });
  });

  it("names its results by templates of its rules (the list's current prices; depth maps' entry; the 3d filter)", () => {
    expect(templateOf(modelPrices, DEPTH)).toBe(
      "the model list shows {model}'s type and size_pricing at the standard prices",
    );
    expect(templateOf(modelPrices, RESOLUTION)).toBe(
      "the model list shows {model}'s resolution_pricing at the standard prices",
    );
    expect(templateOf(modelPrices, FILTER_3D)).toBe(FILTER_3D);
    expect(templateOf(modelPrices, FILTER_DEPTH)).toBe("the type filter {type} lists only models of type {type}");
  });
});

describe("the model-prices check on a list that answers otherwise", () => {
  // 12 + 388 characters: the detail quotes the first 200 of them.
  const LONG = { message: "x".repeat(388) };
  const QUOTED = `{"message":"${"x".repeat(188)}`;

  it("fails the list answering an error, quoting the start of its answer, and sends nothing more", async () => {
    const run = await listRun(() => ({ status: 500, body: LONG }));
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [ANSWERS]: ["fail", `/v1/models answered 500: ${QUOTED}`],
    });
    expect(run.results[1]?.curl).toContain(`${NOWHERE}/v1/models`);
    expect(run.asked).toEqual(["/v1/models"]);
    expect(run.statuses).toEqual(["reading the model list"]);
  });

  it("fails a 200 whose answer is no JSON", async () => {
    const run = await listRun(() => ({ status: 200, body: "models: none" }));
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [ANSWERS]: ["fail", "/v1/models answered 200: models: none"],
    });
  });
});

describe("the model-prices check on prices that differ from the standard ones", () => {
  const DEPTH_FRAGMENT = '{"type":"video-depth","size_pricing":{"small":20,"base":30,"large":40}}';

  it("fails DM-A's entry at another price, naming the fragment looked for and quoting the list", async () => {
    // The large size at 45 credits per second rather than 40.
    const dear = { ...DM_A, size_pricing: { ...SIZE_PRICING, large: 45 } };
    // A long description: the detail quotes the first 300 characters of the list.
    const models = [dear, V_A, { ...D_A, description: "A textured 3D model. ".repeat(10) }];
    const run = await listRun((type) => ({
      status: 200,
      body: { models: type === null ? models : models.filter((entry) => entry.type === type) },
    }));
    const text = JSON.stringify({ models });
    expect(judged(run.results)).toMatchObject({
      [DEPTH]: ["fail", `no entry of /v1/models holds ${DEPTH_FRAGMENT}: ${text.slice(0, 300)}`],
      [RESOLUTION]: ["pass"],
      [FILTER_3D]: ["pass"],
      // The filter's own model is not DM-A's fragment either.
      [FILTER_DEPTH]: ["fail", `it leaves out DM-A's ${DEPTH_FRAGMENT}`],
    });
    expect(text.length).toBeGreaterThan(300);
    expect(run.results.find((result) => result.name === DEPTH)?.curl).toContain(`${NOWHERE}/v1/models'`);
  });

  it("fails a fragment whose fields are split between two entries: one entry holds them all", async () => {
    const models = [{ model: "dm-a", type: "video-depth" }, { model: "other", size_pricing: SIZE_PRICING }, V_A, D_A];
    const run = await listRun(() => ({ status: 200, body: { models } }));
    expect(judged(run.results)[DEPTH]?.[0]).toBe("fail");
  });

  it("fails V-A's entry missing a resolution, and passes nothing that lists no prices", async () => {
    const { "2k": _dropped, ...fewer } = RESOLUTION_PRICING;
    const models = [DM_A, { ...V_A, resolution_pricing: fewer }, D_A];
    const run = await listRun(() => ({ status: 200, body: { models } }));
    expect(judged(run.results)[RESOLUTION]?.[0]).toBe("fail");
    const empty = await listRun(() => ({ status: 200, body: {} }));
    expect(judged(empty.results)).toMatchObject({
      [DEPTH]: ["fail", `no entry of /v1/models holds ${DEPTH_FRAGMENT}: {}`],
      [RESOLUTION]: ["fail", expect.stringMatching(/^no entry of \/v1\/models holds \{"resolution_pricing":/)],
    });
  });

  it("skips the prices where the account's prices are not declared standard, and still checks the filter", async () => {
    const run = await listRun((type) => ({ status: 200, body: honest(type) }), { standardPrices: false });
    const reason = "the account's prices are not declared standard (standardPrices)";
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [DEPTH]: ["skip", reason],
      [RESOLUTION]: ["skip", reason],
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: ["pass"],
    });
  });

  it("looks only for the fragments of the models the target implements", async () => {
    // DM-A left out of the declared models: neither its price nor its keeping by the filter is looked for.
    const models = contract.operations.flatMap((op) =>
      op.create && op.create.label !== "DM-A" ? [op.create.label] : [],
    );
    const run = await listRun((type) => ({ status: 200, body: honest(type === "video-depth" ? "none" : type) }), {
      models,
    });
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [RESOLUTION]: ["pass"],
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: ["pass"],
    });
  });
});

describe("the model-prices check on the type filter", () => {
  it("fails a filter that lists every model, naming at most three entries of another type", async () => {
    const many = [...HONEST, { model: "d-c", type: "3d" }, { model: "d-d", type: "3d" }];
    const run = await listRun(() => ({ status: 200, body: { models: many } }));
    expect(judged(run.results)).toMatchObject({
      [FILTER_3D]: ["fail", 'it lists an entry of type "video-depth"'],
      [FILTER_DEPTH]: [
        "fail",
        'it lists an entry of type "3d"; it lists an entry of type "3d"; it lists an entry of type "3d"',
      ],
    });
    const failed = run.results.find((result) => result.name === FILTER_3D);
    expect(failed?.curl).toContain(`${NOWHERE}/v1/models?type=3d`);
  });

  it("fails a filter that leaves out its own model's fragment", async () => {
    const run = await listRun((type) => ({
      status: 200,
      body: type === "video-depth" ? { models: [] } : honest(type),
    }));
    expect(judged(run.results)).toMatchObject({
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: [
        "fail",
        `it leaves out DM-A's {"type":"video-depth","size_pricing":{"small":20,"base":30,"large":40}}`,
      ],
    });
  });

  it("fails a filter that answers an error, quoting its answer", async () => {
    const run = await listRun((type) =>
      type === "3d" ? { status: 404, body: { error: "no" } } : { status: 200, body: honest(type) },
    );
    expect(judged(run.results)).toMatchObject({
      [FILTER_3D]: ["fail", '/v1/models?type=3d answered 404: {"error":"no"}'],
      [FILTER_DEPTH]: ["pass"],
    });
  });

  it("skips a filter when the whole list has no entry of another documented type to leave out, and does not ask for it", async () => {
    // No 3D model in the list: a video-depth filter listing everything would not be seen.
    const models = [DM_A, V_A];
    const run = await listRun((type) => ({
      status: 200,
      body: { models: type === null ? models : models.filter((entry) => entry.type === type) },
    }));
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [DEPTH]: ["pass"],
      [RESOLUTION]: ["pass"],
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: ["skip", "the model list shows no entry of another documented type (3d) to leave out"],
    });
    expect(run.asked).toEqual(["/v1/models", "/v1/models?type=3d"]);
  });
});

describe("the model-prices check reads what the description shows of the list, and only that", () => {
  type Json = Record<string, unknown>;
  /** The object at `path` inside a description being changed. */
  const at = (value: unknown, ...path: string[]): Json =>
    path.reduce((inner, key) => (inner as Json)[key], value) as Json;
  const listOf = (doc: Json) => at(doc, "paths", "/v1/models", "get");
  const parametersOf = (doc: Json) => listOf(doc).parameters as Json[];
  const listExamples = (doc: Json) => at(listOf(doc), "responses", "200", "content", "application/json", "examples");
  /** The description changed by `change`. */
  const described = (change: (doc: Json) => void): Contract => {
    const doc = structuredClone(contract.doc) as unknown as Json;
    change(doc);
    return new Contract(doc as unknown as OpenApiDocument);
  };

  it("takes the list as the GET whose 200 shows price maps, a fragment as one route's unconditional rate tables, a filter value only in the query's type", async () => {
    const of = described((doc) => {
      // I-A's create answers also show a price map: it is no list.
      at(doc, "components", "responses", "ImageJobAccepted", "content", "application/json", "examples").priced = {
        value: { id: "img_1", size_pricing: SIZE_PRICING },
      };
      // A GET of the models area, before the list, documenting no 200.
      doc.paths = {
        "/v1/health": {
          get: {
            operationId: "health",
            tags: ["Models"],
            summary: "Health",
            responses: { "204": { description: "Up." } },
          },
        },
        ...at(doc, "paths"),
      };
      // V-F's output rates, which apply only without an input video: no route's price without a condition.
      at(listExamples(doc), "resolution-pricing-fragment").value = {
        resolution_pricing: { "720p": 200, "1080p": 325, "1440p": 380, "4K": 555 },
      };
      // Two price maps no one route has both of: DM-A's sizes and V-A's resolutions.
      listExamples(doc)["two-routes"] = {
        value: { size_pricing: SIZE_PRICING, resolution_pricing: RESOLUTION_PRICING },
      };
      // A header named type and another query parameter, both with examples, and a value of the filter that is no text.
      parametersOf(doc).unshift(
        { name: "type", in: "header", schema: { type: "string" }, examples: { other: { value: "header-type" } } },
        { name: "page", in: "query", schema: { type: "string" }, examples: { second: { value: "2" } } },
      );
      at(parametersOf(doc).at(-1), "examples").number = { value: 3 };
    });
    const run = await listRun((type) => ({ status: 200, body: honest(type) }), {}, of);
    expect(judged(run.results)).toEqual({
      ...QUOTES_ROW,
      [DEPTH]: ["pass"],
      [FILTER_3D]: ["pass"],
      [FILTER_DEPTH]: ["pass"],
    });
    expect(run.asked).toEqual(["/v1/models", "/v1/models?type=3d", "/v1/models?type=video-depth"]);
  });

  it("checks no filter where the description shows no type parameter", async () => {
    const of = described((doc) => {
      listOf(doc).parameters = [];
    });
    const run = await listRun((type) => ({ status: 200, body: honest(type) }), {}, of);
    expect(judged(run.results)).toEqual({ ...QUOTES_ROW, [DEPTH]: ["pass"], [RESOLUTION]: ["pass"] });
    expect(run.asked).toEqual(["/v1/models"]);
  });

  it("names every other documented type a filter could leave out", async () => {
    const of = described((doc) => {
      at(parametersOf(doc)[0], "examples").image = { value: "image" };
    });
    // No 3D model nor image model in the list: the video-depth filter has nothing to leave out.
    const models = [DM_A, V_A];
    const run = await listRun(
      (type) => ({
        status: 200,
        body: { models: type === null ? models : models.filter((entry) => entry.type === type) },
      }),
      {},
      of,
    );
    expect(judged(run.results)[FILTER_DEPTH]).toEqual([
      "skip",
      "the model list shows no entry of another documented type (3d, image) to leave out",
    ]);
    expect(run.asked).toEqual(["/v1/models", "/v1/models?type=3d", "/v1/models?type=image"]);
  });

  it("checks no filter where the type parameter shows no example", async () => {
    const of = described((doc) => {
      delete parametersOf(doc)[0]?.examples;
    });
    const run = await listRun((type) => ({ status: 200, body: honest(type) }), {}, of);
    expect(run.asked).toEqual(["/v1/models"]);
  });
});

describe("what the model-prices check needs", () => {
  it("needs a stateful target implementing the model list", () => {
    expect(modelPrices.blockedBy?.(sessionOf({ stateful: false }))).toBe("the target is stateless");
    expect(modelPrices.blockedBy?.(sessionOf({ areas: ["images"] }))).toBe(
      "the target does not implement the model list",
    );
    expect(modelPrices.blockedBy?.(sessionOf())).toBeNull();
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`model-prices\` | ${modelPrices.summary} |`);
  });
});
