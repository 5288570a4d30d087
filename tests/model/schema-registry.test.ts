/**
 * The schema registry (model/schema-registry.ts) is built once per component schemas' text and
 * shared: every copy of the bundle validates alike with the same validators, and a document whose
 * schemas differ gets its own registry, which validates by its own schemas.
 */
import { describe, expect, it } from "vitest";
import { loadBundle, type JsonSchema } from "../../model/document.ts";
import { createSchemaRegistry, describeErrors } from "../../model/schema-registry.ts";

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
    expect(() => atLeastFive.component("Total")).toThrow(new Error("no schema #/components/schemas/Total"));
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

/** A document of the component schemas `schemas`. */
const documentOf = (schemas: Record<string, unknown>) =>
  ({
    openapi: "3.1.0",
    info: { title: "registry", version: "1" },
    paths: {},
    components: { schemas },
  }) as unknown as ReturnType<typeof loadBundle>;

describe("the strict registry's rules", () => {
  it("checks each documented extension's value against its definition, and knows only the x- ones as keywords", () => {
    const media = (value: unknown) => () =>
      createSchemaRegistry(documentOf({ Clip: { type: "string", "x-media": value } })).component("Clip");
    expect(media({ kind: "video" })).not.toThrow();
    expect(media({ kind: "hologram" })).toThrow(/x-media/);
    // A definition of extensions.schema.json that is not an extension is no keyword of a schema.
    expect(() =>
      createSchemaRegistry(documentOf({ Odd: { type: "object", condition: { field: "a" } } })).component("Odd"),
    ).toThrow(/strict mode: unknown keyword: "condition"/);
  });

  it("validates formats, refuses NaN and Infinity as numbers, and refuses a tuple with no length", () => {
    const registry = createSchemaRegistry(
      documentOf({ Link: { type: "string", format: "uri" }, Amount: { type: "number" } }),
    );
    expect([registry.component("Link")("https://a.example/x"), registry.component("Link")("not a uri")]).toEqual([
      true,
      false,
    ]);
    expect([1.5, Number.NaN, Number.POSITIVE_INFINITY].map((value) => registry.component("Amount")(value))).toEqual([
      true,
      false,
      false,
    ]);
    expect(() => registry.compile({ type: "array", prefixItems: [{ type: "string" }] })).toThrow(
      /strict mode: "prefixItems" is 1-tuple/,
    );
  });

  it("resolves a component reference in the registry, a schema's own local reference in itself, and leaves text alone", () => {
    const registry = createSchemaRegistry(documentOf({ Small: { type: "integer", maximum: 3 } }));
    const own = registry.compile({
      $defs: { Small: { type: "string" } },
      type: "object",
      properties: { local: { $ref: "#/$defs/Small" }, shared: { $ref: "#/components/schemas/Small" } },
    });
    expect([own({ local: "x", shared: 2 }), own({ local: 2 }), own({ shared: 4 })]).toEqual([true, false, false]);
    // A string that reads like a reference, outside $ref, is a value like any other.
    expect(registry.compile({ const: "#/components/schemas/Small" })("#/components/schemas/Small")).toBe(true);
  });

  it("keeps the eight registries asked for last, dropping the one asked for longest ago", () => {
    const documents = Array.from({ length: 9 }, (_, n) => counting(100 + n));
    const registries = documents.slice(0, 8).map((document) => createSchemaRegistry(document));
    // The first is among the last eight, and asking for it makes it the latest.
    expect(createSchemaRegistry(structuredClone(documents[0]!))).toBe(registries[0]);
    createSchemaRegistry(documents[8]!);
    // The second is now the one asked for longest ago, and was dropped.
    expect(createSchemaRegistry(structuredClone(documents[1]!))).not.toBe(registries[1]);
  });
});

describe("describeErrors", () => {
  it("gives one line per error: where (the body itself as (body)), the message or else the keyword, and the keyword", () => {
    const validate = createSchemaRegistry(documentOf({})).compile({
      type: "object",
      required: ["a"],
      properties: { n: { type: "integer" } },
    });
    validate({ n: "x" });
    expect(describeErrors(validate.errors)).toBe(
      "(body) must have required property 'a' [required]; /n must be integer [type]",
    );
    expect(describeErrors([{ instancePath: "/m", keyword: "custom", schemaPath: "#/custom", params: {} }])).toBe(
      "/m custom [custom]",
    );
    expect([describeErrors(null), describeErrors(undefined), describeErrors([])]).toEqual(["", "", ""]);
  });
});
