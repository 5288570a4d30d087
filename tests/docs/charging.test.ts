/**
 * When each operation is charged, for the billing guide (docs-src/charging.ts): a row per charging
 * mode some operation follows, in the definition's order, with the mode's meaning in the words of
 * x-pricing's definition; then "price not shown" for operations the description marks so and "no
 * price stated" for those with neither; a mode no operation follows has no row.
 */
import { describe, expect, it } from "vitest";
import { chargedMeanings, chargeRows } from "../../docs-src/charging.ts";
import type { OpenApiDocument, Operation } from "../../model/document.ts";

const op = (operationId: string, extra: Partial<Operation> = {}): Operation => ({
  operationId,
  responses: {},
  ...extra,
});

const DOC = {
  openapi: "3.1.0",
  info: { title: "T", version: "1" },
  paths: {
    "/v1/uploads": { post: op("upload", { "x-pricing": { charged: "free" } }) },
    "/v1/images/i-a": { post: op("a", { "x-pricing": { charged: "on-success" } }) },
    "/v1/images/i-d": { post: op("d", { "x-not-shown": { price: "Not shown." } }) },
    "/v1/images/i-b": { post: op("b", { "x-pricing": { charged: "on-success" } }) },
    "/v1/feed": { get: op("feed", { "x-not-shown": { requiredness: "Not shown." } }) },
  },
  components: {},
} as unknown as OpenApiDocument;

describe("chargeRows", () => {
  it("gives the modes operations follow in the definition's order with their meanings, then the two no-price rows", () => {
    expect(chargeRows(DOC)).toEqual([
      {
        rule: "on-success",
        label: "`on-success`",
        meaning: "only when the job reaches succeeded",
        operations: ["POST /v1/images/i-a", "POST /v1/images/i-b"],
      },
      { rule: "free", label: "`free`", meaning: "never", operations: ["POST /v1/uploads"] },
      {
        rule: "price not shown",
        label: "price not shown",
        meaning: "The specification says the price is not shown (see the Not shown page).",
        operations: ["POST /v1/images/i-d"],
      },
      {
        rule: "no price stated",
        label: "no price stated",
        meaning: "The specification states no price for the route.",
        operations: ["GET /v1/feed"],
      },
    ]);
  });
});

describe("chargedMeanings", () => {
  it("reads each mode's meaning off the definition, its closing full stop dropped", () => {
    expect([...chargedMeanings({ description: "a: first. Still a; b: second.", enum: ["a", "b"] })]).toEqual([
      ["a", "first. Still a"],
      ["b", "second"],
    ]);
  });

  it("fails the build, naming each mode the definition gives no meaning", () => {
    expect(() => chargedMeanings({ description: "a: first; c: third.", enum: ["a", "b", "d"] })).toThrow(
      "x-pricing.charged's definition gives no meaning for b, d",
    );
  });
});
