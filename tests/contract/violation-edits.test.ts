/**
 * The edits that may break one constraint (contract/bodies/violations.ts), one keyword at a time:
 * a value just outside a bound, one item too few or too many, a value the enum or const does not
 * allow, each wrong JSON type, a missing required property; for a cross-field rule, the edits to
 * every property it mentions (its value set, changed or removed), at any depth of allOf, anyOf,
 * oneOf, not, if, then and else, combined up to three at a time. Expectations follow those rules
 * for small schemas, with values from a body the description might show.
 */
import { describe, expect, it } from "vitest";
import type { Constraint } from "../../contract/bodies/constraints.ts";
import type { Edit, Json } from "../../contract/bodies/edits.ts";
import { mentionEdits, violationEdits } from "../../contract/bodies/violations.ts";
import { ValueSource } from "../../contract/bodies/values.ts";
import type { JsonSchema } from "../../model/document.ts";

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    prompt: { type: "string" },
    count: { type: "integer" },
    tags: { type: "array", items: { type: "string" } },
    sizes: { type: "array", items: { type: "integer" } },
  },
};
/** The body the values come from: a tag is a string, a size a number. */
const values = new ValueSource(SCHEMA, [{ prompt: "a cat", count: 2, tags: ["cat"], sizes: [512] }]);

const constraint = (keyword: string, node: JsonSchema, field: string, name?: string): Constraint => ({
  keyword,
  ...(name === undefined ? {} : { name }),
  schemaPath: ["properties", field],
  instancePath: field ? [field] : [],
  node,
  conditions: [],
});

/** The values each single-edit set gives its field. */
const valuesOf = (sets: Edit[][]): Json[] =>
  sets.map((edits) => {
    expect(edits).toHaveLength(1);
    return edits[0]?.value;
  });

describe("violationEdits on a value's own constraint", () => {
  it("goes one past a numeric bound, and to the bound itself where it is exclusive", () => {
    expect(valuesOf(violationEdits(constraint("minimum", { minimum: 1 }, "count"), values))).toEqual([0]);
    expect(valuesOf(violationEdits(constraint("maximum", { maximum: 10 }, "count"), values))).toEqual([11]);
    expect(valuesOf(violationEdits(constraint("exclusiveMinimum", { exclusiveMinimum: 0 }, "count"), values))).toEqual([
      0,
    ]);
    expect(valuesOf(violationEdits(constraint("exclusiveMaximum", { exclusiveMaximum: 5 }, "count"), values))).toEqual([
      5,
    ]);
    expect(valuesOf(violationEdits(constraint("multipleOf", { multipleOf: 4 }, "count"), values))).toEqual([6]);
  });

  it("makes a text one character short of its minimum, one past its maximum, and none for a minimum of 0", () => {
    expect(valuesOf(violationEdits(constraint("minLength", { minLength: 3 }, "prompt"), values))).toEqual(["xx"]);
    expect(valuesOf(violationEdits(constraint("minLength", { minLength: 1 }, "prompt"), values))).toEqual([""]);
    expect(violationEdits(constraint("minLength", { minLength: 0 }, "prompt"), values)).toEqual([]);
    expect(valuesOf(violationEdits(constraint("maxLength", { maxLength: 2 }, "prompt"), values))).toEqual(["xxx"]);
  });

  it("tries an empty text, a blank one and a sentence against a pattern", () => {
    expect(valuesOf(violationEdits(constraint("pattern", { pattern: "^[a-z]+$" }, "prompt"), values))).toEqual([
      "",
      " ",
      "does not match the pattern",
    ]);
  });

  it("makes a list one item short of its minimum and one past its maximum, from the body's own item, each text item distinct", () => {
    expect(valuesOf(violationEdits(constraint("minItems", { minItems: 2 }, "tags"), values))).toEqual([["cat?n=0"]]);
    expect(valuesOf(violationEdits(constraint("minItems", { minItems: 1 }, "tags"), values))).toEqual([[]]);
    expect(violationEdits(constraint("minItems", { minItems: 0 }, "tags"), values)).toEqual([]);
    expect(valuesOf(violationEdits(constraint("maxItems", { maxItems: 2 }, "tags"), values))).toEqual([
      ["cat?n=0", "cat?n=1", "cat?n=2"],
    ]);
    // A number item is repeated as it is.
    expect(valuesOf(violationEdits(constraint("maxItems", { maxItems: 1 }, "sizes"), values))).toEqual([[512, 512]]);
    expect(valuesOf(violationEdits(constraint("uniqueItems", { uniqueItems: true }, "tags"), values))).toEqual([
      ["cat", "cat"],
    ]);
  });

  it("takes a value the enum or const does not allow, of the same JSON type", () => {
    expect(valuesOf(violationEdits(constraint("enum", { enum: [2, 9, 4] }, "count"), values))).toEqual([10]);
    expect(valuesOf(violationEdits(constraint("enum", { enum: ["a", "b"] }, "prompt"), values))).toEqual([
      "not-a-listed-value",
    ]);
    expect(valuesOf(violationEdits(constraint("enum", { enum: [true] }, "prompt"), values))).toEqual([false]);
    // Both booleans listed: no value of that type breaks it.
    expect(violationEdits(constraint("enum", { enum: [true, false] }, "prompt"), values)).toEqual([]);
    expect(valuesOf(violationEdits(constraint("const", { const: 3 }, "count"), values))).toEqual([4]);
    expect(valuesOf(violationEdits(constraint("const", { const: "fast" }, "prompt"), values))).toEqual([
      "not-a-listed-value",
    ]);
  });

  it("sends a value of each type a type constraint rules out, once for each type it names", () => {
    const wrong = (type: Json) => valuesOf(violationEdits(constraint("type", { type } as JsonSchema, "count"), values));
    expect(wrong("string")).toEqual([12345]);
    expect(wrong("integer")).toEqual(["12"]);
    expect(wrong("number")).toEqual(["12"]);
    expect(wrong("boolean")).toEqual(["true"]);
    expect(wrong("array")).toEqual(["not-an-array"]);
    expect(wrong("object")).toEqual(["not-an-object"]);
    expect(wrong(["integer", "boolean"])).toEqual(["12", "true"]);
    expect(wrong("null")).toEqual([]);
  });

  it("removes a required property, and adds one a closed object does not list", () => {
    expect(violationEdits(constraint("required", { required: ["prompt"] }, "", "prompt"), values)).toEqual([
      [{ path: ["prompt"], remove: true }],
    ]);
    expect(violationEdits(constraint("additionalProperties", { additionalProperties: false }, ""), values)).toEqual([
      [{ path: ["unexpected_property"], value: "unexpected" }],
    ]);
    expect(violationEdits(constraint("unevaluatedProperties", { unevaluatedProperties: false }, ""), values)).toEqual([
      [{ path: ["unexpected_property"], value: "unexpected" }],
    ]);
  });
});

describe("violationEdits on a cross-field rule", () => {
  it("combines up to three edits to the properties a dependentRequired entry names, never two on one property, never none", () => {
    const node = { dependentRequired: { seed: ["count"], other: ["tags"] } };
    const sets = violationEdits(constraint("dependentRequired", node, "", "seed"), values);
    const paths = new Set(sets.flatMap((edits) => edits.map((edit) => edit.path.join("."))));
    // Only the entry's own key and dependents: not the other entry's.
    expect([...paths].sort()).toEqual(["count", "seed"]);
    expect(sets.every((edits) => edits.length > 0 && edits.length <= 3)).toBe(true);
    for (const edits of sets) expect(new Set(edits.map((edit) => edit.path.join("."))).size).toBe(edits.length);
    expect(sets).toContainEqual([
      { path: ["seed"], remove: true },
      { path: ["count"], value: 2 },
    ]);
    expect(sets).toContainEqual([{ path: ["count"], value: 2 }]);
  });

  it("edits only what the keyword's own subschema mentions: an if's const value, and its property set or removed", () => {
    const rule = {
      if: { properties: { mode: { const: "video" } }, required: ["mode"] },
      then: { required: ["count"], properties: { count: { enum: [1, 2] } } },
    };
    const valid = values.valid(["mode"]);
    expect(violationEdits(constraint("if", rule as JsonSchema, ""), values)).toEqual([
      [{ path: ["mode"], value: "video" }],
      [{ path: ["mode"], value: valid }],
      [{ path: ["mode"], remove: true }],
    ]);
  });
});

describe("mentionEdits", () => {
  const at = ["settings"];

  it("sets the value a rule on the value itself names, with each enum value", () => {
    expect(mentionEdits({ not: { const: "4k" } }, at, values)).toEqual([{ path: at, value: "4k" }]);
    expect(mentionEdits({ anyOf: [{ enum: ["a", "b"] }] }, at, values)).toEqual([
      { path: at, value: "a" },
      { path: at, value: "b" },
    ]);
  });

  it("sets each property to a valid value and removes it, for every name in required, dependentRequired and properties", () => {
    const edits = mentionEdits(
      { required: ["prompt"], dependentRequired: { count: ["tags"] }, properties: { sizes: true } },
      [],
      values,
    );
    expect(edits).toEqual([
      { path: ["prompt"], value: "a cat" },
      { path: ["prompt"], remove: true },
      { path: ["count"], value: 2 },
      { path: ["count"], remove: true },
      { path: ["tags"], value: ["cat"] },
      { path: ["tags"], remove: true },
      { path: ["sizes"], value: [512] },
      { path: ["sizes"], remove: true },
    ]);
  });

  it("sets a property to its const, each enum value and lists at its item bounds", () => {
    const edits = mentionEdits(
      { properties: { prompt: { const: "x" }, count: { enum: [1, 3] }, tags: { minItems: 2, maxItems: 4 } } },
      [],
      values,
    );
    expect(edits.slice(0, 5)).toEqual([
      { path: ["prompt"], value: "x" },
      { path: ["count"], value: 1 },
      { path: ["count"], value: 3 },
      { path: ["tags"], value: ["cat?n=0", "cat?n=1"] },
      { path: ["tags"], value: ["cat?n=0", "cat?n=1", "cat?n=2", "cat?n=3"] },
    ]);
  });

  it("looks inside allOf, anyOf, oneOf, not, if, then and else, and nowhere else", () => {
    for (const key of ["allOf", "anyOf", "oneOf", "not", "if", "then", "else"]) {
      const inner = { required: ["prompt"] };
      const node = ["allOf", "anyOf", "oneOf"].includes(key) ? [inner] : inner;
      expect(mentionEdits({ [key]: node }, [], values), key).toEqual([
        { path: ["prompt"], value: "a cat" },
        { path: ["prompt"], remove: true },
      ]);
    }
    expect(mentionEdits({ items: { required: ["prompt"] } }, [], values)).toEqual([]);
  });
});
