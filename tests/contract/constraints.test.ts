/**
 * A request schema read as constraints (contract/bodies/constraints.ts), and the small edits that
 * make bodies of it (contract/bodies/edits.ts): one constraint per keyword and place, in document
 * order, wherever it sits (properties, a list's items, prefixItems, allOf, an if's then, a
 * dependentSchemas entry); a wrong type only where no enum or const already rules the value; the
 * nearest rule's description quoted on cross-field rules and on what applies under a condition.
 */
import { describe, expect, it } from "vitest";
import { constraints, ruleText, withoutConstraint, type Constraint } from "../../contract/bodies/constraints.ts";
import { applyEdits, combinations, isObject, uniqueEdits, type Edit } from "../../contract/bodies/edits.ts";
import type { JsonSchema } from "../../model/document.ts";
import { registry } from "../support/description.ts";

const COMBINED = "image and video cannot be combined.";
const VIDEO_MODE = " video mode needs a video;\nat most 2 images then.\n";

/** A request schema with a constraint of each kind, in each place a constraint may sit. */
const schema: JsonSchema = {
  type: "object",
  description: "A request body: a description, but no rule's.",
  required: ["prompt"],
  additionalProperties: false,
  unevaluatedProperties: false,
  properties: {
    prompt: { type: "string", minLength: 1, maxLength: 100, pattern: "^\\S" },
    size: { type: "string", enum: ["1K", "2K"] },
    mode: { type: "string", const: "video" },
    count: { type: "integer", minimum: 1, maximum: 4, exclusiveMinimum: 0, exclusiveMaximum: 5, multipleOf: 1 },
    tags: { type: "array", minItems: 1, maxItems: 3, uniqueItems: true, items: { type: "string", maxLength: 8 } },
    pair: { type: "array", minItems: 3, prefixItems: [{ type: "integer" }, true, { type: "string" }], items: false },
    video: { type: "string", description: "The video to extend: a field's description.", not: { const: "none" } },
    image: { type: "string" },
    mask: { type: "string" },
    strength: { type: "number" },
  },
  dependentRequired: { mask: ["image"] },
  dependentSchemas: { image: { required: ["strength"] }, video: true },
  oneOf: [{ required: ["prompt"] }, { required: ["image"] }],
  allOf: [
    { description: COMBINED, not: { required: ["image", "video"] } },
    {
      description: VIDEO_MODE,
      if: { properties: { mode: { const: "video" } }, required: ["mode"] },
      then: { required: ["video"], properties: { count: { maximum: 2 } } },
    },
    { description: "A described entry holding no cross-field rule.", required: ["prompt"] },
    true,
  ],
};

/** A constraint as `keyword "name" at instance.path (#/schema/path) [n conditions]`. */
const shown = (constraint: Constraint): string =>
  `${constraint.keyword}${constraint.name ? ` "${constraint.name}"` : ""} at ${constraint.instancePath.join(".")} (#/${constraint.schemaPath.join("/")})${constraint.conditions.length ? ` [${constraint.conditions.length}]` : ""}`;

describe("constraints", () => {
  it("lists one constraint per keyword and place, in document order, in every place a constraint may sit", () => {
    expect(constraints(schema).map(shown)).toEqual([
      "type at  (#/)",
      'required "prompt" at  (#/)',
      "additionalProperties at  (#/)",
      "unevaluatedProperties at  (#/)",
      'dependentRequired "mask" at  (#/)',
      "oneOf at  (#/)",
      "type at prompt (#/properties/prompt)",
      "minLength at prompt (#/properties/prompt)",
      "maxLength at prompt (#/properties/prompt)",
      "pattern at prompt (#/properties/prompt)",
      // An enum or a const rules the value: a wrong type would break it too, so type is not its own.
      "enum at size (#/properties/size)",
      "const at mode (#/properties/mode)",
      "type at count (#/properties/count)",
      "minimum at count (#/properties/count)",
      "maximum at count (#/properties/count)",
      "exclusiveMinimum at count (#/properties/count)",
      "exclusiveMaximum at count (#/properties/count)",
      "multipleOf at count (#/properties/count)",
      "type at tags (#/properties/tags)",
      "minItems at tags (#/properties/tags)",
      "maxItems at tags (#/properties/tags)",
      "uniqueItems at tags (#/properties/tags)",
      "type at tags.* (#/properties/tags/items)",
      "maxLength at tags.* (#/properties/tags/items)",
      "type at pair (#/properties/pair)",
      "minItems at pair (#/properties/pair)",
      "type at pair.0 (#/properties/pair/prefixItems/0)",
      "type at pair.2 (#/properties/pair/prefixItems/2)",
      "type at video (#/properties/video)",
      "not at video (#/properties/video)",
      "type at image (#/properties/image)",
      "type at mask (#/properties/mask)",
      "type at strength (#/properties/strength)",
      "not at  (#/allOf/0)",
      'required "video" at  (#/allOf/1/then) [1]',
      "maximum at count (#/allOf/1/then/properties/count) [1]",
      'required "prompt" at  (#/allOf/2)',
      'required "strength" at  (#/dependentSchemas/image) [1]',
    ]);
  });

  it("keeps the conditions under which a constraint applies: the if of its then, the trigger of its dependentSchemas entry", () => {
    const found = constraints(schema);
    const at = (path: string): Constraint => found.find((constraint) => constraint.schemaPath.join("/") === path)!;
    const videoMode = (schema.allOf as JsonSchema[])[1]!;
    // A condition reads the object its rule sits on, whatever the place of the constraint under it.
    expect(at("allOf/1/then").conditions).toEqual([{ schema: videoMode.if, instancePath: [] }]);
    expect(at("allOf/1/then/properties/count").conditions).toEqual([{ schema: videoMode.if, instancePath: [] }]);
    expect(at("dependentSchemas/image").conditions).toEqual([{ schema: { required: ["image"] }, instancePath: [] }]);
    expect(found.filter((constraint) => constraint.conditions.length > 0)).toHaveLength(3);
  });

  it("quotes the nearest rule's description on cross-field rules and on what applies under a condition, never a field's or the body's", () => {
    const described = constraints(schema)
      .filter((constraint) => constraint.description !== undefined)
      .map((constraint) => [shown(constraint), constraint.description]);
    expect(described).toEqual([
      ["not at  (#/allOf/0)", COMBINED],
      ['required "video" at  (#/allOf/1/then) [1]', VIDEO_MODE],
      ["maximum at count (#/allOf/1/then/properties/count) [1]", VIDEO_MODE],
    ]);
  });

  it("names only the constraints that have a name: an entry of required, a key of dependentRequired", () => {
    for (const constraint of constraints(schema))
      expect("name" in constraint, shown(constraint)).toBe(
        constraint.keyword === "required" || constraint.keyword === "dependentRequired",
      );
  });

  it("shows a rule for reports as its keyword, name, place in the body and in the schema, and its description on one line", () => {
    const found = constraints(schema);
    expect(found.map(ruleText)).toEqual(
      expect.arrayContaining([
        'required "prompt" (#/)',
        "maxLength on tags.* (#/properties/tags/items)",
        'dependentRequired "mask" (#/)',
        `required "video" (#/allOf/1/then) - video mode needs a video; at most 2 images then.`,
      ]),
    );
  });
});

describe("withoutConstraint", () => {
  const validate = (value: unknown): boolean => registry.compile(schema)(value) === true;

  it("removes the one constraint, leaving the schema it was given and every other constraint as they were", () => {
    const before = structuredClone(schema);
    const found = constraints(schema);
    for (const constraint of found) {
      const relaxed = withoutConstraint(schema, constraint);
      const left = constraints(relaxed).map(shown);
      expect(left, shown(constraint)).not.toContain(shown(constraint));
      // Without an enum or a const, the value's type is a constraint of its own.
      const expected = found.filter((other) => other !== constraint).map(shown);
      const typed = ["enum", "const"].includes(constraint.keyword) ? 1 : 0;
      expect(left, shown(constraint)).toEqual(expect.arrayContaining(expected));
      expect(left, shown(constraint)).toHaveLength(expected.length + typed);
    }
    expect(schema).toEqual(before);
  });

  it("relaxes required by the one name, dependentRequired by the one key", () => {
    const found = constraints(schema);
    const prompt = found.find((constraint) => constraint.name === "prompt" && constraint.schemaPath.length === 0)!;
    expect(withoutConstraint(schema, prompt).required).toEqual([]);
    const [, size] = constraints({ required: ["prompt", "size", "count"] });
    expect(withoutConstraint({ required: ["prompt", "size", "count"] }, size!).required).toEqual(["prompt", "count"]);
    const mask = found.find((constraint) => constraint.keyword === "dependentRequired")!;
    const twoKeys = { ...schema, dependentRequired: { mask: ["image"], image: ["strength"] } };
    expect(withoutConstraint(twoKeys, mask).dependentRequired).toEqual({ image: ["strength"] });
    expect(registry.compile(withoutConstraint(schema, mask))({ prompt: "a cat", mask: "m" })).toBe(true);
    expect(validate({ prompt: "a cat", mask: "m" })).toBe(false);
  });
});

describe("edits", () => {
  const a: Edit = { path: ["size"], value: "1K" };
  const b: Edit = { path: ["size"], remove: true };
  const c: Edit = { path: ["tags", "*"], value: "sky" };

  it("isObject holds for JSON objects alone", () => {
    expect([{}, { a: 1 }].map(isObject)).toEqual([true, true]);
    expect([null, [], "text", 3, true, undefined].map(isObject)).toEqual([false, false, false, false, false, false]);
  });

  it("uniqueEdits keeps the first of equal edits, in order", () => {
    expect(uniqueEdits([a, c, { ...a }, b, { path: ["size"], value: "1K" }])).toEqual([a, c, b]);
  });

  it("combinations are every set of at most `max` edits to distinct paths, the empty one first, smallest first", () => {
    const two = combinations([a, b, c], 2);
    expect(two).toEqual([[], [a], [b], [c], [a, c], [b, c]]);
    expect(combinations([a, b, c], 1)).toEqual([[], [a], [b], [c]]);
    // Paths are compared whole: two edits of meta.seed never go together, meta.seed and metas.eed do.
    const seed: Edit = { path: ["meta", "seed"], value: 1 };
    const other: Edit = { path: ["metas", "eed"], value: 2 };
    expect(combinations([seed, { ...seed, value: 2 }, other], 2)).toEqual([
      [],
      [seed],
      [{ ...seed, value: 2 }],
      [other],
      [seed, other],
      [{ ...seed, value: 2 }, other],
    ]);
    const three = combinations([a, c, { path: ["count"], value: 2 }], 3);
    expect(three.map((set) => set.length)).toEqual([0, 1, 1, 1, 2, 2, 2, 3]);
  });

  it("applyEdits sets, changes and removes values at a path, `*` for a list's first item, leaving the base as it was", () => {
    const base = { prompt: "a cat", tags: ["sky", "sea"], meta: { seed: 1 } };
    const value = { nested: true };
    const edited = applyEdits(base, [
      { path: ["meta", "seed"], value: 2 },
      { path: ["meta", "extra"], value },
      { path: ["tags", "*"], value: "dawn" },
      { path: ["prompt"], remove: true },
      { path: ["list", "*", "name"], value: "n" },
    ]) as Record<string, unknown>;
    expect(edited).toStrictEqual({
      tags: ["dawn", "sea"],
      meta: { seed: 2, extra: { nested: true } },
      list: [{ name: "n" }],
    });
    expect("prompt" in edited).toBe(false);
    value.nested = false;
    expect((edited.meta as Record<string, unknown>).extra).toEqual({ nested: true });
    expect(base).toEqual({ prompt: "a cat", tags: ["sky", "sea"], meta: { seed: 1 } });
    // Removing a list's first item leaves the rest of the list.
    expect(applyEdits(base, [{ path: ["tags", "*"], remove: true }])).toStrictEqual({ ...base, tags: ["sea"] });
    expect(applyEdits(base, [{ path: ["missing", "*"], remove: true }])).toStrictEqual({ ...base, missing: [] });
  });
});
