/**
 * The quote engine on small inline price tables: each rule of x-pricing on its own, with numbers
 * worked out by hand.
 */
import { describe, expect, it } from "vitest";
import { quoteRoute } from "../../runtime/costs/quote.ts";
import { routePricing } from "../support/route-pricing.ts";

const route = routePricing;

const sized = route(
  {
    charged: "on-success",
    components: [
      { label: "image", rateBy: { fields: ["size"], table: { S: 10, L: 30 } }, per: { field: "count" } },
      { label: "search", rate: 5, per: { field: "count" }, when: [{ field: "search", equals: true }] },
      { label: "flat add-on", rate: 7, when: [{ field: "extra", equals: true }] },
    ],
  },
  {
    fields: {
      size: { type: "string", enum: ["S", "L"], default: "S", required: false },
      count: { type: "integer", minimum: 1, maximum: 4, default: 1, required: false },
      search: { type: "boolean", default: false, required: false },
      extra: { type: "boolean", default: false, required: false },
    },
    knownFields: ["size", "count", "search", "extra", "prompt"],
  },
);

const seconds = route(
  {
    charged: "on-success",
    components: [
      {
        label: "output",
        rateBy: { fields: ["quality", "fast"], table: { a: { true: 2, false: 3 }, b: { true: 4, false: 5 } } },
        per: { field: "length" },
      },
      { label: "input clip", rate: 10, per: { mediaSeconds: "clip", rounding: "up", minimum: 4 } },
      { label: "source", rate: 100, per: { mediaSeconds: "source", maximum: 15 } },
      { label: "references", rate: 1, per: { mediaSeconds: "refs" } },
      { label: "extra pictures", rate: 50, per: { itemsBeyond: { field: "pictures", free: 2 } } },
      {
        label: "no source",
        rate: 1000,
        when: [
          { field: "source", present: false },
          { field: "quality", equals: "b" },
        ],
      },
    ],
  },
  {
    fields: {
      quality: { type: "string", enum: ["a", "b"], default: "a", required: false },
      fast: { type: "boolean", required: false },
      length: { type: "integer", minimum: 1, maximum: 30, default: 5, required: false },
      pictures: { type: "array", maxItems: 5, required: false },
    },
    media: {
      clip: { list: false, maxDurationSeconds: 120 },
      source: { list: false, minDurationSeconds: 1.6, maxDurationSeconds: 60 },
      refs: { list: true, minDurationSeconds: 2, maxDurationSeconds: 15, maxCombinedDurationSeconds: 15 },
    },
  },
);

const partly = route(
  {
    charged: "on-success",
    components: [
      {
        label: "per second",
        rateBy: { fields: ["mode"], table: { slow: 2, fast: 3 } },
        per: { mediaSeconds: "video" },
        when: [{ fact: "result", equals: "1080p" }],
      },
    ],
  },
  {
    notShown: "Only the 1080p price is shown.",
    fields: { mode: { type: "string", enum: ["slow", "fast"], required: false } },
    media: {
      video: {
        list: false,
        maxDurationSeconds: 20,
        conditionalLimits: [{ when: { field: "mode", equals: "fast" }, limits: { maxDurationSeconds: 10 } }],
      },
    },
    facts: { result: ["1080p"] },
  },
);

const tables = {
  "/sized": sized,
  "/seconds": seconds,
  "/partly": partly,
  "/hidden": route(null, { notShown: "The price of X is not shown." }),
  "/single": route(
    {
      charged: "on-success",
      components: [{ label: "single", rateBy: { fields: ["only"], table: { S: 100 } }, per: { field: "count" } }],
    },
    {
      fields: {
        count: { type: "integer", minimum: 1, maximum: 1, required: false },
        only: { type: "string", enum: ["S"], required: false },
      },
    },
  ),
  "/free": route({ charged: "free", components: [] }),
  "/clip-only": route(
    { charged: "on-success", components: [{ label: "clip", rate: 3, per: { mediaSeconds: "clip", minimum: 5 } }] },
    { fields: { clip: { type: "string", required: false } }, media: { clip: { list: false } } },
  ),
  "/ruled": route(
    {
      charged: "on-success",
      components: [
        { label: "output", rateBy: { fields: ["tier"], table: { base: 1, top: 2 } }, per: { field: "length" } },
      ],
    },
    {
      fields: {
        tier: { type: "string", enum: ["base", "top"], required: false },
        length: { type: "integer", minimum: 1, maximum: 30, required: false },
      },
      crossFieldRules: [
        { description: "top needs a source", when: [{ field: "tier", equals: "top" }], required: ["source"] },
        {
          description: "a source shortens",
          when: [{ field: "source", present: true }],
          limits: { length: { maximum: 10 } },
          forbidden: ["frame"],
        },
        {
          description: "wide needs media",
          when: [{ field: "shape", equals: "wide" }],
          requiredOneOf: ["frame", "source"],
        },
        {
          description: "top and wide are short",
          when: [
            { field: "tier", equals: "top" },
            { field: "shape", equals: "wide" },
          ],
          limits: { length: { maximum: 3 } },
        },
      ],
    },
  ),
  "/search": route(
    { charged: "per-request", components: [{ label: "search", rate: 10 }] },
    { method: "get", bodyIn: "query" },
  ),
};
/**
 * Each quote on a copy of the tables: the engine compiles a route's checks once per table object, so
 * shared tables would let only the first test to quote a route reach the compiling code, and mutation
 * testing (which runs a mutant against the tests that reached it) would judge that code by that test alone.
 */
const quote = (path: string, body?: unknown, media?: unknown) => quoteRoute(structuredClone(tables), path, body, media);
/** What `run` throws. */
function catching(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
/** A thrown message that is `message` and nothing more. */
const exactly = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

describe("rates and per-field quantities", () => {
  it("applies schema defaults to omitted fields", () => {
    expect(quote("/sized", {})).toMatchObject({
      credits: 10,
      breakdown: [{ label: "image", rate: 10, quantity: 1, credits: 10 }],
    });
  });
  it("looks the rate up by a field and multiplies by a numeric field", () => {
    expect(quote("/sized", { size: "L", count: 3 }).credits).toBe(90);
  });
  it("adds a per-unit add-on only when its condition holds", () => {
    expect(quote("/sized", { size: "L", count: 2, search: true }).credits).toBe(70);
    expect(quote("/sized", { size: "L", count: 2, search: false }).credits).toBe(60);
  });
  it("adds a flat add-on once per request", () => {
    expect(quote("/sized", { count: 4, extra: true }).credits).toBe(47);
  });
  it("takes the only allowed value of an omitted field without a default", () => {
    expect(quote("/single", {}).breakdown[0]).toEqual({ label: "single", rate: 100, quantity: 1, credits: 100 });
  });
  it("answers null, naming the field, when a condition reads an omitted field without a default", () => {
    const result = quote("/seconds", { quality: "a" });
    expect(result.credits).toBeNull();
    expect(result.missing).toEqual(["body.fast (omitted, and its default is not shown)"]);
    expect(result.reason).toContain("body.fast");
  });
  it("looks the rate up by two fields, booleans keyed true/false", () => {
    expect(quote("/seconds", { quality: "b", fast: true, length: 10 }).breakdown[0]).toEqual({
      label: "output",
      rate: 4,
      quantity: 10,
      credits: 40,
    });
  });
  it("answers charged free with 0 credits and no lines", () => {
    expect(quote("/free", {})).toEqual({ path: "/free", credits: 0, charged: "free", breakdown: [] });
  });
  it("bills a flat per-request price for a query", () => {
    expect(quote("/search", { query: "cats" })).toMatchObject({ credits: 10, charged: "per-request" });
  });
});

describe("media seconds", () => {
  const base = { quality: "a", fast: false, length: 5 };
  it("rounds up and applies the minimum", () => {
    expect(quote("/seconds", { ...base, clip: "u" }, { clip: 2.2 }).breakdown[1]).toMatchObject({
      quantity: 4,
      credits: 40,
    });
    expect(quote("/seconds", { ...base, clip: "u" }, { clip: 4.01 }).breakdown[1]).toMatchObject({
      quantity: 5,
      credits: 50,
    });
    expect(quote("/seconds", { ...base, clip: "u" }, { clip: 7 }).credits).toBe(15 + 70);
  });
  it("caps at the maximum without rounding", () => {
    expect(quote("/seconds", { ...base, source: "u" }, { source: 12.5 }).credits).toBe(15 + 1250);
    expect(quote("/seconds", { ...base, source: "u" }, { source: 40 }).credits).toBe(15 + 1500);
  });
  it("sums the durations of an array field, free of floating-point noise", () => {
    expect(quote("/seconds", { ...base, refs: ["a", "b"] }, { refs: [2.3, 4.1] }).breakdown[1]).toEqual({
      label: "references",
      rate: 1,
      quantity: 6.4,
      credits: 6.4,
    });
  });
  it("accepts a combined duration of exactly the limit despite float noise", () => {
    expect(quote("/seconds", { ...base, refs: ["a", "b", "c"] }, { refs: [2.2, 5.9, 6.9] }).breakdown[1]).toMatchObject(
      { quantity: 15 },
    );
  });
  it("does not bill a media field the body does not carry, not even its minimum", () => {
    expect(quote("/seconds", base).breakdown.map((line) => line.label)).toEqual(["output"]);
  });
  it("answers null naming the duration when the body carries the media but no duration is given", () => {
    const result = quote("/seconds", { ...base, clip: "u" });
    expect(result.credits).toBeNull();
    expect(result.missing).toEqual(["media.clip (the duration in seconds of body.clip)"]);
  });
  it("bills items beyond the free number", () => {
    expect(quote("/seconds", { ...base, pictures: ["1", "2"] }).credits).toBe(15);
    expect(quote("/seconds", { ...base, pictures: ["1", "2", "3", "4", "5"] }).credits).toBe(15 + 150);
  });
  it("applies a present: false condition", () => {
    expect(quote("/seconds", { ...base, quality: "b" }).credits).toBe(25 + 1000);
    expect(quote("/seconds", { ...base, quality: "b", source: "u" }, { source: 2 }).credits).toBe(25 + 200);
  });
});

describe("cross-field rules of the request schema", () => {
  const cases: Array<[string, unknown, string]> = [
    [
      "a required field",
      { tier: "top", length: 5 },
      "quote: body.source: is required when tier is top (top needs a source)",
    ],
    [
      "a conditional range, with the base range",
      { tier: "base", length: 12, source: "s" },
      "quote: body.length: must be 1 to 10 when source is given (a source shortens)",
    ],
    [
      "a forbidden field",
      { tier: "base", length: 5, source: "s", frame: "f" },
      "quote: body.frame: must be omitted when source is given (a source shortens)",
    ],
    [
      "one of several fields",
      { tier: "base", length: 5, shape: "wide" },
      "quote: body.frame|source: one of them is required when shape is wide (wide needs media)",
    ],
    [
      "a rule of two conditions",
      { tier: "top", source: "s", shape: "wide", length: 4 },
      "quote: body.length: must be 1 to 3 when tier is top and shape is wide (top and wide are short)",
    ],
  ];
  for (const [rule, body, message] of cases) {
    it(rule, () => {
      expect(() => quote("/ruled", body)).toThrow(exactly(message));
    });
  }
  it("binds only when its fields are given: no default triggers it", () => {
    expect(quote("/ruled", { tier: "base", length: 30 }).credits).toBe(30);
    expect(quote("/ruled", { tier: "top", length: 10, source: "s", shape: "tall" }).credits).toBe(20);
  });

  it("reads only the media object's own keys that are given", () => {
    expect(() => quote("/seconds", { fast: true }, { clip: undefined })).not.toThrow();
    expect(() => quote("/seconds", { fast: true }, Object.create({ clip: 3 }))).not.toThrow();
  });

  it("takes a media duration of 0 seconds (a duration is a finite number, 0 or more)", () => {
    expect(quote("/seconds", { fast: true, clip: "c" }, { clip: 0 }).breakdown).toContainEqual({
      label: "input clip",
      rate: 10,
      quantity: 4,
      credits: 40,
    });
  });

  it("limits a field only where the body gives it", () => {
    expect(quote("/ruled", { tier: "base", source: "s" }).missing).toEqual([
      "body.length (omitted, and its default is not shown)",
    ]);
  });
});

describe("the media input of the only billed item is absent", () => {
  it("answers null naming it, not 0 credits nor the minimum", () => {
    expect(quote("/clip-only", {})).toMatchObject({
      credits: null,
      missing: ["body.clip (absent; the price is per second of it)"],
    });
  });
  it("prices it once given", () => {
    expect(quote("/clip-only", { clip: "c" }, { clip: 2 }).credits).toBe(15);
  });
});

describe("prices not shown", () => {
  it("answers null with the x-not-shown.price sentence", () => {
    expect(quote("/hidden", {})).toEqual({
      path: "/hidden",
      credits: null,
      reason: "The price of X is not shown.",
      charged: null,
      breakdown: [],
    });
  });
  it("says the price is not shown where the description has no price and no sentence about it", () => {
    expect(quoteRoute({ "/bare": route(null) }, "/bare", {}).reason).toBe("The price is not shown.");
  });
  it("has no shown price on a partly shown route where no shown rate applies", () => {
    const quoted = quote("/partly", { mode: "slow", video: "u" }, { video: 8, result: "720p" });
    expect([quoted.credits, quoted.reason, quoted.breakdown]).toEqual([null, "Only the 1080p price is shown.", []]);
  });
  it("carries the pricing's notes where it has some, and no notes otherwise", () => {
    const noted = {
      "/noted": route({ charged: "on-success", components: [{ label: "a", rate: 1 }], notes: "Per image." }),
    };
    expect(quoteRoute(noted, "/noted", {}).notes).toBe("Per image.");
    expect("notes" in quote("/sized", {})).toBe(false);
  });
  it("prices a partly shown route where a shown rate applies", () => {
    expect(quote("/partly", { mode: "fast", video: "u" }, { video: 8, result: "1080p" }).credits).toBe(24);
  });
  it("answers null with the sentence where no shown rate applies", () => {
    expect(quote("/partly", { mode: "fast", video: "u" }, { video: 8, result: "4k" })).toMatchObject({
      credits: null,
      reason: "Only the 1080p price is shown.",
    });
  });
  it("names a missing fact", () => {
    expect(quote("/partly", { mode: "slow", video: "u" }, { video: 8 }).missing).toEqual([
      "media.result (a fact the body does not hold)",
    ]);
  });
});

describe("a field's type and range", () => {
  const strength = {
    "/strength": route(
      { charged: "on-success", components: [{ label: "image", rate: 4 }] },
      {
        fields: {
          strength: { type: "number", minimum: 0, maximum: 1, required: false },
          steps: { type: "integer", minimum: 10, required: false },
        },
      },
    ),
  };

  it("takes a finite number, a fraction included, and refuses a numeric string or a number that is not finite", () => {
    expect(quoteRoute(strength, "/strength", { strength: 0.25 }).credits).toBe(4);
    for (const value of ["0.25", Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => quoteRoute(strength, "/strength", { strength: value })).toThrow(
        "quote: body.strength: must be a number",
      );
  });

  it("a range with a minimum alone says so", () => {
    expect(quoteRoute(strength, "/strength", { steps: 10 }).credits).toBe(4);
    expect(() => quoteRoute(strength, "/strength", { steps: 9 })).toThrow("quote: body.steps: must be at least 10");
  });
});

describe("a field's own limits", () => {
  it("end the message: no condition follows them", () => {
    expect(() => quote("/sized", { size: "M" })).toThrow(exactly("quote: body.size: must be one of S, L"));
    expect(() => quote("/sized", { count: 5 })).toThrow(exactly("quote: body.count: must be 1 to 4"));
  });

  it("are thrown as QuoteErrors, by name", () => {
    expect(String(catching(() => quote("/sized", { size: "M" })))).toBe(
      "QuoteError: quote: body.size: must be one of S, L",
    );
  });
});

describe("a free route", () => {
  it("costs nothing though the media input its seconds would count is absent", () => {
    const free = {
      "/free-clip": route(
        { charged: "free", components: [{ label: "clip", rate: 2, per: { mediaSeconds: "clip" } }] },
        { fields: { clip: { type: "string", required: false } }, media: { clip: { list: false } } },
      ),
    };
    const quoted = quoteRoute(free, "/free-clip", {});
    expect([quoted.credits, quoted.missing]).toEqual([0, undefined]);
  });
});

describe("a condition on a field omitted whose default is not shown", () => {
  const hd = {
    "/hd": route(
      {
        charged: "on-success",
        components: [
          { label: "image", rate: 4 },
          {
            label: "hd",
            rate: 6,
            when: [
              { field: "size", equals: "S" },
              { field: "hd", equals: true },
            ],
          },
        ],
      },
      {
        fields: {
          size: { type: "string", enum: ["S", "L"], required: false },
          hd: { type: "boolean", required: false },
        },
      },
    ),
  };

  it("leaves the price unknown, naming that field alone", () => {
    const quoted = quoteRoute(hd, "/hd", { size: "S" });
    expect([quoted.credits, quoted.missing]).toEqual([null, ["body.hd (omitted, and its default is not shown)"]]);
    expect(quoteRoute(hd, "/hd", { size: "S", hd: true }).credits).toBe(10);
    // A condition that fails decides alone: the omitted field does not matter.
    expect(quoteRoute(hd, "/hd", { size: "L" }).credits).toBe(4);
  });

  it("names every input missing in its reason, in the order the components read them", () => {
    expect(quoteRoute(hd, "/hd", {}).reason).toBe(
      "The price depends on inputs not supplied: body.size (omitted, and its default is not shown); body.hd (omitted, and its default is not shown).",
    );
  });
});

describe("a rate table without the entry a request reads", () => {
  const gap = (notShown: string | null) => ({
    "/gap": route(
      { charged: "on-success", components: [{ label: "image", rateBy: { fields: ["size"], table: { S: 10 } } }] },
      { notShown, fields: { size: { type: "string", enum: ["S", "L"], required: true } } },
    ),
  });

  it("has no shown price where the description says the price is shown only in part", () => {
    const quoted = quoteRoute(gap("Only S is shown."), "/gap", { size: "L" });
    expect([quoted.credits, quoted.reason]).toEqual([null, "Only S is shown."]);
  });

  it("per second of a media input that is there: still no shown price, not an input missing", () => {
    const tables = {
      "/clip": route(
        {
          charged: "on-success",
          components: [{ label: "clip", rateBy: { fields: ["size"], table: { S: 3 } }, per: { mediaSeconds: "clip" } }],
        },
        {
          notShown: "Only S is shown.",
          fields: {
            size: { type: "string", enum: ["S", "L"], required: true },
            clip: { type: "string", required: false },
          },
          media: { clip: { list: false } },
        },
      ),
    };
    const quoted = quoteRoute(tables, "/clip", { size: "L", clip: "c" }, { clip: 5 });
    expect([quoted.credits, quoted.reason, quoted.missing]).toEqual([null, "Only S is shown.", undefined]);
  });

  it("is a fault of the table where the description says the price is shown in full", () => {
    expect(() => quoteRoute(gap(null), "/gap", { size: "L" })).toThrow(
      new Error("price table of /gap has no rate for this request although its price is fully shown"),
    );
  });
});

describe("invalid requests are errors naming the field and the rule", () => {
  const cases: Array<[string, string, unknown, unknown, string]> = [
    ["unknown route", "/nope", {}, undefined, "quote: path: /nope is not a priced route (priced routes: /sized,"],
    ["body not an object", "/sized", [1], undefined, "quote: body: must be an object (the request body of /sized)"],
    ["body null", "/sized", null, undefined, "quote: body: must be an object (the request body of /sized)"],
    ["query not an object", "/search", "q=cats", undefined, "quote: query: must be an object (the query of /search)"],
    ["value outside the enum", "/sized", { size: "M" }, undefined, "quote: body.size: must be one of S, L"],
    ["number above the range", "/sized", { count: 5 }, undefined, "quote: body.count: must be 1 to 4"],
    ["number below the range", "/sized", { count: 0 }, undefined, "quote: body.count: must be 1 to 4"],
    ["not an integer", "/sized", { count: 1.5 }, undefined, "quote: body.count: must be an integer"],
    ["wrong type", "/sized", { search: "yes" }, undefined, "quote: body.search: must be a boolean"],
    ["an array for a string", "/sized", { size: ["S"] }, undefined, "quote: body.size: must be a string"],
    [
      "not an array",
      "/seconds",
      { fast: true, pictures: "a.png" },
      undefined,
      "quote: body.pictures: must be an array",
    ],
    [
      "unknown field of a closed schema",
      "/sized",
      { sise: "L" },
      undefined,
      "quote: body.sise: is not a field of /sized (its fields: size, count, search, extra, prompt)",
    ],
    [
      "too many items",
      "/seconds",
      { fast: true, pictures: [1, 2, 3, 4, 5, 6] },
      undefined,
      "quote: body.pictures: must be at most 5 items",
    ],
    ["media not an object", "/seconds", { fast: true }, 3, "quote: media: must be an object"],
    ["media null", "/sized", {}, null, "quote: media: must be an object"],
    [
      "a list's durations with one not a duration",
      "/seconds",
      { fast: true, refs: ["a", "b"] },
      { refs: [3, -1] },
      "quote: media.refs: must list 2 duration(s) in seconds, one per item of body.refs",
    ],
    [
      "duration for an absent field",
      "/seconds",
      { fast: true },
      { clip: 3 },
      "quote: media.clip: is given but body.clip is absent",
    ],
    [
      "negative duration",
      "/seconds",
      { fast: true, clip: "u" },
      { clip: -1 },
      "quote: media.clip: must be a duration in seconds",
    ],
    [
      "duration above the media limit",
      "/seconds",
      { fast: true, clip: "u" },
      { clip: 121 },
      "quote: media.clip: must be at most 120 seconds",
    ],
    [
      "duration below the media limit",
      "/seconds",
      { fast: true, source: "u" },
      { source: 1 },
      "quote: media.source: must be 1.6 to 60 seconds",
    ],
    [
      "durations not one per item",
      "/seconds",
      { fast: true, refs: ["a", "b"] },
      { refs: [3] },
      "quote: media.refs: must list 2 duration(s) in seconds, one per item of body.refs",
    ],
    [
      "combined duration above the limit, summed without float noise",
      "/seconds",
      { fast: true, refs: ["a", "b"] },
      { refs: [10.1, 5] },
      "quote: media.refs: must be at most 15 seconds combined",
    ],
    [
      "combined duration above the limit",
      "/seconds",
      { fast: true, refs: ["a", "b"] },
      { refs: [10, 6] },
      "quote: media.refs: must be at most 15 seconds combined",
    ],
    [
      "conditional duration limit",
      "/partly",
      { mode: "fast", video: "u" },
      { video: 11, result: "1080p" },
      "quote: media.video: must be at most 10 seconds",
    ],
    [
      "unknown media key",
      "/seconds",
      { fast: true },
      { film: 3 },
      "quote: media.film: is not a priced media field or fact of /seconds (expected clip, source, refs)",
    ],
    [
      "media on a route without media",
      "/sized",
      {},
      { video: 3 },
      "quote: media.video: /sized takes no media durations or facts",
    ],
    [
      "fact of the wrong type",
      "/partly",
      { mode: "fast", video: "u" },
      { video: 3, result: 1080 },
      "quote: media.result: must be a string fact (for example 1080p)",
    ],
  ];
  for (const [rule, path, body, media, message] of cases) {
    it(rule, () => {
      expect(() => quote(path, body, media)).toThrow(message);
    });
  }
  it("the conditional limit holds only when its condition does", () => {
    expect(quote("/partly", { mode: "slow", video: "u" }, { video: 11, result: "1080p" }).credits).toBe(22);
  });
});
