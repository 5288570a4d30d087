/**
 * One source, no drift: the committed generated/costs.ts and docs/pricing.md are what the generator
 * makes of the bundle, the price page shows every rate and rule of the tables, and the prices the
 * description's examples state (create-route example summaries, GET /v1/models and POST /v1/cost
 * examples) agree with the tables.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pathOf } from "../client/labels.ts";
import { generate } from "../../generators/costs.ts";
import { priceTables, quote, type PricedPath } from "../../generated/costs.ts";
import type { PriceTables, RateTable } from "../../runtime/costs/pricing.ts";
import { deref } from "../../model/document.ts";
import { doc, model, operation } from "../support/description.ts";

// Read through the general table type: the generated constant's literal types differ per route.
const tables: PriceTables = priceTables;
const leaves = (table: RateTable): number[] =>
  Object.values(table).flatMap((node) => (typeof node === "number" ? [node] : leaves(node)));

describe("generated files are fresh", () => {
  for (const [file, text] of Object.entries(generate(model))) {
    it(`${file} is what generators/costs.ts makes of generated/openapi.json`, () => {
      expect(readFileSync(file, "utf8")).toBe(text);
    });
  }
});

describe("docs/pricing.md shows every route, rate and rule", () => {
  const page = readFileSync("docs/pricing.md", "utf8");
  const sections = new Map(
    page
      .split(/^## /m)
      .slice(1)
      .map((text) => [text.slice(0, text.indexOf("\n")), text]),
  );
  for (const [path, route] of Object.entries(tables)) {
    it(path, () => {
      const heading = [...sections.keys()].find((title) => title.startsWith(`${route.method.toUpperCase()} ${path}`));
      expect(heading, `no section for ${path}`).toBeDefined();
      const text = sections.get(heading!)!;
      const cells = new Set(text.split("\n").flatMap((line) => line.split("|").map((cell) => cell.trim())));
      for (const component of route.pricing?.components ?? []) {
        expect(text).toContain(`| ${component.label} |`);
        if (component.rateNotShown) expect(text).toMatch(new RegExp(`\\| ${component.label} \\| not shown`));
        else if (component.rateTimes)
          expect(text).toContain(
            `| ${component.rateTimes.factor} times the rate of ${component.rateTimes.component} |`,
          );
        else
          for (const rate of component.rate !== undefined ? [component.rate] : leaves(component.rateBy!.table))
            expect(cells).toContain(String(rate));
        const per = component.per;
        if (per && "mediaSeconds" in per) {
          if (per.rounding === "up") expect(text).toContain("rounded up to whole seconds");
          if (per.minimum !== undefined) expect(text).toContain(`at least ${per.minimum}`);
          if (per.maximum !== undefined) expect(text).toContain(`at most ${per.maximum}`);
        }
        if (per && "itemsBeyond" in per) expect(text).toContain(`beyond the first ${per.itemsBeyond.free}`);
      }
      if (route.notShown) expect(text).toContain(`**Not shown:** ${route.notShown}`);
      if (route.pricing?.charged === "free") expect(text).toContain("Free.");
      const status =
        route.pricing === null
          ? "not shown"
          : route.notShown
            ? "partly shown"
            : route.pricing.charged === "free"
              ? "free"
              : "shown";
      expect(page).toContain(`| ${heading} | ${status} |`);
    });
  }
});

/** The credits a summary states: `(50 credits)`, or `(210 + 30 + 20 = 260 credits)`, or `(540 + 270 credits)`. */
function statedTotal(summary: string): number | undefined {
  const match = /\(([\d +=]+) credits\)/.exec(summary);
  if (!match) return undefined;
  const [sum, total] = match[1]!.split("=").map((side) => side.split("+").reduce((acc, term) => acc + Number(term), 0));
  if (total !== undefined) expect(sum, `the sum in "${summary}"`).toBe(total);
  return total ?? sum;
}

/**
 * Totals of the examples priced per second, for a few input durations, worked out by hand from the
 * specification ("Depth maps": 20 credits per second of input for `small`, the default size, 40 for
 * `large`, rounded up to whole seconds, 5-second minimum), keyed by model label and example name.
 */
const PER_SECOND_TOTALS: Record<string, ReadonlyArray<readonly [seconds: number, credits: number]>> = {
  // 10 s x 20; 7.2 s billed as 8 s x 20; 2 s billed as the 5-second minimum x 20.
  "DM-A defaults": [
    [10, 200],
    [7.2, 160],
    [2, 100],
  ],
  // 10 s x 40; 29.1 s billed as 30 s x 40; 3 s billed as 5 s x 40.
  "DM-A side-by-side": [
    [10, 400],
    [29.1, 1_200],
    [3, 200],
  ],
};

describe("create-route examples that state a price agree with the quote", () => {
  const examples = Object.keys(tables).flatMap((path) =>
    Object.entries(operation(path, tables[path]!.method).requestBody?.content["application/json"]?.examples ?? {}).map(
      ([name, example]) => [path as PricedPath, name, example.summary ?? "", example.value] as const,
    ),
  );
  const stated = examples.filter(([, , summary]) => /credits/.test(summary));
  it("some examples state prices", () => {
    expect(stated.length).toBeGreaterThan(10);
  });
  for (const [path, name, summary, value] of stated) {
    it(`${path} ${name}: ${summary}`, () => {
      const perSecond = /(\d+) credits per second/.exec(summary);
      if (perSecond) {
        const [field] = Object.keys(tables[path]!.media);
        const totals = PER_SECOND_TOTALS[`${tables[path]!.model} ${name}`];
        expect(
          totals,
          "a per-second example needs its totals worked out from the specification in PER_SECOND_TOTALS",
        ).toBeDefined();
        for (const [seconds, credits] of totals!) {
          const result = quote(path, value as never, { [field!]: seconds } as never);
          expect(result.breakdown.map((line) => line.rate)).toContain(Number(perSecond[1]));
          expect(result.credits, `${seconds} s`).toBe(credits);
        }
      } else {
        expect(quote(path, value as never).credits).toBe(statedTotal(summary));
      }
    });
  }
});

type Example = { summary?: string; value?: unknown };
const responseExamples = (path: string, method: "get" | "post"): Record<string, Example> =>
  operation(path, method).responses["200"]?.content?.["application/json"]?.examples ?? {};

/** The rate table of the route of the model labelled `label`. */
function tableOf(label: string): RateTable {
  const route = Object.values(tables).find((candidate) => candidate.model === label);
  const table = route?.pricing?.components[0]?.rateBy?.table;
  if (!table) throw new Error(`no rate table for ${label}`);
  return table;
}

describe("GET /v1/models and POST /v1/cost examples agree with the tables", () => {
  const models = Object.values(responseExamples("/v1/models", "get")).map(
    (example) => example.value as Record<string, unknown>,
  );
  it("size_pricing of the video-depth model is the depth-map size table", () => {
    const depth = models.filter((value) => value.type === "video-depth");
    expect(depth.length).toBeGreaterThan(0);
    for (const value of depth) expect(value.size_pricing).toEqual(tableOf("DM-A"));
  });
  it("resolution_pricing is the named model's per-second table", () => {
    const examples = Object.values(responseExamples("/v1/models", "get")).filter(
      (example) => (example.value as Record<string, unknown>).resolution_pricing,
    );
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const label = /([A-Z]+-[A-Z])'s resolution_pricing/.exec(example.summary ?? "")?.[1];
      expect(label, `the summary "${example.summary}" names the model`).toBeDefined();
      expect((example.value as Record<string, unknown>).resolution_pricing).toEqual(tableOf(label!));
    }
  });
  it("a depth-map cost quote carries the size table, the size's rate, the minimum and the quoted credits", () => {
    const quotes = Object.values(responseExamples("/v1/cost", "post")).filter(
      (example) => (example.value as Record<string, unknown>).size_pricing,
    );
    expect(quotes.length).toBeGreaterThan(0);
    const per = tables[pathOf("DM-A")]?.pricing?.components[0]?.per;
    if (!per || !("mediaSeconds" in per)) throw new Error("the depth-map price is not per second of video");
    for (const { summary = "", value } of quotes) {
      const [, size, seconds] = /size (\w+) for (\d+(?:\.\d+)?) seconds/.exec(summary) ?? [];
      expect(size, `the summary "${summary}" names the size and seconds`).toBeDefined();
      const body = value as {
        credits: number;
        credits_per_second: number;
        size_pricing: RateTable;
        min_seconds: number;
      };
      expect(body.size_pricing).toEqual(tableOf("DM-A"));
      expect(body.credits_per_second).toBe(tableOf("DM-A")[size!]);
      expect(body.min_seconds).toBe(per.minimum);
      expect(body.credits).toBe(
        quote(pathOf("DM-A"), { video: "v", size: size as never }, { video: Number(seconds) }).credits,
      );
      const sent = Object.values(
        operation("/v1/cost", "post").requestBody?.content["application/json"]?.examples ?? {},
      ).map((example) => (example.value as { seconds?: number }).seconds);
      expect(sent, "a POST /v1/cost request example sends the seconds this quote is for").toContain(Number(seconds));
    }
  });
});

/** The `credits` (and `seconds`) of a create route's 200 example: what the job charges on success. */
function acceptedExamples(path: string): Array<{ credits: number; seconds?: number }> {
  const response = deref(doc, operation(path).responses["200"] ?? {}) as {
    content?: Record<string, { examples?: Record<string, Example> }>;
  };
  return Object.values(response.content?.["application/json"]?.examples ?? {})
    .map((example) => example.value as { credits?: unknown; seconds?: number })
    .filter((value): value is { credits: number; seconds?: number } => typeof value.credits === "number");
}

describe("create responses' credits examples are prices of their route", () => {
  const routes = Object.keys(tables).filter((path) => tables[path]!.method === "post" && acceptedExamples(path).length);
  it("some create responses state credits", () => {
    expect(routes.length).toBeGreaterThan(2);
  });
  const check = (path: string) => () => {
    const requests = Object.values(operation(path).requestBody?.content["application/json"]?.examples ?? {}).map(
      (example) => example.value,
    );
    for (const { credits, seconds } of acceptedExamples(path)) {
      // With `seconds` (motion control, lip sync) the credits are the billed seconds times the rate.
      const media = seconds === undefined ? undefined : { [Object.keys(tables[path]!.media)[0]!]: seconds };
      const quoted = requests.map((body) => quote(path as PricedPath, body as never, media as never).credits);
      expect(quoted, `${path}: ${credits} credits is not the price of any of its request examples`).toContain(credits);
    }
  };
  for (const path of routes) it(path, check(path));
});
