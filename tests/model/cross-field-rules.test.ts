/**
 * The cross-field rules of a request schema as the quote checks them (model/cross-field-rules.ts):
 * each shape the description writes them in (openapi/README.md rule 4) read into data; a rule that
 * involves no priced field left out; one that does, in a shape the reader does not know, refused
 * with an error naming the route and quoting the rule.
 */
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../model/document.ts";
import { crossFieldRules } from "../../model/cross-field-rules.ts";

const PRICED = new Set(["resolution", "length_seconds", "extend"]);
const BASE = { resolution: { type: "string", enum: ["720p", "1080p", "2k", "4k"] } };
const read = (...allOf: JsonSchema[]) => crossFieldRules("POST /v1/videos/v-x", allOf, PRICED, BASE);

describe("the cross-field rules of a request schema", () => {
  it("reads a dependentRequired entry as one rule per field", () => {
    expect(
      read({
        description: "  An extension names\n  its source. ",
        dependentRequired: { extend: ["video"], length_seconds: ["prompt", "image"] },
      }),
    ).toStrictEqual([
      {
        description: "An extension names its source.",
        when: [{ field: "extend", present: true }],
        required: ["video"],
      },
      {
        description: "An extension names its source.",
        when: [{ field: "length_seconds", present: true }],
        required: ["prompt", "image"],
      },
    ]);
  });

  it("reads an if of required fields with consts, and a then of limits, requireds, forbidden and one-of fields", () => {
    expect(
      read({
        description: "2k only when extending.",
        if: { required: ["resolution", "extend"], properties: { resolution: { const: "2k" } } },
        then: {
          required: ["video"],
          properties: { length_seconds: { minimum: 5, maximum: 15 }, extend: { const: true } },
          not: { required: ["image"] },
          anyOf: [{ required: ["video"] }, { required: ["video_id"] }],
        },
      }),
    ).toStrictEqual([
      {
        description: "2k only when extending.",
        when: [
          { field: "resolution", equals: "2k" },
          { field: "extend", present: true },
        ],
        required: ["video"],
        limits: { length_seconds: { minimum: 5, maximum: 15 }, extend: { enum: [true] } },
        forbidden: ["image"],
        requiredOneOf: ["video", "video_id"],
      },
    ]);
  });

  it("reads an if of anyOf as one rule per alternative, and a not of anyOf as several forbidden fields", () => {
    expect(
      read({
        if: { anyOf: [{ required: ["image"] }, { required: ["extend"], properties: { extend: { const: true } } }] },
        then: { not: { anyOf: [{ required: ["resolution"] }, { required: ["length_seconds"] }] } },
      }),
    ).toStrictEqual([
      { description: "", when: [{ field: "image", present: true }], forbidden: ["resolution", "length_seconds"] },
      { description: "", when: [{ field: "extend", equals: true }], forbidden: ["resolution", "length_seconds"] },
    ]);
  });

  it("keeps a plain enum on a field that has its own, and an empty limit as no limit", () => {
    expect(
      read({
        if: { required: ["extend"] },
        then: { properties: { resolution: { enum: ["720p", "1080p"] }, length_seconds: {} } },
      }),
    ).toStrictEqual([
      {
        description: "",
        when: [{ field: "extend", present: true }],
        limits: { resolution: { enum: ["720p", "1080p"] }, length_seconds: {} },
      },
    ]);
  });

  it("narrows a field's own enum by a not-const (V-C's video-edit mode), and keeps limits as given", () => {
    expect(
      read({
        if: { required: ["video"] },
        then: { properties: { resolution: { not: { const: "4k" } }, length_seconds: { enum: [5, 10] } } },
      }),
    ).toStrictEqual([
      {
        description: "",
        when: [{ field: "video", present: true }],
        limits: { resolution: { enum: ["720p", "1080p", "2k"] }, length_seconds: { enum: [5, 10] } },
      },
    ]);
  });

  it("leaves out a rule that mentions no priced field, whatever its shape", () => {
    expect(read({ if: { type: "object" }, then: { required: ["prompt"] }, description: "unpriced" })).toStrictEqual([]);
    expect(read({ dependentRequired: { image: ["prompt"] } })).toStrictEqual([]);
  });

  it.each<[string, JsonSchema]>([
    [
      "an if on a field that is not required (an absent field would match)",
      {
        if: { properties: { resolution: { const: "2k" } }, required: [] },
        then: { required: ["extend"] },
      },
    ],
    [
      "an if whose property is more than a const",
      {
        if: { required: ["resolution"], properties: { resolution: { enum: ["2k", "4k"] } } },
        then: { required: ["extend"] },
      },
    ],
    [
      "an if with a keyword beside required and properties",
      {
        if: { required: ["extend"], minProperties: 2 },
        then: { required: ["video"] },
      },
    ],
    ["an if that is not an object", { if: true, then: { required: ["extend"] } }],
    ["an if that is null", { if: null, then: { required: ["extend"] } }],
    [
      "a not of anyOf with one branch of two fields",
      {
        if: { required: ["extend"] },
        then: { not: { anyOf: [{ required: ["image"] }, { required: ["image", "video"] }] } },
      },
    ],
    [
      "an anyOf in an if with a branch of an unknown shape",
      {
        if: { anyOf: [{ required: ["extend"] }, { type: "object" }] },
        then: { required: ["video"] },
      },
    ],
    [
      "a then with a keyword the quote does not check",
      {
        if: { required: ["extend"] },
        then: { required: ["video"], minProperties: 3 },
      },
    ],
    [
      "a then limit with a keyword the quote does not check",
      {
        if: { required: ["extend"] },
        then: { properties: { length_seconds: { multipleOf: 5 } } },
      },
    ],
    [
      "a not with two fields in one branch",
      {
        if: { required: ["extend"] },
        then: { not: { required: ["image", "resolution"] } },
      },
    ],
    [
      "a then anyOf with a branch of two fields",
      {
        if: { required: ["extend"] },
        then: { anyOf: [{ required: ["video"] }, { required: ["image", "prompt"] }] },
      },
    ],
    ["a then anyOf that is not a list", { if: { required: ["extend"] }, then: { anyOf: { required: ["video"] } } }],
    [
      "an entry with a keyword beside if and then",
      {
        if: { required: ["extend"] },
        then: { required: ["video"] },
        else: { required: ["image"] },
      },
    ],
  ])("refuses %s, naming the route and the rule", (_shape, entry) => {
    expect(() => read({ description: "A rule.", ...entry })).toThrow(
      new Error(
        "POST /v1/videos/v-x: a cross-field rule of the request involves a priced field in a shape the quote cannot check: A rule.",
      ),
    );
  });

  it("quotes a rule without a description by its JSON", () => {
    const entry = { if: { required: ["extend"] }, then: { minProperties: 3 } };
    expect(() => read(entry)).toThrow(`a shape the quote cannot check: ${JSON.stringify(entry)}`);
  });
});
