/**
 * The quote checks the fields pricing reads as the description's JSON Schema does: starting from
 * each priced route's request examples (which the schema accepts), a body made invalid in a priced
 * field (value outside the enum, out of range, wrong type, or a broken cross-field rule) is rejected
 * by the Ajv registry and makes quote throw a QuoteError naming that field.
 */
import { describe, expect, it } from "vitest";
import { pathOf } from "../client/labels.ts";
import { priceTables, quote, QuoteError, type PricedPath } from "../../generated/costs.ts";
import type { FieldRule, PriceTables } from "../../runtime/costs/pricing.ts";
import { bodyErrors, operation } from "../support/description.ts";

const tables: PriceTables = priceTables;

/** Bodies that break `rule`, each with what it breaks. */
function breaking(rule: FieldRule): Array<[string, unknown]> {
  const bad: Array<[string, unknown]> = [];
  if (rule.enum) bad.push(["a value outside the enum", typeof rule.enum[0] === "number" ? 999.5 : "not-a-value"]);
  if (rule.maximum !== undefined) bad.push(["above the maximum", rule.maximum + 1]);
  if (rule.minimum !== undefined) bad.push(["below the minimum", rule.minimum - 1]);
  if (rule.maxItems !== undefined)
    bad.push(["too many items", Array.from({ length: rule.maxItems + 1 }, () => "https://files.example.com/x")]);
  if (rule.type === "integer") bad.push(["not an integer", 1.5]);
  if (rule.type === "boolean" || rule.type === "string" || rule.type === "array")
    bad.push(["the wrong type", rule.type === "boolean" ? "yes" : 7]);
  return bad;
}

function quoteError(path: PricedPath, body: unknown): QuoteError | undefined {
  try {
    quote(path, body as never);
  } catch (error) {
    if (error instanceof QuoteError) return error;
    throw error;
  }
  return undefined;
}

const routes = Object.entries(tables).filter(
  ([, route]) => route.method === "post" && route.pricing && Object.keys(route.fields).length,
);

it("priced routes with fields to check exist", () => {
  expect(routes.length).toBeGreaterThan(10);
});

for (const [path, route] of routes) {
  const examples = Object.entries(operation(path).requestBody?.content["application/json"]?.examples ?? {});
  describe(path, () => {
    it("has a request example to start from, which the schema accepts and the quote does not reject", () => {
      expect(examples.length).toBeGreaterThan(0);
      for (const [name, example] of examples) {
        expect(bodyErrors(path, example.value), name).toBe("");
        expect(quoteError(path as PricedPath, example.value), name).toBeUndefined();
      }
    });
    const base = (examples[0]?.[1].value ?? {}) as Record<string, unknown>;
    for (const [field, rule] of Object.entries(route.fields)) {
      for (const [broken, value] of breaking(rule)) {
        it(`${field}: ${broken} is rejected by the schema and by the quote`, () => {
          const body = { ...base, [field]: value };
          expect(bodyErrors(path, body), JSON.stringify(body)).not.toBe("");
          expect(quoteError(path as PricedPath, body)?.field).toBe(`body.${field}`);
        });
      }
    }
  });
}

describe("cross-field rules on priced fields", () => {
  const cases: Array<[string, PricedPath, Record<string, unknown>, string]> = [
    ["V-A 2k without a video to extend", pathOf("V-A"), { prompt: "p", resolution: "2k" }, "body.video"],
    [
      "V-F extension of 20 new seconds",
      pathOf("V-F"),
      { resolution: "720p", length_seconds: 20, video: "https://x/v.mp4" },
      "body.length_seconds",
    ],
    [
      "V-A extension with reference clips",
      pathOf("V-A"),
      { prompt: "p", video: "https://x/v.mp4", reference_videos: ["https://x/r.mp4"] },
      "body.reference_videos",
    ],
    [
      "V-A image with reference images",
      pathOf("V-A"),
      { prompt: "p", image: "https://x/i.png", reference_images: ["a", "b", "c"] },
      "body.reference_images",
    ],
    [
      "V-A adaptive aspect ratio without reference media or a frame",
      pathOf("V-A"),
      { prompt: "p", aspect_ratio: "adaptive" },
      "body.reference_images|reference_videos|reference_audios|image|end_image",
    ],
  ];
  for (const [name, path, body, field] of cases) {
    it(name, () => {
      expect(bodyErrors(path, body)).not.toBe("");
      expect(quoteError(path, body)?.field).toBe(field);
    });
  }
  it("the same rules let valid bodies through", () => {
    const valid: Array<[PricedPath, Record<string, unknown>, number, Record<string, number>?]> = [
      [pathOf("V-A"), { prompt: "p", resolution: "2k", video: "https://x/v.mp4" }, 2100 + 1700, { video: 10 }],
      [pathOf("V-F"), { resolution: "720p", length_seconds: 15, video: "https://x/v.mp4" }, 4275],
      [pathOf("V-F"), { resolution: "720p", length_seconds: 20 }, 4000],
    ];
    for (const [path, body, credits, media] of valid) {
      expect(bodyErrors(path, body)).toBe("");
      expect(quote(path, body, media as never).credits).toBe(credits);
    }
  });
});
