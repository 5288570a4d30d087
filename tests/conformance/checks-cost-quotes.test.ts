/**
 * The cost-quotes check (conformance/checks/cost-quotes.ts) run on a session of the test's own
 * against a tiny fake of `POST /v1/cost`. Specification, Depth maps: "Price per second of input,
 * rounded up to whole seconds, 5-second minimum: 20 (`small`), 30 (`base`), 40 (`large`) ...
 * `POST /v1/cost` returns `credits_per_second`, `size_pricing`, `min_seconds`, plus exact `credits`
 * when `seconds` is sent"; Prices: "`POST /v1/cost` quotes the discounted price of a request". The
 * check asks for 7 seconds of each of DM-A's two examples, and for each without seconds ("defaults": `small`, 140 credits;
 * "side-by-side": `large`, 280 credits), with the main key and with the planDiscounts key (DM-A 10 %
 * off in the sandbox's declaration: 126 and 252). The honest fake passes; each fault fails the
 * result it breaks, the detail naming what was answered.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { costQuotes } from "../../conformance/checks/cost-quotes.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import type { OpenApiDocument } from "../../model/document.ts";
import { pricedPathOf } from "../client/labels.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const MAIN_KEY = declared.apiKey as string;
const DISCOUNT_KEY = declared.planDiscounts?.apiKey as string;
const DM_A = contract.operations.find((op) => op.create?.label === "DM-A") as ContractOperation;
const ROUTE = DM_A.route;
const SLUG = DM_A.create!.slug;

const FIELDS = "a depth-map quote with seconds carries credits_per_second, size_pricing, min_seconds and credits";
const WITHOUT = "a depth-map quote without seconds still carries credits_per_second, size_pricing and min_seconds";
const STANDARD = "a depth-map quote's figures are the standard prices";
const DISCOUNTED = "a depth-map quote on a discounted plan is the standard price less the discount";
const named = (rule: string, example: string) => `${rule} ("${example}")`;

/** The specification's depth-map prices: credits per second by size (`small` by default), 5 seconds at least. */
const SIZE_PRICING = { small: 20, base: 30, large: 40 };
/** The discount the sandbox's declaration gives DM-A on the planDiscounts key's plan. */
const PERCENT = 10;

interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** What the fake was asked: with which key, through the declared target or straight to it, and the body. */
interface Asked {
  readonly key: string;
  readonly via: string;
  readonly body: Record<string, unknown>;
}

/** An honest quote of `body` (the sandbox declaration's costRequest: the request under `body`) for `key`'s account. */
function honestQuote(asked: Asked): Record<string, unknown> {
  const request = asked.body.body as { size?: keyof typeof SIZE_PRICING };
  const rate = SIZE_PRICING[request.size ?? "small"];
  const fields = { credits_per_second: rate, size_pricing: SIZE_PRICING, min_seconds: 5 };
  // Exact credits only when seconds are sent.
  if (asked.body.seconds === undefined) return fields;
  const standard = Math.max(5, Math.ceil(Number(asked.body.seconds))) * rate;
  return { ...fields, credits: asked.key === DISCOUNT_KEY ? (standard * (100 - PERCENT)) / 100 : standard };
}

/** The fake of POST /v1/cost, answering as `quote` says (honestly by default); `/valid` is the declared target, `/raw` the target itself. */
async function fakeCost(quote: (asked: Asked) => Reply = (asked) => ({ status: 200, body: honestQuote(asked) })) {
  const asked: Asked[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const [, via, path] = /^\/(valid|raw)(\/.*)$/.exec(request.url ?? "") ?? [];
    const key = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    const text = Buffer.concat(chunks).toString("utf8");
    const one: Asked = { key, via: via ?? "", body: text ? JSON.parse(text) : {} };
    asked.push(one);
    let reply: Reply = {
      status: 404,
      body: { error: { type: "invalid_request_error", code: "not_found", message: "No." } },
    };
    try {
      if (request.method === "POST" && path === "/v1/cost" && [MAIN_KEY, DISCOUNT_KEY].includes(key))
        reply = quote(one);
    } catch (error) {
      reply = { status: 500, body: { error: { type: "api_error", code: "fake", message: String(error) } } };
    }
    response
      .writeHead(reply.status, { "content-type": "application/json" })
      .end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
  };
  const server = await serveOnLoopback((request, response) => void handle(request, response));
  return {
    url: server.url,
    asked,
    close: server.close,
  };
}

const sessionOf = (config: Partial<TargetConfig> = {}, of = contract, target = "http://127.0.0.1:9"): Session =>
  checkSession({
    contract: of,
    config: { ...declared, ...config },
    target: `${target}/valid`,
    targetUrl: `${target}/raw`,
    proxied: false,
    apiKey: MAIN_KEY,
  });

interface QuotesRun {
  readonly results: CheckResult[];
  readonly asked: Asked[];
}

async function quotesRun(
  quote?: (asked: Asked) => Reply,
  config: Partial<TargetConfig> = {},
  of = contract,
): Promise<QuotesRun> {
  const fake = await fakeCost(quote);
  try {
    const session = sessionOf(config, of, fake.url);
    await costQuotes.run?.({ session, stage: async () => {}, status: () => {} });
    return { results: session.results.all, asked: fake.asked };
  } finally {
    await fake.close();
  }
}

/** `[route, name, outcome, detail]` of each result, in order. */
const listed = (results: CheckResult[]) =>
  results.map((result) => [result.route, result.name, result.outcome, ...(result.detail ? [result.detail] : [])]);
const outcomes = (results: CheckResult[]) => results.map((result) => `${result.name}: ${result.outcome}`);
const resultOf = (run: QuotesRun, name: string): CheckResult | undefined => {
  const matching = run.results.filter((result) => result.name === name);
  expect(matching.length, name).toBeLessThanOrEqual(1);
  return matching[0];
};

/** Answers the main key's quotes with `main` (the honest quote changed), the discount key's honestly. */
const mainAnswers =
  (main: (honest: Record<string, unknown>, asked: Asked) => unknown, status = 200) =>
  (asked: Asked): Reply =>
    asked.key === MAIN_KEY
      ? { status, body: main(honestQuote(asked), asked) }
      : { status: 200, body: honestQuote(asked) };
/** Answers the discount key's quotes with `credits`, the main key's honestly. */
const discountCredits = (credits: unknown) => (asked: Asked) => ({
  status: 200,
  body: asked.key === DISCOUNT_KEY ? { ...honestQuote(asked), credits } : honestQuote(asked),
});

const DEFAULTS = DM_A.requestExamples.find((example) => example.name === "defaults")?.value;
const SIDE_BY_SIDE = DM_A.requestExamples.find((example) => example.name === "side-by-side")?.value;

describe("the cost-quotes check against an honest quote", () => {
  it("passes the fields, the standard prices and the discounted price of both of DM-A's examples", async () => {
    const run = await quotesRun();
    expect(listed(run.results)).toEqual([
      [ROUTE, named(FIELDS, "defaults"), "pass"],
      [ROUTE, named(WITHOUT, "defaults"), "pass"],
      [ROUTE, named(STANDARD, "defaults"), "pass"],
      [ROUTE, named(DISCOUNTED, "defaults"), "pass"],
      [ROUTE, named(FIELDS, "side-by-side"), "pass"],
      [ROUTE, named(WITHOUT, "side-by-side"), "pass"],
      [ROUTE, named(STANDARD, "side-by-side"), "pass"],
      [ROUTE, named(DISCOUNTED, "side-by-side"), "pass"],
    ]);
    expect(run.results.map((result) => result.group)).toEqual(run.results.map(() => "cost-quotes"));
  });

  it("asks for 7 seconds of each example and for none, in the declared costRequest shape, with the main key then the discount key, through the declared target", async () => {
    const run = await quotesRun();
    expect(run.asked).toEqual([
      { key: MAIN_KEY, via: "valid", body: { model: SLUG, body: DEFAULTS, seconds: 7 } },
      { key: MAIN_KEY, via: "valid", body: { model: SLUG, body: DEFAULTS } },
      { key: DISCOUNT_KEY, via: "valid", body: { model: SLUG, body: DEFAULTS, seconds: 7 } },
      { key: MAIN_KEY, via: "valid", body: { model: SLUG, body: SIDE_BY_SIDE, seconds: 7 } },
      { key: MAIN_KEY, via: "valid", body: { model: SLUG, body: SIDE_BY_SIDE } },
      { key: DISCOUNT_KEY, via: "valid", body: { model: SLUG, body: SIDE_BY_SIDE, seconds: 7 } },
    ]);
  });

  it("puts the model's slug and the request wherever the declared shape holds them, nested in objects and lists, and its own seconds", async () => {
    const costRequest = {
      quote: { of: "{model}", request: "{request}", tags: ["{model}", "{other}", 1, null, ["{request}"]] },
      count: 2,
      seconds: 1,
      flag: true,
      none: null,
    };
    const run = await quotesRun(() => ({ status: 200, body: {} }), { costRequest, planDiscounts: undefined });
    expect(run.asked[0]?.body).toEqual({
      quote: { of: SLUG, request: DEFAULTS, tags: [SLUG, "{other}", 1, null, [DEFAULTS]] },
      count: 2,
      seconds: 7,
      flag: true,
      none: null,
    });
  });

  it("takes figures written as strings for the numbers they are", async () => {
    const run = await quotesRun(
      mainAnswers((honest) => ({
        credits_per_second: String(honest.credits_per_second),
        size_pricing: { small: "20", base: " 30 ", large: "40" },
        min_seconds: "5",
        ...(honest.credits === undefined ? {} : { credits: String(honest.credits) }),
      })),
    );
    expect(outcomes(run.results).every((outcome) => outcome.endsWith(": pass"))).toBe(true);
    expect(run.results).toHaveLength(8);
  });
});

describe("a depth-map quote with seconds carries credits_per_second, size_pricing, min_seconds and credits", () => {
  it("fails a quote without the fields, naming each", async () => {
    const run = await quotesRun(mainAnswers(() => ({ credits: 140, note: "quoted" })));
    expect(resultOf(run, named(FIELDS, "defaults"))).toMatchObject({
      outcome: "fail",
      detail: "the quote has no credits_per_second; the quote has no size_pricing; the quote has no min_seconds",
    });
    expect(resultOf(run, named(FIELDS, "defaults"))?.curl).toContain("/v1/cost");
  });

  it("fails a refused quote, quoting 200 characters of the answer, and goes on to the next example", async () => {
    const refusal = { error: { type: "invalid_request_error", code: "bad", message: "Not this. ".repeat(30) } };
    const run = await quotesRun((asked) =>
      asked.key === MAIN_KEY && (asked.body.body as { size?: string }).size === undefined
        ? { status: 400, body: refusal }
        : { status: 200, body: honestQuote(asked) },
    );
    expect(listed(run.results)).toEqual([
      [
        ROUTE,
        named(FIELDS, "defaults"),
        "fail",
        `the declared quote request answered 400: ${JSON.stringify(refusal).slice(0, 200)}`,
      ],
      [ROUTE, named(FIELDS, "side-by-side"), "pass"],
      [ROUTE, named(WITHOUT, "side-by-side"), "pass"],
      [ROUTE, named(STANDARD, "side-by-side"), "pass"],
      [ROUTE, named(DISCOUNTED, "side-by-side"), "pass"],
    ]);
  });

  it("fails an accepted answer that is not a JSON object", async () => {
    const run = await quotesRun(mainAnswers(() => "140"));
    expect(resultOf(run, named(FIELDS, "defaults"))?.detail).toBe("the declared quote request answered 200: 140");
    const none = await quotesRun(mainAnswers(() => "null"));
    expect(resultOf(none, named(FIELDS, "defaults"))?.detail).toBe("the declared quote request answered 200: null");
  });
});

describe("a depth-map quote without seconds still carries credits_per_second, size_pricing and min_seconds", () => {
  const withoutSeconds = (change: (honest: Record<string, unknown>) => unknown) =>
    mainAnswers((honest, asked) => (asked.body.seconds === undefined ? change(honest) : honest));

  it("fails a quote without seconds that leaves out a field, naming each, and needs no credits in it", async () => {
    const run = await quotesRun(withoutSeconds(({ size_pricing }) => ({ size_pricing, credits: null })));
    expect(resultOf(run, named(WITHOUT, "defaults"))).toMatchObject({
      outcome: "fail",
      detail: "the quote has no credits_per_second; the quote has no min_seconds",
    });
    expect(resultOf(run, named(WITHOUT, "defaults"))?.curl).not.toContain('"seconds"');
    expect(resultOf(run, named(FIELDS, "defaults"))?.outcome).toBe("pass");
  });

  it("fails a rate other than the one the same request with seconds gave, a figure as text counting as its number", async () => {
    const run = await quotesRun(withoutSeconds((honest) => ({ ...honest, credits_per_second: 30 })));
    expect(resultOf(run, named(WITHOUT, "defaults"))?.detail).toBe(
      "credits_per_second is 30, where the same request with seconds gave 20",
    );
    const text = await quotesRun(withoutSeconds((honest) => ({ ...honest, credits_per_second: " 20" })));
    expect(resultOf(text, named(WITHOUT, "defaults"))?.outcome).toBe("pass");
  });

  it("fails a refused quote without seconds, quoting 200 characters of the answer", async () => {
    const refusal = { error: { type: "invalid_request_error", code: "bad", message: "Send seconds. ".repeat(20) } };
    const run = await quotesRun((asked) =>
      asked.key === MAIN_KEY && asked.body.seconds === undefined
        ? { status: 400, body: refusal }
        : { status: 200, body: honestQuote(asked) },
    );
    expect(resultOf(run, named(WITHOUT, "defaults"))?.detail).toBe(
      `the quote without seconds answered 400: ${JSON.stringify(refusal).slice(0, 200)}`,
    );
  });
});

describe("a depth-map quote's figures are the standard prices", () => {
  it("fails figures other than the specification's, naming each with the standard one", async () => {
    const run = await quotesRun(
      mainAnswers((honest) => ({
        ...honest,
        credits: 150,
        credits_per_second: " ",
        size_pricing: { small: 20, base: 30 },
        min_seconds: 7,
      })),
    );
    expect(resultOf(run, named(STANDARD, "defaults"))).toMatchObject({
      outcome: "fail",
      detail: [
        "credits is 150, not 140",
        'credits_per_second is " ", not 20',
        'size_pricing is {"small":20,"base":30}, not {"small":20,"base":30,"large":40}',
        "min_seconds is 7, not 5",
      ].join("; "),
    });
    expect(resultOf(run, named(STANDARD, "side-by-side"))?.detail).toBe(
      [
        "credits is 150, not 280",
        'credits_per_second is " ", not 40',
        'size_pricing is {"small":20,"base":30}, not {"small":20,"base":30,"large":40}',
        "min_seconds is 7, not 5",
      ].join("; "),
    );
  });

  it("fails a quote without size_pricing or min_seconds on both rules", async () => {
    const run = await quotesRun(mainAnswers(({ credits, credits_per_second }) => ({ credits, credits_per_second })));
    expect(resultOf(run, named(STANDARD, "defaults"))?.detail).toBe(
      'size_pricing is undefined, not {"small":20,"base":30,"large":40}; min_seconds is undefined, not 5',
    );
  });

  it("skips the rule where the account's prices are not declared standard, and judges only the fields and the discount", async () => {
    const run = await quotesRun(undefined, { standardPrices: false });
    expect(listed(run.results)).toEqual([
      [ROUTE, STANDARD, "skip", "the account's prices are not declared standard (standardPrices)"],
      [ROUTE, named(FIELDS, "defaults"), "pass"],
      [ROUTE, named(WITHOUT, "defaults"), "pass"],
      [ROUTE, named(DISCOUNTED, "defaults"), "pass"],
      [ROUTE, named(FIELDS, "side-by-side"), "pass"],
      [ROUTE, named(WITHOUT, "side-by-side"), "pass"],
      [ROUTE, named(DISCOUNTED, "side-by-side"), "pass"],
    ]);
  });
});

describe("a depth-map quote on a discounted plan is the standard price less the discount", () => {
  it("fails credits other than the standard price less the discount, with the key's request", async () => {
    const run = await quotesRun(discountCredits(125));
    expect(resultOf(run, named(DISCOUNTED, "defaults"))).toMatchObject({
      outcome: "fail",
      detail: "credits is 125; the standard price is 140, less 10 % 126",
    });
    expect(resultOf(run, named(DISCOUNTED, "defaults"))?.curl).toContain(`Bearer ${DISCOUNT_KEY}`);
    expect(resultOf(run, named(STANDARD, "defaults"))?.outcome).toBe("pass");
  });

  it("takes the discounted price rounded either way: 12 % off 140 is 123.2, so 123 or 124", async () => {
    const discounts = (percent: number) => ({ planDiscounts: { apiKey: DISCOUNT_KEY, models: { "DM-A": percent } } });
    for (const credits of [123, "124"]) {
      const run = await quotesRun(discountCredits(credits), discounts(12));
      expect(resultOf(run, named(DISCOUNTED, "defaults"))?.outcome, String(credits)).toBe("pass");
    }
    const run = await quotesRun(discountCredits(125), discounts(12));
    expect(resultOf(run, named(DISCOUNTED, "defaults"))?.detail).toBe(
      "credits is 125; the standard price is 140, less 12 % 123 or 124",
    );
    // Free on the plan: an empty text is no number, not 0.
    expect(resultOf(await quotesRun(discountCredits(0), discounts(100)), named(DISCOUNTED, "defaults"))?.outcome).toBe(
      "pass",
    );
    for (const credits of ["", "  "])
      expect(
        resultOf(await quotesRun(discountCredits(credits), discounts(100)), named(DISCOUNTED, "defaults"))?.detail,
      ).toBe(`credits is ${JSON.stringify(credits)}; the standard price is 140, less 100 % 0`);
  });

  it("fails a refused quote on the discounted plan, quoting 200 characters of the answer", async () => {
    const refusal = { error: { type: "permission_error", code: "nope", message: "Not on this plan. ".repeat(20) } };
    const run = await quotesRun((asked) =>
      asked.key === DISCOUNT_KEY ? { status: 403, body: refusal } : { status: 200, body: honestQuote(asked) },
    );
    expect(resultOf(run, named(DISCOUNTED, "defaults"))?.detail).toBe(
      `credits is ${JSON.stringify(JSON.stringify(refusal).slice(0, 200))}; the standard price is 140, less 10 % 126`,
    );
  });

  it("skips the rule where no key's plan is declared to discount DM-A, and asks no quote of another key", async () => {
    for (const planDiscounts of [undefined, { apiKey: DISCOUNT_KEY, models: { "I-A": 15 } }]) {
      const run = await quotesRun(undefined, { planDiscounts });
      expect(listed(run.results)).toEqual([
        [ROUTE, DISCOUNTED, "skip", "not declared: a key whose plan discounts DM-A (planDiscounts)"],
        [ROUTE, named(FIELDS, "defaults"), "pass"],
        [ROUTE, named(WITHOUT, "defaults"), "pass"],
        [ROUTE, named(STANDARD, "defaults"), "pass"],
        [ROUTE, named(FIELDS, "side-by-side"), "pass"],
        [ROUTE, named(WITHOUT, "side-by-side"), "pass"],
        [ROUTE, named(STANDARD, "side-by-side"), "pass"],
      ]);
      expect(run.asked.map((asked) => asked.key)).toEqual([MAIN_KEY, MAIN_KEY, MAIN_KEY, MAIN_KEY]);
    }
  });
});

describe("what the standard price of a depth-map quote holds, as the description prices the model", () => {
  /** A description whose DM-A is priced by `components` instead. */
  const pricedBy = (components: unknown[]): Contract => {
    const doc = structuredClone(contract.doc) as unknown as {
      paths: Record<string, Record<string, { "x-pricing": { components: unknown[] } }>>;
    };
    doc.paths[pricedPathOf("DM-A")]!.post!["x-pricing"].components = components;
    return new Contract(doc as unknown as OpenApiDocument);
  };

  it("expects no size_pricing of a rate by no field and no min_seconds without a minimum, and the per-second line's own rate", async () => {
    // A set-up charge of 5 credits, then 25 credits a second: 180 credits for 7 seconds.
    const flat = pricedBy([
      { label: "set-up", rate: 5 },
      { label: "input video", rate: 25, per: { mediaSeconds: "video", rounding: "up" } },
    ]);
    const quote = { credits_per_second: 25, size_pricing: { any: 1 }, min_seconds: 99, credits: 180 };
    const run = await quotesRun(
      (asked) => ({ status: 200, body: asked.key === MAIN_KEY ? quote : { ...quote, credits: 162 } }),
      {},
      flat,
    );
    expect(outcomes(run.results)).toEqual([
      `${named(FIELDS, "defaults")}: pass`,
      `${named(WITHOUT, "defaults")}: pass`,
      `${named(STANDARD, "defaults")}: pass`,
      `${named(DISCOUNTED, "defaults")}: pass`,
      `${named(FIELDS, "side-by-side")}: pass`,
      `${named(WITHOUT, "side-by-side")}: pass`,
      `${named(STANDARD, "side-by-side")}: pass`,
      `${named(DISCOUNTED, "side-by-side")}: pass`,
    ]);
  });

  it("judges only the fields of an example the description cannot price: a size without a default, left out", async () => {
    const doc = structuredClone(contract.doc) as unknown as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>;
    };
    const schema = doc.paths[pricedPathOf("DM-A")]!.post!.requestBody.content["application/json"]!.schema as {
      properties: { size: { default?: string } };
    };
    delete schema.properties.size.default;
    const run = await quotesRun(undefined, {}, new Contract(doc as unknown as OpenApiDocument));
    expect(outcomes(run.results)).toEqual([
      `${named(FIELDS, "defaults")}: pass`,
      `${named(WITHOUT, "defaults")}: pass`,
      `${named(FIELDS, "side-by-side")}: pass`,
      `${named(WITHOUT, "side-by-side")}: pass`,
      `${named(STANDARD, "side-by-side")}: pass`,
      `${named(DISCOUNTED, "side-by-side")}: pass`,
    ]);
  });

  it("judges only the fields where no component is priced by the second", async () => {
    const run = await quotesRun(undefined, {}, pricedBy([{ label: "flat", rate: 100 }]));
    expect(outcomes(run.results)).toEqual([
      `${named(FIELDS, "defaults")}: pass`,
      `${named(WITHOUT, "defaults")}: pass`,
      `${named(FIELDS, "side-by-side")}: pass`,
      `${named(WITHOUT, "side-by-side")}: pass`,
    ]);
    expect(run.asked.map((asked) => asked.key)).toEqual([MAIN_KEY, MAIN_KEY, MAIN_KEY, MAIN_KEY]);
  });
});

describe("what the cost-quotes check needs", () => {
  it("needs costRequest declared, POST /v1/cost and a depth-map model implemented", () => {
    expect(costQuotes.blockedBy?.(sessionOf({ costRequest: undefined }))).toBe(
      "not declared: the shape of a POST /v1/cost request, which is not shown (how it names the model and the request) (costRequest)",
    );
    expect(costQuotes.blockedBy?.(sessionOf({ areas: ["depth-maps", "images"] }))).toBe(
      "the target does not implement POST /v1/cost",
    );
    // The depth-map poll alone is no depth-map model.
    for (const config of [{ areas: ["cost", "images"] }, { models: ["I-A"] }])
      expect(costQuotes.blockedBy?.(sessionOf(config))).toBe(
        "the target implements no depth-map model, the only quotes whose fields are shown",
      );
    expect(costQuotes.blockedBy?.(sessionOf())).toBeNull();
  });

  it("quotes with POST /v1/cost where the description has another method on that path", async () => {
    const doc = structuredClone(contract.doc) as unknown as {
      paths: Record<string, Record<string, { operationId?: string; tags: unknown; responses: unknown }>>;
    };
    // A GET listed first, as find() would meet it.
    const post = doc.paths["/v1/cost"]!.post!;
    doc.paths["/v1/cost"] = {
      get: { operationId: "readCostTable", tags: post.tags, responses: post.responses },
      post,
    };
    const run = await quotesRun(undefined, {}, new Contract(doc as unknown as OpenApiDocument));
    expect(outcomes(run.results).every((outcome) => outcome.endsWith(": pass"))).toBe(true);
    expect(run.results).toHaveLength(8);
  });

  it("reports in the cost-quotes group", () => {
    expect(costQuotes.group).toBe("cost-quotes");
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`cost-quotes\` | ${costQuotes.summary} |`);
  });
});
