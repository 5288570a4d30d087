/**
 * The valid values the body builders put in a request (contract/bodies/values.ts): taken from the
 * description's examples first (the first example that gives the property, the first item of a
 * list), then from the property's schema, which `sample()` reads: its default, else its const, else
 * its first enum value, else one of its type (the minimum of a number, minItems items of a list,
 * each string item distinct).
 */
import { describe, expect, it } from "vitest";
import { ValueSource, sample } from "../../contract/bodies/values.ts";
import type { JsonSchema } from "../../model/document.ts";
import { model, registry, requestSchema } from "../support/description.ts";

/** A request schema with lists, a nested object and a property written under allOf. */
const schema: JsonSchema = {
  type: "object",
  properties: {
    prompt: { type: "string", minLength: 1 },
    tags: { type: "array", items: { type: "string" } },
    seeds: { type: "array", items: { type: "integer", minimum: 5 } },
    meta: {
      type: "object",
      properties: { labels: { type: "array", items: { type: "string", enum: ["red", "blue"] } } },
    },
  },
  allOf: [{ properties: { strength: { type: "number", minimum: 0.5, maximum: 1 } } }],
};

/** Whether `value` is valid against the property schema at `path` (`*` for a list's items). */
const validAt = (path: string[], value: unknown): boolean => {
  type Properties = Record<string, JsonSchema> | undefined;
  let node: JsonSchema = schema;
  for (const segment of path) {
    const inAllOf = ((node.allOf ?? []) as JsonSchema[]).map((entry) => (entry.properties as Properties)?.[segment]);
    node = (
      segment === "*" ? node.items : ((node.properties as Properties)?.[segment] ?? inAllOf.find(Boolean))
    ) as JsonSchema;
  }
  return registry.compile(node)(value) === true;
};

describe("ValueSource.valid", () => {
  it("takes a property's value from the first example that gives it, before the schema's", () => {
    const values = new ValueSource(schema, [{ prompt: "a cat" }, { prompt: "a dog", tags: ["sky", "sea"] }]);
    expect(values.valid(["prompt"])).toBe("a cat");
    // The first example has no tags: the second one's are taken, not a value made from the schema.
    expect(values.valid(["tags"])).toEqual(["sky", "sea"]);
    // `*` stands for a list's first item.
    expect(values.valid(["tags", "*"])).toBe("sky");
  });

  it("falls back to the schema where no example gives the property, through items, nested properties and allOf", () => {
    const values = new ValueSource(schema, [{ prompt: "a cat" }]);
    const expected: Array<[string[], unknown]> = [
      [["seeds"], [5]],
      [["seeds", "*"], 5],
      [["strength"], 0.5],
      [["meta", "labels", "*"], "red"],
      [["meta"], {}],
    ];
    for (const [path, value] of expected) {
      expect(values.valid(path), path.join(".")).toEqual(value);
      expect(validAt(path, values.valid(path)), path.join(".")).toBe(true);
    }
    // A path the schema does not describe gets a plain string.
    expect(typeof values.valid(["unknown"])).toBe("string");
  });

  it("with no example, gives every property of every request schema of the description a value valid against it", () => {
    const ops = model.operations.filter((op) => op.kind === "create");
    expect(ops.length).toBeGreaterThan(0);
    const invalid: string[] = [];
    for (const op of ops) {
      const request = requestSchema(op.path);
      const values = new ValueSource(request, []);
      for (const [name, property] of Object.entries((request.properties ?? {}) as Record<string, JsonSchema>)) {
        const value = values.valid([name]);
        if (registry.compile(property)(value) !== true) invalid.push(`${op.path} ${name}: ${JSON.stringify(value)}`);
      }
    }
    expect(invalid).toEqual([]);
  });
});

describe("ValueSource.arrayItem and arrayOf", () => {
  it("take a list's item from the first example's list, the path naming the list or its items", () => {
    const values = new ValueSource(schema, [{ tags: ["sky", "sea"], meta: { labels: ["blue"] } }]);
    expect(values.arrayItem(["tags"])).toBe("sky");
    expect(values.arrayItem(["tags", "*"])).toBe("sky");
    expect(values.arrayItem(["meta", "labels", "*"])).toBe("blue");
    expect(values.arrayItem(["meta", "labels"])).toBe("blue");
  });

  it("take the item from the schema where the example's list is empty or absent", () => {
    const values = new ValueSource(schema, [{ seeds: [] }]);
    expect(values.arrayItem(["seeds"])).toBe(5);
    expect(values.arrayItem(["meta", "labels", "*"])).toBe("red");
  });

  it("make `count` items valid against the list's item schema, string items each distinct", () => {
    const values = new ValueSource(schema, [{ tags: ["sky"] }]);
    const tags = values.arrayOf(["tags"], 3);
    expect(tags).toHaveLength(3);
    expect(new Set(tags).size).toBe(3);
    expect(tags.every((tag) => typeof tag === "string" && tag.startsWith("sky"))).toBe(true);
    const seeds = values.arrayOf(["seeds"], 2);
    expect(seeds).toEqual([5, 5]);
    expect(validAt(["seeds"], seeds)).toBe(true);
    expect(values.arrayOf(["tags"], 0)).toEqual([]);
  });
});

describe("sample", () => {
  it("returns the default, else the const, else the first enum value", () => {
    expect(sample({ type: "string", enum: ["1K", "2K"], default: "2K", const: "1K" })).toBe("2K");
    expect(sample({ type: "string", const: "video", enum: ["image", "video"] })).toBe("video");
    expect(sample({ type: "string", enum: ["1K", "2K"] })).toBe("1K");
    // A default or const of any value, null and false included, is taken as it is.
    expect(sample({ type: "integer", default: 0, minimum: 1 })).toBe(0);
    expect(sample({ type: "boolean", const: false })).toBe(false);
  });

  it("returns a number's minimum, else 1, whichever way the type is written", () => {
    expect(sample({ type: "integer", minimum: 4 })).toBe(4);
    expect(sample({ type: "integer" })).toBe(1);
    expect(sample({ type: "number", minimum: 0.5 })).toBe(0.5);
    expect(sample({ type: "number" })).toBe(1);
    expect(sample({ type: ["integer", "null"], minimum: 2 })).toBe(2);
  });

  it("returns minItems items for a list (at least one), each string item distinct, and {} for an object", () => {
    const three = sample({ type: "array", minItems: 3, items: { type: "string", enum: ["a"] } }) as unknown[];
    expect(three).toHaveLength(3);
    expect(new Set(three).size).toBe(3);
    expect(three.every((item) => typeof item === "string" && item.startsWith("a"))).toBe(true);
    expect(sample({ type: "array", minItems: 2, items: { type: "integer", minimum: 7 } })).toEqual([7, 7]);
    expect(sample({ type: "array", minItems: 0, items: { type: "integer" } })).toEqual([1]);
    const flags = sample({ type: "array", items: { type: "boolean" } }) as unknown[];
    expect(flags.map((flag) => typeof flag)).toEqual(["boolean"]);
    const untyped = sample({ type: "array" }) as unknown[];
    expect(untyped).toHaveLength(1);
    expect(typeof untyped[0]).toBe("string");
    expect(sample({ type: "object" })).toEqual({});
    expect(typeof sample({ type: "string" })).toBe("string");
  });
});
