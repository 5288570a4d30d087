/**
 * The negative request bodies built from a request schema (contract/bodies/negative-cases.ts, with
 * the edits of contract/bodies/violations.ts): for every constraint one body that fails the schema
 * and passes it with only that constraint removed, a small edit of one of the description's valid
 * examples, the value just outside the constraint (one past a bound, one item too many, a value
 * not listed, a wrong JSON type, a missing required property, an unexpected one); where no small
 * edit breaks a constraint alone, a body that breaks it among others, naming the others; where
 * none breaks it at all, the rule listed as uncovered.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ValidateFunction } from "ajv";
import { constraints, ruleText, withoutConstraint, type Constraint } from "../../contract/bodies/constraints.ts";
import { negativeCases, type NegativeCase, type NegativeCaseSet } from "../../contract/bodies/negative-cases.ts";
import type { JsonSchema } from "../../model/document.ts";
import { registry } from "../support/description.ts";

const IMAGE = "https://files.example.com/cat.png";

/** Strings and values listed: bounds of length, patterns, enums of each JSON type, a const. */
const texts: JsonSchema = {
  type: "object",
  required: ["prompt"],
  additionalProperties: false,
  properties: {
    prompt: { type: "string", minLength: 2, maxLength: 40 },
    code: { type: "string", minLength: 1, maxLength: 8, pattern: "^[a-z]+$" },
    initial: { type: "string", pattern: "^.?$" },
    note: { type: "string", minLength: 0 },
    size: { type: "string", enum: ["1K", "2K"] },
    level: { type: "integer", enum: [1, 2, 4] },
    draft: { type: "boolean", enum: [true] },
    either: { type: "boolean", enum: [true, false] },
    version: { const: "v2" },
  },
};

/** Numbers, lists and objects: bounds, exclusive bounds, multiples, item counts, distinct items, item rules. */
const numbers: JsonSchema = {
  type: "object",
  required: ["prompt"],
  unevaluatedProperties: false,
  properties: {
    prompt: { type: "string" },
    count: { type: "integer", minimum: 1, maximum: 4 },
    strength: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    steps: { type: "integer", minimum: 11, multipleOf: 10 },
    ratio: { type: "number" },
    flag: { type: "boolean" },
    options: { type: "object" },
    tags: { type: "array", minItems: 1, maxItems: 3, uniqueItems: true, items: { type: "string", maxLength: 12 } },
    seeds: { type: "array", maxItems: 3, items: { type: "integer" } },
    single: { type: "array", maxItems: 1, uniqueItems: true, items: { type: "string" } },
  },
};

/** Cross-field rules of each shape, and limits that apply in a mode only. */
const rules: JsonSchema = {
  type: "object",
  required: ["prompt"],
  properties: {
    prompt: { type: "string" },
    image: { type: "string" },
    mask: { type: "string" },
    video: { type: "string", not: { const: "none" } },
    mode: { type: "string", enum: ["image", "video"] },
    size: { type: "string", enum: ["1K", "2K"] },
    count: { type: "integer" },
    frames: { type: "integer", enum: [1, 2, 4] },
    seeds: { type: "array", items: { type: "integer" } },
    style: { type: "string" },
    preset: { type: "string" },
  },
  dependentRequired: { mask: ["image"] },
  anyOf: [{ required: ["image"] }, { required: ["video"] }],
  oneOf: [{ required: ["style"] }, { required: ["preset"] }],
  allOf: [
    {
      description: "image and video cannot be combined.",
      not: { allOf: [{ required: ["image"] }, { required: ["video"] }] },
    },
    {
      description: "video mode needs a video.",
      if: { required: ["mode"], properties: { mode: { const: "video" } } },
      then: { required: ["video"] },
    },
    {
      description: "2K allows at most 2 images and 2 frames.",
      if: { required: ["size"], properties: { size: { enum: ["2K"] } } },
      then: { properties: { count: { maximum: 2 }, frames: { maximum: 2 } } },
    },
    {
      description: "two seeds or more need a count.",
      if: { required: ["seeds"], properties: { seeds: { minItems: 2 } } },
      then: { required: ["count"] },
    },
  ],
};

/** A limit that applies without a field every example gives: only the examples reduced to their required fields reach it. */
const reduced: JsonSchema = {
  type: "object",
  required: ["prompt"],
  properties: { prompt: { type: "string" }, size: { enum: ["1K", "2K"] }, count: { type: "integer" } },
  allOf: [
    {
      description: "without a size, at most 2 images.",
      if: { not: { required: ["size"] } },
      then: { properties: { count: { maximum: 2 } } },
    },
  ],
};

/** Each schema with the description's valid examples, and one the schema refuses (REFUSED), given first. */
const schemas: Array<{ schema: JsonSchema; examples: unknown[] }> = [
  {
    schema: texts,
    examples: [
      { prompt: "REFUSED", code: "TOO LONG FOR IT" },
      {
        prompt: "a cat",
        code: "abc",
        initial: "a",
        note: "n",
        size: "1K",
        level: 2,
        draft: true,
        either: false,
        version: "v2",
      },
    ],
  },
  {
    schema: numbers,
    examples: [
      { prompt: "REFUSED", count: 99 },
      {
        prompt: "a cat",
        count: 2,
        strength: 0.5,
        steps: 20,
        ratio: 1.5,
        options: {},
        tags: ["sky"],
        seeds: [7],
        single: ["one"],
      },
    ],
  },
  {
    schema: rules,
    examples: [
      { prompt: "REFUSED", image: IMAGE, video: "https://files.example.com/dog.mp4" },
      { prompt: "a cat", image: IMAGE, size: "1K", count: 2, frames: 1, seeds: [7], mode: "image", style: "photo" },
      { prompt: "a dog", video: "https://files.example.com/dog.mp4", preset: "p1" },
    ],
  },
  {
    schema: reduced,
    examples: [
      { prompt: "REFUSED", count: "two" },
      { prompt: "a cat", size: "1K", count: 2 },
    ],
  },
];

/** The value at an instance path (`*`: a list's first item). */
const valueAt = (body: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, segment) => {
    if (segment === "*") return Array.isArray(node) ? node[0] : undefined;
    return typeof node === "object" && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
  }, body);

const jsonType = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : Number.isInteger(value)
        ? "integer"
        : typeof value === "number"
          ? "number"
          : typeof value;

/** Where a validation error of `constraint`'s own sits in the schema. */
const ownPath = (constraint: Constraint): string => `#/${[...constraint.schemaPath, constraint.keyword].join("/")}`;

/** What the value at the constraint's place must be to sit just outside it, by keyword. */
function justOutside(negative: NegativeCase): void {
  const { constraint, body } = negative;
  const { node, keyword, instancePath } = constraint;
  const value = valueAt(body, instancePath);
  const bound = node[keyword] as number;
  const label = `${negative.rule}: ${JSON.stringify(value)}`;
  switch (keyword) {
    case "minimum":
      return expect(value, label).toBe(bound - 1);
    case "maximum":
      return expect(value, label).toBe(bound + 1);
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return expect(value, label).toBe(bound);
    case "multipleOf":
      return expect((value as number) % bound, label).not.toBe(0);
    case "minLength":
    case "minItems":
      return expect((value as string).length, label).toBe(bound - 1);
    case "maxLength":
    case "maxItems":
      return expect((value as string).length, label).toBe(bound + 1);
    case "uniqueItems":
      return expect(new Set((value as unknown[]).map((item) => JSON.stringify(item))).size, label).toBeLessThan(
        (value as unknown[]).length,
      );
    case "enum":
    case "const": {
      const allowed = keyword === "enum" ? (node.enum as unknown[]) : [node.const];
      expect(allowed, label).not.toContain(value);
      return expect(typeof value, label).toBe(typeof allowed[0]);
    }
    case "type": {
      const types = ([] as unknown[]).concat(node.type);
      return expect(
        types.includes(jsonType(value)) || (types.includes("number") && jsonType(value) === "integer"),
        label,
      ).toBe(false);
    }
    case "required":
      return expect(Object.keys(valueAt(body, instancePath) as object), label).not.toContain(constraint.name);
    case "additionalProperties": {
      const known = Object.keys(node.properties as object);
      return expect(
        Object.keys(value as object).some((key) => !known.includes(key)),
        label,
      ).toBe(true);
    }
  }
}

describe("negative request bodies", () => {
  /** Each schema's negatives, with the schema's own validator. */
  let built: Array<{ schema: JsonSchema; set: NegativeCaseSet; validate: ValidateFunction }> = [];
  const allCases = (): NegativeCase[] => built.flatMap(({ set }) => set.cases);
  const casesOf = (keyword: string, path: string): NegativeCase[] =>
    allCases().filter(
      (negative) => negative.constraint.keyword === keyword && negative.constraint.instancePath.join(".") === path,
    );
  const ruleCase = (path: string, keyword: string): NegativeCase | undefined =>
    built
      .find(({ schema }) => schema === rules)
      ?.set.cases.find(
        (negative) => negative.constraint.schemaPath.join("/") === path && negative.constraint.keyword === keyword,
      );

  // Built once for the file's tests (a beforeAll, so that each test is credited with building them).
  beforeAll(() => {
    built = schemas.map(({ schema, examples }) => ({
      schema,
      set: negativeCases(schema, examples, registry),
      validate: registry.compile(schema),
    }));
  });

  it("give every constraint a body, or list it as uncovered when no small edit breaks it (a minLength of 0, an enum of both booleans)", () => {
    for (const { schema, set } of built)
      expect(set.cases.length + set.uncovered.length).toBe(constraints(schema).length);
    expect(built.flatMap(({ set }) => set.uncovered.map((entry) => entry.rule))).toEqual([
      "minLength on note (#/properties/note)",
      "enum on either (#/properties/either)",
    ]);
  });

  it("give each constraint on a list's items its own body, as each on a field has", () => {
    const itemRules = built.flatMap(({ schema, set }) =>
      constraints(schema)
        .filter((constraint) => constraint.instancePath.includes("*"))
        .map((constraint) => ({ constraint, set })),
    );
    expect(itemRules.map(({ constraint }) => `${constraint.keyword} ${constraint.instancePath.join(".")}`)).toEqual([
      "type tags.*",
      "maxLength tags.*",
      "type seeds.*",
      "type single.*",
      "type seeds.*",
    ]);
    for (const { constraint, set } of itemRules) {
      const rule = ruleText(constraint);
      const cases = set.cases.filter((negative) => negative.rule === rule);
      expect(cases, rule).toHaveLength(1);
      expect(cases[0]?.alsoBreaks, rule).toBeUndefined();
    }
  });

  it("break exactly the named constraint where a small edit can: the body fails the schema and passes it without that constraint", () => {
    for (const { schema, set, validate } of built) {
      for (const negative of set.cases.filter((candidate) => candidate.alsoBreaks === undefined)) {
        const relaxed = registry.compile(withoutConstraint(schema, negative.constraint));
        expect(validate(negative.body), negative.rule).toBe(false);
        expect(relaxed(negative.body), `${negative.rule}: ${JSON.stringify(negative.body)}`).toBe(true);
      }
    }
  });

  it("send the value just outside each constraint: one past a bound, one item too many or too few, a value not listed of the listed type, a wrong type, a missing or unexpected property", () => {
    for (const negative of allCases()) justOutside(negative);
    // A list one item too long keeps its items distinct, so that only its length is wrong.
    expect(new Set(valueAt(casesOf("maxItems", "tags")[0]?.body, ["tags"]) as unknown[]).size).toBe(4);
    expect(valueAt(casesOf("maxItems", "seeds")[0]?.body, ["seeds"])).toEqual([7, 7, 7, 7]);
  });

  it("break a pattern with a blank or a plain sentence, whichever breaks it alone", () => {
    // "" is too short for code: " " breaks its pattern alone.
    expect(
      casesOf("pattern", "code").map((negative) => [valueAt(negative.body, ["code"]), negative.alsoBreaks]),
    ).toEqual([[" ", undefined]]);
    // Blanks match "at most one character": a sentence breaks it.
    const [initial] = casesOf("pattern", "initial");
    expect(initial?.alsoBreaks).toBeUndefined();
    expect((valueAt(initial?.body, ["initial"]) as string).length).toBeGreaterThan(1);
  });

  it("break cross-field rules and what applies in a mode: the mode set, the rule's fields edited", () => {
    const body = (path: string, keyword: string): Record<string, unknown> => {
      const found = ruleCase(path, keyword);
      expect(found, `${keyword} at ${path}`).toBeDefined();
      expect(found?.alsoBreaks, `${keyword} at ${path}`).toBeUndefined();
      return found?.body as Record<string, unknown>;
    };
    expect(body("", "dependentRequired")).toMatchObject({ mask: expect.any(String) });
    expect(body("", "dependentRequired")).not.toHaveProperty("image");
    expect(body("", "anyOf")).not.toHaveProperty("image");
    expect(body("", "anyOf")).not.toHaveProperty("video");
    const oneOf = body("", "oneOf");
    expect(Number("style" in oneOf) + Number("preset" in oneOf)).not.toBe(1);
    expect(body("allOf/0", "not")).toMatchObject({ image: expect.any(String), video: expect.any(String) });
    expect(body("properties/video", "not").video).toBe("none");
    // The mode each rule applies in is set (a const, an enum, a count of items), its required field left out or its bound passed.
    expect(body("allOf/1/then", "required")).toMatchObject({ mode: "video" });
    expect(body("allOf/1/then", "required")).not.toHaveProperty("video");
    expect(body("allOf/2/then/properties/count", "maximum")).toMatchObject({ size: "2K", count: 3 });
    expect(body("allOf/3/then", "required")).toMatchObject({ seeds: [7, 7] });
    expect(body("allOf/3/then", "required")).not.toHaveProperty("count");
  });

  it("stand in with a body breaking the constraint among others where none breaks it alone, naming the others once, not the constraint's own", () => {
    const among = built.flatMap(({ set, validate }) =>
      set.cases.filter((negative) => negative.alsoBreaks !== undefined).map((negative) => ({ negative, validate })),
    );
    // The first body found that breaks the constraint among others: an edit of the first valid example.
    const frames = among.find(({ negative }) => negative.rule.startsWith("maximum on frames"));
    expect(frames?.negative.body).toMatchObject({ prompt: "a cat", size: "2K", frames: 3 });
    for (const { negative, validate } of among) {
      expect(validate(negative.body), negative.rule).toBe(false);
      const errors = validate.errors ?? [];
      const own = ownPath(negative.constraint);
      expect(
        errors.map((error) => error.schemaPath),
        negative.rule,
      ).toContain(own);
      // The others, each once, by keyword and place; an `if`'s error only repeats its then's.
      const others = [
        ...new Set(
          errors
            .filter((error) => error.schemaPath !== own && error.keyword !== "if")
            .map((error) => `${error.keyword} (${error.schemaPath})`),
        ),
      ];
      expect(negative.alsoBreaks, negative.rule).toBe(others.join(", "));
    }
    expect(among.map(({ negative }) => [negative.rule, negative.alsoBreaks])).toEqual([
      // "" is shorter than 1 and no word of letters.
      ["minLength on code (#/properties/code)", "pattern (#/properties/code/pattern)"],
      // Two equal items are two, one more than the list takes.
      ["uniqueItems on single (#/properties/single)", "maxItems (#/properties/single/maxItems)"],
      // A body that is no object has every field a `required` names, as far as JSON Schema goes: it
      // gives both of "one of style or preset", and both of "not image and video".
      ["type (#/)", "oneOf (#/oneOf), not (#/allOf/0/not)"],
      // 3 frames is past 2K's limit and no listed count.
      [
        "maximum on frames (#/allOf/2/then/properties/frames) - 2K allows at most 2 images and 2 frames.",
        "enum (#/properties/frames/enum)",
      ],
    ]);
  });

  it("reach a limit that applies without a field every example gives from the examples reduced to their required fields", () => {
    const [limit] =
      built
        .find(({ schema }) => schema === reduced)
        ?.set.cases.filter((negative) => negative.rule.startsWith("maximum on count")) ?? [];
    expect(limit?.alsoBreaks).toBeUndefined();
    expect(limit?.body).toEqual({ prompt: "a cat", count: 3 });
  });

  it("are made of the valid examples only, never of one the schema refuses", () => {
    for (const { schema, examples } of schemas) expect(registry.compile(schema)(examples[0])).toBe(false);
    const made = allCases().filter((negative) => JSON.stringify(negative.body).includes("REFUSED"));
    expect(made.map((negative) => negative.rule)).toEqual([]);
  });
});
