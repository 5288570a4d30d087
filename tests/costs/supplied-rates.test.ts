/**
 * Rates the specification does not show, supplied by the caller (runtime/costs/supplied-rates.ts),
 * on small inline price tables: where they go, what a rate following another becomes, and the
 * errors naming the supplied entry. Numbers worked out by hand.
 */
import { describe, expect, it } from "vitest";
import type { PriceTables, PricingExtension, RoutePricing } from "../../runtime/costs/pricing.ts";
import { quoteRoute } from "../../runtime/costs/quote.ts";
import { notShownRates, withSuppliedRates } from "../../runtime/costs/supplied-rates.ts";

function route(pricing: PricingExtension, extra: Partial<RoutePricing> = {}): RoutePricing {
  return {
    method: "post",
    operationId: "op",
    summary: "fixture",
    pricing,
    notShown: "The rates are not shown.",
    bodyIn: "body",
    fields: {
      resolution: { type: "string", enum: ["720p", "1080p"], required: false },
      mode: { type: "string", enum: ["fast", "fine"], required: false },
      seconds: { type: "integer", required: false },
      video: { type: "string", required: false },
    },
    crossFieldRules: [],
    knownFields: null,
    media: { video: { list: false } },
    facts: {},
    ...extra,
  };
}

/** An output by resolution whose rate is not shown, and an input at half of it (V-C's form). */
const byResolution = route({
  charged: "on-success",
  components: [
    { label: "output", rateNotShown: { by: ["resolution"] }, per: { field: "seconds" } },
    { label: "input", rateTimes: { component: "output", factor: 0.5 }, per: { mediaSeconds: "video" } },
  ],
});
/** A rate that differs by nothing, with a 10-second minimum (A-A's form), and an add-on at a quarter of it. */
const flat = route({
  charged: "on-success",
  components: [
    { label: "input", rateNotShown: { by: [] }, per: { mediaSeconds: "video", minimum: 10 } },
    { label: "extra", rateTimes: { component: "input", factor: 0.25 }, per: { field: "seconds" } },
  ],
});
/** A shown component first, then the hidden rate a third follows: the follower finds its own. */
const behindShown = route(
  {
    charged: "on-success",
    components: [
      { label: "setup", rate: 7 },
      { label: "output", rateNotShown: { by: ["hd"] }, per: { field: "seconds" } },
      { label: "input", rateTimes: { component: "output", factor: 0.5 }, per: { mediaSeconds: "video" } },
    ],
  },
  {
    fields: {
      hd: { type: "boolean", required: false },
      seconds: { type: "integer", required: false },
      video: { type: "string", required: false },
    },
  },
);
/** Two fields deep. */
const twoDeep = route({
  charged: "on-success",
  components: [{ label: "output", rateNotShown: { by: ["resolution", "mode"] }, per: { field: "seconds" } }],
});
const shown = route(
  { charged: "on-success", components: [{ label: "image", rate: 12 }] },
  { notShown: null, fields: {}, media: {} },
);
const tables: PriceTables = { "/a": byResolution, "/b": flat, "/c": twoDeep, "/d": behindShown, "/shown": shown };

describe("supplied rates", () => {
  it("lists the routes with a rate that is not shown, with the fields it differs by", () => {
    expect(notShownRates(tables)).toEqual([
      { path: "/a", by: ["resolution"] },
      { path: "/b", by: [] },
      { path: "/c", by: ["resolution", "mode"] },
      { path: "/d", by: ["hd"] },
    ]);
  });

  it("without them a quote has no credits and gives the description's sentence", () => {
    expect(quoteRoute(tables, "/a", { resolution: "720p", seconds: 5 })).toMatchObject({
      credits: null,
      reason: "The rates are not shown.",
    });
  });

  it("fill a rate table by resolution, and a rate following it at its factor, leaving the other routes as they are", () => {
    const filled = withSuppliedRates(tables, { "/a": { "720p": 40, "1080p": 90 } });
    expect(filled["/b"]).toBe(flat);
    expect(filled["/shown"]).toBe(shown);
    expect(tables["/a"]).toBe(byResolution);
    expect(filled["/a"]!.pricing!.components).toEqual([
      {
        label: "output",
        rateBy: { fields: ["resolution"], table: { "720p": 40, "1080p": 90 } },
        per: { field: "seconds" },
      },
      {
        label: "input",
        rateBy: { fields: ["resolution"], table: { "720p": 20, "1080p": 45 } },
        per: { mediaSeconds: "video" },
      },
    ]);
    // 5 s at 1080p (90) and a 7-s input at half of it (45).
    expect(quoteRoute(filled, "/a", { resolution: "1080p", seconds: 5, video: "v" }, { video: 7 }).credits).toBe(765);
  });

  it("fill a rate that differs by nothing with a number, and a rate following it", () => {
    const filled = withSuppliedRates(tables, { "/b": 12 });
    expect(filled["/b"]!.pricing!.components).toEqual([
      { label: "input", rate: 12, per: { mediaSeconds: "video", minimum: 10 } },
      { label: "extra", rate: 3, per: { field: "seconds" } },
    ]);
    // A 7-s input billed its 10-second minimum at 12, and 2 s at a quarter of it.
    expect(quoteRoute(filled, "/b", { video: "v", seconds: 2 }, { video: 7 }).credits).toBe(126);
  });

  it("fill a rate by a boolean field (keyed true and false), the follower finding the component it names", () => {
    const filled = withSuppliedRates(tables, { "/d": { true: 20, false: 10 } });
    expect(filled["/d"]!.pricing!.components[2]).toEqual({
      label: "input",
      rateBy: { fields: ["hd"], table: { true: 10, false: 5 } },
      per: { mediaSeconds: "video" },
    });
    // 7 once, 3 s with hd at 20, and a 4-s input at half of it.
    expect(quoteRoute(filled, "/d", { hd: true, seconds: 3, video: "v" }, { video: 4 }).credits).toBe(7 + 60 + 40);
    expect(() => withSuppliedRates(tables, { "/d": { yes: 1 } })).toThrow(
      "quote: rates./d.yes: hd must be one of true, false",
    );
  });

  it("scale a table two fields deep, and leave a value the target did not give unpriced", () => {
    const filled = withSuppliedRates(tables, { "/c": { "720p": { fast: 10, fine: 30 } } });
    expect(quoteRoute(filled, "/c", { resolution: "720p", mode: "fine", seconds: 2 }).credits).toBe(60);
    expect(quoteRoute(filled, "/c", { resolution: "1080p", mode: "fine", seconds: 2 })).toMatchObject({
      credits: null,
      reason: "The rates are not shown.",
    });
  });

  it.each([
    [{ "/shown": 3 }, "rates./shown: must be a route whose rate is not shown (/a, /b, /c, /d)"],
    [{ "/nowhere": 3 }, "rates./nowhere: must be a route whose rate is not shown (/a, /b, /c, /d)"],
    [{ toString: 3 }, "rates.toString: must be a route whose rate is not shown"],
    [{ "/a": 40 }, "rates./a: must be an object of rates by resolution"],
    [{ "/a": {} }, "rates./a: must be an object of rates by resolution"],
    [{ "/a": [40] }, "rates./a: must be an object of rates by resolution"],
    [{ "/a": null }, "rates./a: must be an object of rates by resolution"],
    [{ "/a": { "4k": 40 } }, "rates./a.4k: resolution must be one of 720p, 1080p"],
    [{ "/a": { "720p": -1 } }, "rates./a.720p: must be a number of credits, at least 0"],
    [{ "/a": { "720p": "40" } }, "rates./a.720p: must be a number of credits, at least 0"],
    [{ "/b": Number.POSITIVE_INFINITY }, "rates./b: must be a number of credits, at least 0"],
    [{ "/c": { "720p": { slow: 1 } } }, "rates./c.720p.slow: mode must be one of fast, fine"],
  ])("refuse %j, naming the entry and the rule", (rates, message) => {
    expect(() => withSuppliedRates(tables, rates as never)).toThrow(`quote: ${message}`);
  });

  it("take a rate of 0", () => {
    expect(
      quoteRoute(withSuppliedRates(tables, { "/b": 0 }), "/b", { video: "v", seconds: 1 }, { video: 12 }).credits,
    ).toBe(0);
  });
});
