/**
 * The schema registry (model/schema-registry.ts) is built once per component schemas' text and
 * shared: every copy of the bundle validates alike with the same validators, and a document whose
 * schemas differ gets its own registry, which validates by its own schemas.
 */
import { describe, expect, it } from "vitest";
import { loadBundle, type JsonSchema } from "../../model/document.ts";
import { createSchemaRegistry } from "../../model/schema-registry.ts";

/** A document of one component schema, `Count`: an integer of at least `minimum`. */
const counting = (minimum: number) =>
  ({
    openapi: "3.1.0",
    info: { title: "counting", version: "1" },
    paths: {},
    components: { schemas: { Count: { type: "integer", minimum } } },
  }) as unknown as ReturnType<typeof loadBundle>;

describe("the schema registry", () => {
  it("is one for every copy of the same description, its validators compiled once per schema text", () => {
    const first = createSchemaRegistry(loadBundle());
    const second = createSchemaRegistry(loadBundle());
    expect(second).toBe(first);
    const schema: JsonSchema = { type: "array", items: { type: "string", minLength: 2 } };
    expect(first.compile(structuredClone(schema))).toBe(second.compile(structuredClone(schema)));
  });

  it("is another for a document whose component schemas differ, and validates by that document's schemas", () => {
    const atLeastOne = createSchemaRegistry(counting(1));
    const atLeastFive = createSchemaRegistry(counting(5));
    expect(atLeastFive).not.toBe(atLeastOne);
    expect(atLeastOne.component("Count")(3)).toBe(true);
    expect(atLeastFive.component("Count")(3)).toBe(false);
    // A reference compiles against its own registry's component.
    const byRef = { $ref: "#/components/schemas/Count" } as JsonSchema;
    expect(atLeastOne.compile(byRef)(3)).toBe(true);
    expect(atLeastFive.compile(structuredClone(byRef))(3)).toBe(false);
  });

  it("still refuses a document whose schemas break a rule of the strict registry, every time it is asked", () => {
    const unknownKeyword = counting(1);
    (unknownKeyword.components.schemas as Record<string, object>).Count = { type: "integer", minimun: 1 };
    expect(() => createSchemaRegistry(unknownKeyword).component("Count")).toThrow(/minimun/);
    expect(() => createSchemaRegistry(structuredClone(unknownKeyword)).component("Count")).toThrow(/minimun/);
  });
});
