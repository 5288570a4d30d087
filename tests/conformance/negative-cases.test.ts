/**
 * The negative request bodies built from a request schema (contract/bodies/negative-cases.ts): one
 * body per constraint, wherever the constraint sits, the items of an array included. A field the
 * specification types as a list (`string[]`) carries its rule on each item, and a body with one
 * wrong item must be among the negatives the suite sends, as a body with a wrong field is.
 */
import { describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { negativeCases, type NegativeCase } from "../../contract/bodies/negative-cases.ts";
import type { JsonSchema, OpenApiDocument } from "../../model/document.ts";
import { createSchemaRegistry } from "../../model/schema-registry.ts";

/** The cases on the items of the array field `field` (instance path `field.*`), by keyword. */
const itemCases = (cases: NegativeCase[], field: string): Map<string, NegativeCase> =>
  new Map(
    cases
      .filter((negative) => negative.constraint.instancePath.join(".") === `${field}.*`)
      .map((negative) => [negative.constraint.keyword, negative]),
  );

/** The items of `field` in a body (an array of them, or [] when the body has none). */
const itemsOf = (body: unknown, field: string): unknown[] => {
  const value = (body as Record<string, unknown>)[field];
  return Array.isArray(value) ? value : [];
};

describe("negative request bodies", () => {
  it("break each constraint on an array's items, with the item the constraint rules out, the list's own bounds kept", () => {
    const schema: JsonSchema = {
      type: "object",
      additionalProperties: false,
      required: ["prompt"],
      properties: {
        prompt: { type: "string" },
        tags: {
          type: "array",
          maxItems: 3,
          items: { type: "string", minLength: 2, maxLength: 8, pattern: "^[a-z]+$" },
        },
      },
    };
    const registry = createSchemaRegistry({ components: { schemas: {} } } as unknown as OpenApiDocument);
    const { cases } = negativeCases(schema, [{ prompt: "a cat", tags: ["cat", "dog"] }], registry);
    const items = itemCases(cases, "tags");
    expect([...items.keys()].sort()).toEqual(["maxLength", "minLength", "pattern", "type"]);
    // Each body is refused because of one item, which the rule written in the schema rules out.
    const breaks: Record<string, (item: unknown) => boolean> = {
      type: (item) => typeof item !== "string",
      minLength: (item) => typeof item === "string" && item.length < 2,
      maxLength: (item) => typeof item === "string" && item.length > 8,
      pattern: (item) => typeof item === "string" && !/^[a-z]+$/.test(item),
    };
    for (const [keyword, negative] of items) {
      const tags = itemsOf(negative.body, "tags");
      expect(tags.length, keyword).toBeGreaterThan(0);
      expect(tags.length, keyword).toBeLessThanOrEqual(3);
      expect(tags.some(breaks[keyword]!), `${keyword}: ${JSON.stringify(negative.body)}`).toBe(true);
      expect(registry.compile(schema)(negative.body), keyword).toBe(false);
    }
    // A number among strings breaks the items' type alone: the length and pattern rules hold only for strings.
    expect(items.get("type")?.alsoBreaks).toBeUndefined();
    // The list's own bound is broken too, apart from its items.
    expect(cases.some((negative) => negative.constraint.keyword === "maxItems")).toBe(true);
  });

  it("for V-A, send a wrong item in each list the specification gives it (reference_audios, reference_images, reference_videos: string[])", () => {
    // spec/media-service-spec.md, Variant V-A: the three reference lists are string[].
    const lists = ["reference_audios", "reference_images", "reference_videos"];
    const contract = new Contract();
    const op = contract.operations.find((candidate) => candidate.create?.label === "V-A")!;
    const properties = op.requestSchema?.properties as Record<string, JsonSchema>;
    // Every list of the request schema whose items carry a rule, read from the schema itself.
    const ruledLists = Object.entries(properties)
      .filter(([, field]) => field.type === "array" && typeof field.items === "object" && field.items !== null)
      .map(([name]) => name);
    expect(ruledLists).toEqual(expect.arrayContaining(lists));
    const { cases } = contract.negativeCases(op);
    for (const field of ruledLists) {
      const negative = itemCases(cases, field).get("type");
      expect(negative, `a negative with a non-string item in ${field}`).toBeDefined();
      const items = itemsOf(negative!.body, field);
      expect(
        items.some((item) => typeof item !== "string"),
        JSON.stringify(negative!.body),
      ).toBe(true);
      expect(contract.validBody(op, negative!.body)).toBe(false);
    }
  });
});
