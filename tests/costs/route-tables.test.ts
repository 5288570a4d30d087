/**
 * Reading price tables off a description: what is extracted, and the description mistakes that
 * stop the generator (each would otherwise misprice silently).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonSchema, OpenApiDocument, Operation } from "../../model/document.ts";
import { priceTables } from "../../model/price-tables.ts";

const properties: Record<string, JsonSchema> = {
  size: { type: "string", enum: ["S", "L"], default: "S" },
  count: { type: "integer", minimum: 1, maximum: 4 },
  hd: { type: "boolean" },
  clip: { type: "string", "x-media": { kind: "video", maxDurationSeconds: 30, formats: ["mp4"] } },
  prompt: { type: "string" },
};

function post(pricing: unknown, extra: Partial<Operation> = {}): Operation {
  return {
    operationId: "create",
    summary: "Create",
    "x-model-label": "X-A",
    "x-pricing": pricing,
    requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Body" } } } },
    responses: {},
    ...extra,
  };
}

function documentOf(paths: OpenApiDocument["paths"]): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths,
    components: { schemas: { Body: { type: "object", additionalProperties: false, required: ["clip"], properties } } },
  };
}

const byLookup = (table: unknown) => ({
  charged: "on-success",
  components: [{ label: "item", rateBy: { fields: ["size", "hd"], table }, per: { field: "count" } }],
});

describe("extraction", () => {
  let tables: ReturnType<typeof priceTables>;
  // Read in a hook, not as the file is collected: a reader's mutant then runs against every test
  // here (tests/mutation/hook-coverage.ts), not only against the tests that call priceTables themselves.
  beforeAll(() => {
    tables = priceTables(
      documentOf({
        "/v1/x/b": { post: post(byLookup({ S: { true: 2, false: 1 }, L: { true: 4, false: 3 } })) },
        "/v1/x/a": {
          post: post({
            charged: "on-success",
            components: [
              {
                label: "clip",
                rate: 5,
                per: { mediaSeconds: "clip", rounding: "up" },
                when: [{ fact: "tier", equals: "gold" }],
              },
            ],
          }),
        },
        "/v1/x/hidden": { post: post(undefined, { "x-not-shown": { price: "The price of X-C is not shown." } }) },
        "/v1/search": {
          get: {
            operationId: "search",
            responses: {},
            parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
            "x-pricing": { charged: "per-request", components: [{ label: "search", rate: 10 }] },
          },
        },
        "/v1/unpriced": { post: post(undefined) },
      }),
    );
  });
  it("lists every priced route in path order, and only those", () => {
    expect(Object.keys(tables)).toEqual(["/v1/search", "/v1/x/a", "/v1/x/b", "/v1/x/hidden"]);
  });
  it("keeps the rules of the fields the pricing reads, with requiredness", () => {
    // Strictly: a rule holds only the keys its schema states.
    expect(tables["/v1/x/b"]!.fields).toStrictEqual({
      size: { type: "string", enum: ["S", "L"], default: "S", required: false },
      hd: { type: "boolean", required: false },
      count: { type: "integer", minimum: 1, maximum: 4, required: false },
    });
    expect(tables["/v1/x/a"]!.fields).toStrictEqual({ clip: { type: "string", required: true } });
  });
  it("lists the fields of a closed schema, and none for a query", () => {
    expect(tables["/v1/x/b"]!.knownFields).toEqual(["size", "count", "hd", "clip", "prompt"]);
    expect(tables["/v1/search"]).toMatchObject({ knownFields: null, bodyIn: "query", method: "get" });
  });
  it("gives a route without a summary an empty one", () => {
    expect([tables["/v1/search"]!.summary, tables["/v1/x/a"]!.summary]).toEqual(["", "Create"]);
  });
  it("keeps the duration limits of priced media and the facts with their values", () => {
    expect(tables["/v1/x/a"]).toMatchObject({
      media: { clip: { list: false, maxDurationSeconds: 30 } },
      facts: { tier: ["gold"] },
      model: "X-A",
    });
  });
  it("keeps the cross-field rules that involve a priced field, one per alternative of their if", () => {
    const ruled = documentOf({
      "/v1/x/b": { post: post(byLookup({ S: { true: 2, false: 1 }, L: { true: 4, false: 3 } })) },
    });
    ruled.components.schemas!.Body = {
      ...ruled.components.schemas!.Body,
      allOf: [
        {
          description: "L needs a clip",
          if: { required: ["size"], properties: { size: { const: "L" } } },
          then: { required: ["clip"] },
        },
        {
          description: "hd or a prompt: at most 2",
          if: { anyOf: [{ required: ["hd"] }, { required: ["prompt"] }] },
          then: { properties: { count: { maximum: 2 } }, not: { anyOf: [{ required: ["extra"] }] } },
        },
        { description: "unpriced fields only", dependentRequired: { prompt: ["extra"] } },
      ],
    };
    expect(priceTables(ruled)["/v1/x/b"]!.crossFieldRules).toEqual([
      { description: "L needs a clip", when: [{ field: "size", equals: "L" }], required: ["clip"] },
      {
        description: "hd or a prompt: at most 2",
        when: [{ field: "hd", present: true }],
        limits: { count: { maximum: 2 } },
        forbidden: ["extra"],
      },
      {
        description: "hd or a prompt: at most 2",
        when: [{ field: "prompt", present: true }],
        limits: { count: { maximum: 2 } },
        forbidden: ["extra"],
      },
    ]);
  });
  it("reads a priced query's parameters as its fields: only query parameters, each with its requiredness", () => {
    const query = priceTables(
      documentOf({
        "/v1/search": {
          get: {
            operationId: "search",
            responses: {},
            parameters: [
              { name: "q", in: "query", schema: { type: "string" } },
              { name: "tier", in: "query", required: true, schema: { type: "string", enum: ["basic", "full"] } },
              // A header of the same name is no field of the query.
              { name: "q", in: "header", required: true, schema: { type: "integer" } },
            ],
            "x-pricing": {
              charged: "per-request",
              components: [
                { label: "search", rateBy: { fields: ["tier"], table: { basic: 10, full: 20 } } },
                { label: "filtered", rate: 1, when: [{ field: "q", equals: "cats" }] },
              ],
            },
          },
        },
      }),
    )["/v1/search"]!;
    expect(query.fields).toStrictEqual({
      tier: { type: "string", enum: ["basic", "full"], required: true },
      q: { type: "string", required: false },
    });
  });
  it("reads a const as a one-value enum, and each fact's values once", () => {
    const doc = documentOf({
      "/v1/x/a": {
        post: post({
          charged: "on-success",
          components: [
            {
              label: "a",
              rate: 1,
              when: [
                { fact: "tier", equals: "gold" },
                { field: "mode", equals: "fast" },
              ],
            },
            { label: "b", rate: 2, when: [{ fact: "tier", equals: "gold" }] },
            { label: "c", rate: 3, when: [{ fact: "tier", equals: "silver" }] },
          ],
        }),
      },
    });
    doc.components.schemas!.Body!.properties = { ...properties, mode: { const: "fast" } };
    const table = priceTables(doc)["/v1/x/a"]!;
    expect(table.fields).toStrictEqual({ mode: { enum: ["fast"], required: false } });
    expect(table.facts).toEqual({ tier: ["gold", "silver"] });
  });
  it("keeps every duration limit of a priced media field, and no key it does not state", () => {
    const limits = {
      minDurationSeconds: 2,
      maxDurationSeconds: 30,
      maxCombinedDurationSeconds: 45,
      conditionalLimits: [{ when: { field: "hd", equals: true }, limits: { maxDurationSeconds: 10 } }],
    };
    const priced = (media: Record<string, unknown>) => {
      const doc = documentOf({
        "/v1/x/a": {
          post: post({
            charged: "on-success",
            components: [{ label: "clip", rate: 5, per: { mediaSeconds: "clip" } }],
          }),
        },
      });
      doc.components.schemas!.Body!.properties = {
        ...properties,
        clip: { type: "array", items: { type: "string" }, "x-media": { kind: "video", formats: ["mp4"], ...media } },
      };
      return priceTables(doc)["/v1/x/a"]!.media;
    };
    expect(priced(limits)).toStrictEqual({ clip: { list: true, ...limits } });
    expect(priced({})).toStrictEqual({ clip: { list: true } });
  });
  it("keeps the not-shown sentence with no pricing", () => {
    expect(tables["/v1/x/hidden"]).toMatchObject({
      pricing: null,
      notShown: "The price of X-C is not shown.",
      fields: {},
    });
  });
});

describe("description mistakes stop the generator", () => {
  const cases: Array<[string, unknown, string]> = [
    [
      "a field the request does not define",
      { charged: "on-success", components: [{ label: "item", rate: 1, per: { field: "num" } }] },
      "POST /v1/x/a: x-pricing reads num, which the request does not define",
    ],
    [
      "a missing rate",
      byLookup({ S: { true: 2, false: 1 }, L: { true: 4 } }),
      'POST /v1/x/a: x-pricing "item" has no rate for size=L, hd=false',
    ],
    [
      "a rate for a value the field does not allow",
      byLookup({
        S: { true: 2, false: 1 },
        L: { true: 4, false: 3 },
        XL: { true: 5, false: 5 },
        XXL: { true: 6, false: 6 },
      }),
      'x-pricing "item" has rates for size = XL, XXL, which size does not allow (S, L)',
    ],
    [
      "a lookup by a field with no enum",
      { charged: "on-success", components: [{ label: "item", rateBy: { fields: ["prompt"], table: { a: 1 } } }] },
      "x-pricing looks a rate up by prompt, which has neither an enum nor type boolean",
    ],
    [
      "a condition with a value outside the enum",
      { charged: "on-success", components: [{ label: "item", rate: 1, when: [{ field: "size", equals: "M" }] }] },
      'x-pricing "item" compares size with "M", which it cannot take',
    ],
    [
      "a condition with a value of the wrong type",
      { charged: "on-success", components: [{ label: "item", rate: 1, when: [{ field: "hd", equals: "true" }] }] },
      'x-pricing "item" compares hd with "true", which it cannot take',
    ],
  ];
  for (const [name, pricing, message] of cases) {
    it(name, () => {
      expect(() => priceTables(documentOf({ "/v1/x/a": { post: post(pricing) } }))).toThrow(message);
    });
  }
  it("two priced operations on one path", () => {
    const pricing = { charged: "free", components: [] };
    expect(() => priceTables(documentOf({ "/v1/x/a": { post: post(pricing), get: post(pricing) } }))).toThrow(
      "/v1/x/a: more than one priced operation",
    );
  });
  it("a cross-field rule on a priced field in a shape the quote cannot check", () => {
    const odd = documentOf({
      "/v1/x/a": { post: post(byLookup({ S: { true: 2, false: 1 }, L: { true: 4, false: 3 } })) },
    });
    odd.components.schemas!.Body = {
      ...odd.components.schemas!.Body,
      allOf: [{ description: "odd rule", if: { required: ["hd"] }, then: { oneOf: [{ required: ["size"] }] } }],
    };
    expect(() => priceTables(odd)).toThrow(
      "POST /v1/x/a: a cross-field rule of the request involves a priced field in a shape the quote cannot check: odd rule",
    );
  });
  it("a rate that is not shown on a price shown in full, two of them, or a rate following no hidden one", () => {
    const hidden = { label: "output", rateNotShown: { by: ["size"] } };
    const notShown = { "x-not-shown": { price: "The rates are not shown." } };
    const table =
      (pricing: unknown, extra: Partial<Operation> = {}) =>
      () =>
        priceTables(documentOf({ "/v1/x/a": { post: post(pricing, extra) } }));
    expect(table({ charged: "on-success", components: [hidden] })).toThrow(
      'POST /v1/x/a: x-pricing "output" has a rate that is not shown, but the operation has no x-not-shown.price',
    );
    expect(
      table(
        { charged: "on-success", components: [hidden, { ...hidden, label: "input", rateNotShown: { by: [] } }] },
        notShown,
      ),
    ).toThrow("more than one component's rate is not shown");
    expect(
      table(
        {
          charged: "on-success",
          components: [hidden, { label: "input", rateTimes: { component: "other", factor: 0.5 } }],
        },
        notShown,
      ),
    ).toThrow('x-pricing "input" follows the rate of "other", which is no component whose rate is not shown');
    expect(
      table({ charged: "on-success", components: [{ label: "output", rateNotShown: { by: ["prompt"] } }] }, notShown),
    ).toThrow("x-pricing looks a rate up by prompt, which has neither an enum nor type boolean");
  });
  it("a value ruled out under a condition (`not: {const}`) leaves the field's own enum less it", () => {
    const doc = documentOf({
      "/v1/x/a": { post: post(byLookup({ S: { true: 2, false: 1 }, L: { true: 4, false: 3 } })) },
    });
    doc.components.schemas!.Body = {
      ...doc.components.schemas!.Body,
      allOf: [
        {
          description: "no L with hd",
          if: { required: ["hd"] },
          then: { properties: { size: { not: { const: "L" } } } },
        },
      ],
    };
    expect(priceTables(doc)["/v1/x/a"]!.crossFieldRules).toEqual([
      { description: "no L with hd", when: [{ field: "hd", present: true }], limits: { size: { enum: ["S"] } } },
    ]);
  });
  it("a partly shown price may lack rates", () => {
    const tables = priceTables(
      documentOf({
        "/v1/x/a": {
          post: post(byLookup({ S: { true: 2 } }), { "x-not-shown": { price: "Only S with hd is shown." } }),
        },
      }),
    );
    expect(tables["/v1/x/a"]!.notShown).toBe("Only S with hd is shown.");
  });
});
