/**
 * The schema rules of changes/README.md one keyword at a time, on both sides of each boundary: a
 * request schema is what the service accepts (narrowing it breaks clients), a response schema is
 * what clients receive (widening it breaks them), `not` reverses the effect; plus how branches,
 * `$ref`s and recursive schemas are paired, the readable labels of branches, and whether the
 * object carrying a not-shown marker survives on the other side.
 */
import { describe, expect, it } from "vitest";
import { ChangeCollector } from "../../changes/change.ts";
import { hasCounterpart } from "../../changes/counterpart.ts";
import { compareSchemas, schemaScope } from "../../changes/schema-diff.ts";
import type { Direction } from "../../changes/severity.ts";
import type { JsonSchema, OpenApiDocument } from "../../model/document.ts";

type Schemas = Record<string, JsonSchema>;

const documentWith = (schemas: Schemas = {}, paths: OpenApiDocument["paths"] = {}): OpenApiDocument => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths,
  components: { schemas },
});

interface Compared {
  readonly direction?: Direction;
  readonly before?: Schemas;
  readonly after?: Schemas;
}

function compare(before: unknown, after: unknown, options: Compared = {}) {
  const collector = new ChangeCollector();
  const sides = { before: documentWith(options.before), after: documentWith(options.after ?? options.before) };
  compareSchemas(schemaScope(sides, collector, options.direction ?? "request"), before, after, "body");
  return collector.changes();
}

/** `[id, severity]` of each change the comparison finds, breaking first. */
const found = (before: unknown, after: unknown, options: Compared = {}): Array<[string, string]> =>
  compare(before, after, options).map((change) => [change.id, change.severity]);

/** The release-note messages of the changes. */
const messages = (before: unknown, after: unknown, options: Compared = {}): string[] =>
  compare(before, after, options).map((change) => change.message);

/** The severity of a single change in a request and in a response. */
function severities(before: unknown, after: unknown): { request: string[]; response: string[] } {
  const of = (direction: Direction): string[] =>
    found(before, after, { direction }).map(([id, severity]) => `${id.replace(`${direction}-`, "")} ${severity}`);
  return { request: of("request"), response: of("response") };
}

describe("types", () => {
  it("a type added or made narrower narrows; removed or made wider widens", () => {
    expect(severities({}, { type: "string" })).toEqual({
      request: ["type-narrowed@body breaking"],
      response: ["type-narrowed@body compatible"],
    });
    expect(severities({ type: "string" }, {})).toEqual({
      request: ["type-widened@body compatible"],
      response: ["type-widened@body breaking"],
    });
    expect(severities({ type: "string" }, { type: ["string", "null"] })).toEqual({
      request: ["type-widened@body compatible"],
      response: ["type-widened@body breaking"],
    });
    expect(severities({ type: ["string", "null"] }, { type: "string" })).toEqual({
      request: ["type-narrowed@body breaking"],
      response: ["type-narrowed@body compatible"],
    });
  });

  it("an integer is a number: number → integer narrows, integer → number widens", () => {
    expect(found({ type: "number" }, { type: "integer" })).toEqual([["request-type-narrowed@body", "breaking"]]);
    expect(found({ type: "integer" }, { type: "number" })).toEqual([["request-type-widened@body", "compatible"]]);
  });

  it("a type swapped for an unrelated one is a change both ways", () => {
    expect(severities({ type: "string" }, { type: "integer" })).toEqual({
      request: ["type-changed@body breaking"],
      response: ["type-changed@body breaking"],
    });
    expect(found({ type: ["string", "null"] }, { type: ["integer", "string"] })).toEqual([
      ["request-type-changed@body", "breaking"],
    ]);
    // Only an integer is a number: a string neither narrows nor widens one.
    expect(severities({ type: "number" }, { type: "string" })).toEqual({
      request: ["type-changed@body breaking"],
      response: ["type-changed@body breaking"],
    });
  });

  it("the order of a type list changes nothing", () => {
    expect(found({ type: ["string", "null"] }, { type: ["null", "string"] })).toEqual([]);
    expect(found({ type: ["null", "integer"] }, { type: ["integer", "null"] }, { direction: "response" })).toEqual([]);
    expect(found({ type: ["null", "string"] }, { type: ["string", "null"] })).toEqual([]);
  });

  it("says each type list joined by |, and any where there is none", () => {
    expect(messages({ type: ["integer", "null"] }, { type: ["number", "null"] })).toEqual([
      "body: type widened, integer | null → number | null",
    ]);
    expect(messages({ type: "string" }, {})).toEqual(["body: type widened, string → any"]);
    expect(messages({}, { type: ["string", "null"] })).toEqual(["body: type narrowed, any → string | null"]);
  });
});

describe("enum and const", () => {
  it("an enum added narrows, removed widens", () => {
    expect(severities({ type: "string" }, { type: "string", enum: ["a", "b"] })).toEqual({
      request: ["enum-added@body breaking"],
      response: ["enum-added@body compatible"],
    });
    expect(severities({ type: "string", enum: ["a", "b"] }, { type: "string" })).toEqual({
      request: ["enum-removed@body compatible"],
      response: ["enum-removed@body breaking"],
    });
    expect(messages({}, { enum: ["a", "b"] })).toEqual(["body: now limited to a, b"]);
    expect(messages({ enum: ["a", "b"] }, {})).toEqual(["body: no longer limited to a, b"]);
  });

  it("an enum value removed narrows, added widens", () => {
    expect(severities({ enum: ["a", "b"] }, { enum: ["b", "c"] })).toEqual({
      request: ['enum-value-removed@body="a" breaking', 'enum-value-added@body="c" compatible'],
      response: ['enum-value-added@body="c" breaking', 'enum-value-removed@body="a" compatible'],
    });
  });

  it("a const beside an enum on the other side is a one-value enum", () => {
    expect(found({ enum: ["a", "b"] }, { const: "a" })).toEqual([['request-enum-value-removed@body="b"', "breaking"]]);
    expect(found({ const: "a" }, { enum: ["a", "b"] })).toEqual([['request-enum-value-added@body="b"', "compatible"]]);
    expect(found({ const: "a" }, { enum: ["b"] })).toEqual([
      ['request-enum-value-removed@body="a"', "breaking"],
      ['request-enum-value-added@body="b"', "compatible"],
    ]);
  });

  it("a const added narrows, removed widens, changed is a change both ways", () => {
    expect(severities({ type: "string" }, { type: "string", const: "x" })).toEqual({
      request: ["const-added@body breaking"],
      response: ["const-added@body compatible"],
    });
    expect(severities({ type: "string", const: "x" }, { type: "string" })).toEqual({
      request: ["const-removed@body compatible"],
      response: ["const-removed@body breaking"],
    });
    expect(severities({ const: "x" }, { const: "y" })).toEqual({
      request: ["const-changed@body breaking"],
      response: ["const-changed@body breaking"],
    });
    expect(messages({}, { const: "x" })).toEqual(["body: now must be x"]);
    expect(messages({ const: "x" }, {})).toEqual(["body: no longer must be x"]);
  });

  it("an unchanged const or enum is no change", () => {
    expect(found({ const: { a: 1, b: 2 } }, { const: { b: 2, a: 1 } })).toEqual([]);
    expect(found({ enum: ["a", "b"] }, { enum: ["b", "a"] })).toEqual([]);
  });
});

describe("bounds and restrictions", () => {
  it("an upper bound lowered narrows, raised widens; a lower bound the other way round", () => {
    expect(severities({ maxLength: 10 }, { maxLength: 5 })).toEqual({
      request: ["maxLength-decreased@body breaking"],
      response: ["maxLength-decreased@body compatible"],
    });
    expect(severities({ maxLength: 5 }, { maxLength: 10 })).toEqual({
      request: ["maxLength-increased@body compatible"],
      response: ["maxLength-increased@body breaking"],
    });
    expect(severities({ minItems: 1 }, { minItems: 2 })).toEqual({
      request: ["minItems-increased@body breaking"],
      response: ["minItems-increased@body compatible"],
    });
    expect(severities({ minimum: 2 }, { minimum: 1 })).toEqual({
      request: ["minimum-decreased@body compatible"],
      response: ["minimum-decreased@body breaking"],
    });
  });

  it("a bound added narrows, removed widens, and says the old value", () => {
    expect(severities({}, { maximum: 10 })).toEqual({
      request: ["maximum-added@body breaking"],
      response: ["maximum-added@body compatible"],
    });
    expect(severities({ maximum: 10 }, {})).toEqual({
      request: ["maximum-removed@body compatible"],
      response: ["maximum-removed@body breaking"],
    });
    expect(messages({ maximum: 10 }, {})).toEqual(["body: no longer has maximum (was 10)"]);
    expect(messages({}, { maximum: 10 })).toEqual(["body: now has maximum 10"]);
  });

  it("a pattern added narrows, removed widens, changed is a change both ways", () => {
    expect(severities({ type: "string" }, { type: "string", pattern: "^a" })).toEqual({
      request: ["pattern-added@body breaking"],
      response: ["pattern-added@body compatible"],
    });
    expect(severities({ type: "string", pattern: "^a" }, { type: "string" })).toEqual({
      request: ["pattern-removed@body compatible"],
      response: ["pattern-removed@body breaking"],
    });
    expect(severities({ pattern: "^a" }, { pattern: "^b" })).toEqual({
      request: ["pattern-changed@body breaking"],
      response: ["pattern-changed@body breaking"],
    });
    expect(messages({ format: "uri" }, {})).toEqual(["body: no longer has format (was uri)"]);
    expect(messages({ format: "uri" }, { format: "email" })).toEqual(["body: format changed, uri → email"]);
    expect(found({ multipleOf: 2 }, { multipleOf: 2 })).toEqual([]);
  });
});

describe("objects", () => {
  const object = (extra: JsonSchema = {}): JsonSchema => ({
    type: "object",
    properties: { a: { type: "string" }, b: { type: "string" } },
    ...extra,
  });

  it("a field made required where nothing was required narrows, and only that field changes", () => {
    expect(found(object(), object({ required: ["a"] }))).toEqual([
      ["request-property-became-required@body.a", "breaking"],
    ]);
    expect(found(object({ required: ["a"] }), object(), { direction: "response" })).toEqual([
      ["response-property-became-optional@body.a", "breaking"],
    ]);
  });

  it("additionalProperties: its schema is compared at .* on both sides, added or changed", () => {
    expect(
      found(
        object({ additionalProperties: { type: "string" } }),
        object({ additionalProperties: { type: "string", maxLength: 5 } }),
      ),
    ).toEqual([["request-maxLength-added@body.*", "breaking"]]);
    expect(found(object(), object({ additionalProperties: { type: "string" } }))).toEqual([
      ["request-type-narrowed@body.*", "breaking"],
    ]);
    expect(found(object({ additionalProperties: { type: "string" } }), object(), { direction: "response" })).toEqual([
      ["response-type-widened@body.*", "breaking"],
    ]);
    expect(found(object({ additionalProperties: false }), object({ additionalProperties: false }))).toEqual([]);
  });

  it("a dependency added narrows, removed widens", () => {
    const depends = object({ dependentRequired: { a: ["b"] } });
    expect(severities(object(), depends)).toEqual({
      request: ["dependent-required-added@body=a requires b breaking"],
      response: ["dependent-required-added@body=a requires b compatible"],
    });
    expect(severities(depends, object())).toEqual({
      request: ["dependent-required-removed@body=a requires b compatible"],
      response: ["dependent-required-removed@body=a requires b breaking"],
    });
  });
});

describe("arrays", () => {
  it("items added narrows, items removed widens, at body[]", () => {
    expect(severities({ type: "array" }, { type: "array", items: { type: "string" } })).toEqual({
      request: ["type-narrowed@body[] breaking"],
      response: ["type-narrowed@body[] compatible"],
    });
    expect(severities({ type: "array", items: { type: "string" } }, { type: "array" })).toEqual({
      request: ["type-widened@body[] compatible"],
      response: ["type-widened@body[] breaking"],
    });
  });

  it("a tuple position added or removed is compared against no schema", () => {
    const tuple = (...items: JsonSchema[]): JsonSchema => ({ type: "array", prefixItems: items });
    expect(found(tuple({ type: "string" }), tuple({ type: "string" }, { type: "integer" }))).toEqual([
      ["request-type-narrowed@body[1]", "breaking"],
    ]);
    expect(found(tuple({ type: "string" }, { type: "integer" }), tuple({ type: "string" }))).toEqual([
      ["request-type-widened@body[1]", "compatible"],
    ]);
  });
});

describe("$ref and recursion", () => {
  const node = (value: string): JsonSchema => ({
    type: "object",
    properties: { value: { type: value } },
  });

  it("a renamed recursive component is compared at the route and ends", () => {
    const recursive = (name: string, value: string): Schemas => ({
      [name]: {
        ...node(value),
        properties: {
          value: { type: value },
          children: { type: "array", items: { $ref: `#/components/schemas/${name}` } },
        },
      },
    });
    expect(
      found(
        { $ref: "#/components/schemas/Node" },
        { $ref: "#/components/schemas/Tree" },
        {
          before: recursive("Node", "string"),
          after: recursive("Tree", "integer"),
        },
      ),
    ).toEqual([["request-type-changed@body.value", "breaking"]]);
  });

  it("a component referenced on one side only is compared at the route, not at the component", () => {
    const schemas = { A: node("string") };
    expect(found({ $ref: "#/components/schemas/A" }, node("integer"), { before: schemas })).toEqual([
      ["request-type-changed@body.value", "breaking"],
    ]);
    expect(found(node("integer"), { $ref: "#/components/schemas/A" }, { before: schemas })).toEqual([
      ["request-type-changed@body.value", "breaking"],
    ]);
  });

  it("a component inlined at the top and referenced one level down is still compared inside", () => {
    // Before: body = A = { p: { q: string } }; after: body = { p: A } with A = { q: integer }.
    const before = {
      A: { type: "object", properties: { p: { type: "object", properties: { q: { type: "string" } } } } },
    };
    const after = { A: { type: "object", properties: { q: { type: "integer" } } } };
    expect(
      found(
        { $ref: "#/components/schemas/A" },
        { type: "object", properties: { p: { $ref: "#/components/schemas/A" } } },
        { before, after },
      ),
    ).toEqual([["request-type-changed@body.p.q", "breaking"]]);
  });

  it("the same component on both sides is reported once, at the component", () => {
    const ref = { $ref: "#/components/schemas/Size" };
    expect(
      found(
        { type: "object", properties: { a: ref, b: ref } },
        { type: "object", properties: { a: ref, b: ref } },
        {
          before: { Size: { maximum: 10 } },
          after: { Size: { maximum: 5 } },
        },
      ),
    ).toEqual([["request-maximum-decreased@schema Size", "breaking"]]);
  });
});

describe("allOf, anyOf and oneOf", () => {
  it("anyOf or oneOf added narrows, removed widens, named by its keyword", () => {
    const branches = [{ type: "string" }, { type: "integer" }];
    expect(severities({}, { anyOf: branches })).toEqual({
      request: ["any-of-added@body breaking"],
      response: ["any-of-added@body compatible"],
    });
    expect(severities({}, { oneOf: branches })).toEqual({
      request: ["one-of-added@body breaking"],
      response: ["one-of-added@body compatible"],
    });
    expect(severities({ oneOf: branches }, {})).toEqual({
      request: ["one-of-removed@body compatible"],
      response: ["one-of-removed@body breaking"],
    });
    expect(severities({ anyOf: branches }, {})).toEqual({
      request: ["any-of-removed@body compatible"],
      response: ["any-of-removed@body breaking"],
    });
  });

  it("between two sets of alternatives a branch added widens, removed narrows", () => {
    const [text, count] = [{ type: "string" }, { type: "integer" }];
    expect(severities({ anyOf: [text] }, { anyOf: [text, count] })).toEqual({
      request: ['any-of-branch-added@body={"type":"integer"} compatible'],
      response: ['any-of-branch-added@body={"type":"integer"} breaking'],
    });
    expect(severities({ oneOf: [text, count] }, { oneOf: [text] })).toEqual({
      request: ['one-of-branch-removed@body={"type":"integer"} breaking'],
      response: ['one-of-branch-removed@body={"type":"integer"} compatible'],
    });
  });

  it("branches reordered are paired by their component, title or shape, not by position", () => {
    const schemas = { A: { type: "string" }, B: { type: "integer" } };
    const [a, b] = [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }];
    expect(found({ oneOf: [a, b] }, { oneOf: [b, a] }, { before: schemas })).toEqual([]);
    expect(
      found({ anyOf: [{ type: "string" }, { type: "integer" }] }, { anyOf: [{ type: "integer" }, { type: "string" }] }),
    ).toEqual([]);
    const text = { title: "Text", type: "string" };
    expect(
      found(
        { anyOf: [text, { title: "Count", type: "integer" }] },
        { anyOf: [{ title: "Count", type: "integer", minimum: 0 }, text] },
      ),
    ).toEqual([["request-minimum-added@body anyOf[0]", "breaking"]]);
  });

  it("a branch paired by its component is compared at the component", () => {
    const a = { $ref: "#/components/schemas/A" };
    expect(
      found(
        { oneOf: [{ type: "null" }, a] },
        { oneOf: [a, { type: "null" }] },
        {
          before: { A: { type: "string" } },
          after: { A: { type: "string", maxLength: 3 } },
        },
      ),
    ).toEqual([["request-maxLength-added@schema A", "breaking"]]);
  });

  it("an allOf branch is labelled by its description, on one line, cut after 99 characters", () => {
    const rule = (description: string): JsonSchema => ({ description, required: ["a"] });
    expect(found({ allOf: [rule("Width\n   and  height")] }, { allOf: [] })).toEqual([
      ["request-all-of-branch-removed@body=Width and height", "compatible"],
    ]);
    const hundred = "x".repeat(100);
    expect(found({ allOf: [] }, { allOf: [rule(hundred)] })).toEqual([
      [`request-all-of-branch-added@body=${hundred}`, "breaking"],
    ]);
    expect(found({ allOf: [] }, { allOf: [rule(`${hundred}y`)] })).toEqual([
      [`request-all-of-branch-added@body=${"x".repeat(99)}…`, "breaking"],
    ]);
  });
});

describe("if/then/else and not", () => {
  const conditional = (extra: JsonSchema = {}): JsonSchema => ({
    if: { properties: { kind: { const: "video" } } },
    ...extra,
  });
  const needs = (field: string): JsonSchema => ({ required: [field] });

  it("a conditional added narrows, removed widens", () => {
    expect(severities({}, conditional({ then: needs("a") }))).toEqual({
      request: ["conditional-added@body breaking"],
      response: ["conditional-added@body compatible"],
    });
    expect(severities(conditional({ then: needs("a") }), {})).toEqual({
      request: ["conditional-removed@body compatible"],
      response: ["conditional-removed@body breaking"],
    });
  });

  it("under the same if, then and else are compared, whether added, removed or changed", () => {
    expect(found(conditional({ then: needs("a") }), conditional({ then: needs("a"), else: needs("b") }))).toEqual([
      ["request-property-became-required@body else.b", "breaking"],
    ]);
    expect(found(conditional({ else: needs("b") }), conditional())).toEqual([
      ["request-property-became-optional@body else.b", "compatible"],
    ]);
    expect(found(conditional({ then: needs("a") }), conditional({ then: needs("b") }))).toEqual([
      ["request-property-became-required@body then.b", "breaking"],
      ["request-property-became-optional@body then.a", "compatible"],
    ]);
    expect(found(conditional(), conditional({ then: needs("a") }))).toEqual([
      ["request-property-became-required@body then.a", "breaking"],
    ]);
  });

  it("not added narrows, removed widens", () => {
    expect(severities({}, { not: { const: "x" } })).toEqual({
      request: ["not-added@body breaking"],
      response: ["not-added@body compatible"],
    });
    expect(severities({ not: { const: "x" } }, {})).toEqual({
      request: ["not-removed@body compatible"],
      response: ["not-removed@body breaking"],
    });
  });

  it("under not the effect is reversed, and the message says so", () => {
    expect(severities({ not: { enum: ["a"] } }, { not: { enum: ["a", "b"] } })).toEqual({
      request: ['enum-value-added@body not="b" breaking'],
      response: ['enum-value-added@body not="b" compatible'],
    });
    expect(messages({ not: { maximum: 5 } }, { not: { maximum: 3 } })).toEqual([
      "body not: maximum lowered, 5 → 3 (inside not, so the effect is reversed)",
    ]);
  });
});

describe("a component used both as is and under not", () => {
  // Its enum gaining a value widens the direct use (compatible in a request) and narrows the negated
  // one (breaking): one change, breaking, whichever property is compared first.
  const code: Schemas = { Code: { enum: ["x"] } };
  const widened: Schemas = { Code: { enum: ["x", "y"] } };
  const ref = { $ref: "#/components/schemas/Code" };
  const object = (first: "a" | "b") => {
    const properties = { a: ref, b: { not: ref } };
    return { type: "object", properties: first === "a" ? properties : { b: properties.b, a: properties.a } };
  };

  it.each(["a", "b"] as const)("is breaking when %s comes first", (first) => {
    expect(found(object(first), object(first), { before: code, after: widened })).toEqual([
      ['request-enum-value-added@schema Code="y"', "breaking"],
    ]);
  });
});

describe("defaults", () => {
  it("in a request a default stated is compatible, dropped or changed breaking", () => {
    expect(found({ type: "string" }, { type: "string", default: "small" })).toEqual([
      ["request-default-added@body", "compatible"],
    ]);
    expect(found({ type: "string", default: "small" }, { type: "string" })).toEqual([
      ["request-default-removed@body", "breaking"],
    ]);
    expect(found({ default: "small" }, { default: "large" })).toEqual([["request-default-changed@body", "breaking"]]);
    expect(messages({}, { default: "small" })).toEqual(["body: now states default small"]);
    expect(messages({ default: "small" }, {})).toEqual(["body: no longer states default small"]);
  });

  it("a default in a response changes nothing a client reads", () => {
    expect(found({ default: "small" }, { default: "large" }, { direction: "response" })).toEqual([]);
    expect(found({}, { default: "small" }, { direction: "response" })).toEqual([]);
  });
});

describe("x-media", () => {
  const media = (rules: Record<string, unknown>): JsonSchema => ({
    type: "string",
    "x-media": { kind: "video", ...rules },
  });

  it("an upper limit lowered tightens, raised relaxes; stated where none was tightens, dropped relaxes", () => {
    expect(severities(media({ maxDurationSeconds: 60 }), media({ maxDurationSeconds: 30 }))).toEqual({
      request: ["media-limit-tightened@body=maxDurationSeconds breaking"],
      response: ["media-limit-tightened@body=maxDurationSeconds compatible"],
    });
    expect(severities(media({ maxDurationSeconds: 30 }), media({ maxDurationSeconds: 60 }))).toEqual({
      request: ["media-limit-relaxed@body=maxDurationSeconds compatible"],
      response: ["media-limit-relaxed@body=maxDurationSeconds breaking"],
    });
    expect(found(media({}), media({ maxSizeMB: 50 }))).toEqual([
      ["request-media-limit-tightened@body=maxSizeMB", "breaking"],
    ]);
    expect(found(media({ maxSizeMB: 50 }), media({}))).toEqual([
      ["request-media-limit-relaxed@body=maxSizeMB", "compatible"],
    ]);
  });

  it("a lower limit raised tightens, lowered relaxes; stated tightens, dropped relaxes", () => {
    expect(found(media({ minDurationSeconds: 2 }), media({ minDurationSeconds: 4 }))).toEqual([
      ["request-media-limit-tightened@body=minDurationSeconds", "breaking"],
    ]);
    expect(found(media({ minDurationSeconds: 4 }), media({ minDurationSeconds: 2 }))).toEqual([
      ["request-media-limit-relaxed@body=minDurationSeconds", "compatible"],
    ]);
    expect(found(media({}), media({ minDurationSeconds: 2 }))).toEqual([
      ["request-media-limit-tightened@body=minDurationSeconds", "breaking"],
    ]);
    expect(found(media({ minDurationSeconds: 2 }), media({}))).toEqual([
      ["request-media-limit-relaxed@body=minDurationSeconds", "compatible"],
    ]);
  });

  it("reads an aspect ratio W:H as W/H, with whole or decimal parts of any length", () => {
    // 2:1 is 2, 1:4 is 0.25: a lower maximum ratio.
    expect(found(media({ maxAspectRatio: "2:1" }), media({ maxAspectRatio: "1:4" }))).toEqual([
      ["request-media-limit-tightened@body=maxAspectRatio", "breaking"],
    ]);
    expect(found(media({ maxAspectRatio: "16:10" }), media({ maxAspectRatio: "21:10" }))).toEqual([
      ["request-media-limit-relaxed@body=maxAspectRatio", "compatible"],
    ]);
    expect(found(media({ minAspectRatio: "1.25:1.75" }), media({ minAspectRatio: "1.5:1.25" }))).toEqual([
      ["request-media-limit-tightened@body=minAspectRatio", "breaking"],
    ]);
  });

  it("the same ratio spelled another way is no change", () => {
    expect(found(media({ maxAspectRatio: "16:9" }), media({ maxAspectRatio: "32:18" }))).toEqual([]);
    expect(
      found(media({ minAspectRatio: "1:2" }), media({ minAspectRatio: "0.5:1" }), { direction: "response" }),
    ).toEqual([]);
  });

  it("a limit it cannot read as a number is a changed rule, whichever side it is on", () => {
    expect(found(media({ maxAspectRatio: "16:10" }), media({ maxAspectRatio: "16:10 or wider" }))).toEqual([
      ["request-media-rule-changed@body=maxAspectRatio", "breaking"],
    ]);
    expect(found(media({ maxAspectRatio: "about 16:10" }), media({ maxAspectRatio: "16:10" }))).toEqual([
      ["request-media-rule-changed@body=maxAspectRatio", "breaking"],
    ]);
    expect(
      found(media({ maxAspectRatio: "wide" }), media({ maxAspectRatio: "16:10" }), { direction: "response" }),
    ).toEqual([["response-media-rule-changed@body=maxAspectRatio", "breaking"]]);
  });

  it("a changed rule that is no min or max limit is a changed rule, even when numeric", () => {
    expect(found(media({ frameStep: 1 }), media({ frameStep: 2 }))).toEqual([
      ["request-media-rule-changed@body=frameStep", "breaking"],
    ]);
    expect(found(media({ kind: "video" }), media({ kind: "image" }), { direction: "response" })).toEqual([
      ["response-media-rule-changed@body=kind", "breaking"],
    ]);
  });

  it("input forms and formats: added widens, removed narrows, absent on one side is not shown", () => {
    expect(severities(media({ forms: ["url"] }), media({ forms: ["url", "upload"] }))).toEqual({
      request: ["media-form-added@body=upload compatible"],
      response: ["media-form-added@body=upload breaking"],
    });
    expect(found(media({ formats: ["mp4", "mov"] }), media({ formats: ["mp4"] }))).toEqual([
      ["request-media-format-removed@body=mov", "breaking"],
    ]);
    expect(found(media({ formats: ["mp4"] }), media({ formats: ["mov", "mp4"] }))).toEqual([
      ["request-media-format-added@body=mov", "compatible"],
    ]);
    expect(found(media({}), media({ forms: ["url"], formats: ["mp4"] }))).toEqual([]);
    expect(found(media({ forms: ["url"] }), media({}))).toEqual([]);
  });

  it("x-media stated or dropped is a changed keyword", () => {
    expect(found({ type: "string" }, media({}))).toEqual([["request-keyword-changed@body=x-media", "breaking"]]);
    expect(found(media({}), { type: "string" }, { direction: "response" })).toEqual([
      ["response-keyword-changed@body=x-media", "breaking"],
    ]);
    expect(messages({ type: "string" }, { type: "string", "x-media": { kind: "image" } })).toEqual([
      "body: x-media changed",
    ]);
  });
});

describe("service extensions and access", () => {
  it("a status made terminal or no longer terminal breaks both ways", () => {
    const terminal = (values: string[]): JsonSchema => ({ type: "string", "x-terminal-values": values });
    expect(severities(terminal(["done"]), terminal(["done", "failed"]))).toEqual({
      request: ["terminal-status-added@body=failed breaking"],
      response: ["terminal-status-added@body=failed breaking"],
    });
    expect(severities(terminal(["done", "failed"]), terminal(["done"]))).toEqual({
      request: ["terminal-status-removed@body=failed breaking"],
      response: ["terminal-status-removed@body=failed breaking"],
    });
  });

  it("readOnly added breaks requests only, removed breaks nothing; unchanged is no change", () => {
    expect(severities({ type: "string" }, { type: "string", readOnly: true })).toEqual({
      request: ["read-only-added@body breaking"],
      response: ["read-only-added@body compatible"],
    });
    expect(severities({ type: "string", readOnly: true }, { type: "string" })).toEqual({
      request: ["read-only-removed@body compatible"],
      response: ["read-only-removed@body compatible"],
    });
    expect(found({ readOnly: true }, { readOnly: true })).toEqual([]);
  });

  it("writeOnly added breaks responses only, removed breaks nothing; unchanged is no change", () => {
    expect(severities({ type: "string" }, { type: "string", writeOnly: true })).toEqual({
      request: ["write-only-added@body compatible"],
      response: ["write-only-added@body breaking"],
    });
    expect(severities({ type: "string", writeOnly: true }, { type: "string" })).toEqual({
      request: ["write-only-removed@body compatible"],
      response: ["write-only-removed@body compatible"],
    });
    expect(found({ writeOnly: true }, { writeOnly: true }, { direction: "response" })).toEqual([]);
  });
});

describe("discriminator", () => {
  const branch = (kind: JsonSchema | undefined, required: boolean): JsonSchema => ({
    type: "object",
    required: required ? ["kind", "value"] : ["value"],
    properties: { ...(kind ? { kind } : {}), value: { type: "string" } },
  });
  const union = (branches: JsonSchema[], propertyName?: string): JsonSchema => ({
    oneOf: branches,
    ...(propertyName ? { discriminator: { propertyName } } : {}),
  });
  const tagged = [branch({ const: "a" }, true), branch({ enum: ["b"] }, true)];
  const untagged = [branch({ const: "a" }, true), branch(undefined, false)];

  it("stated or dropped on a union whose every branch requires its own constant changes nothing", () => {
    expect(severities(union(tagged), union(tagged, "kind"))).toEqual({
      request: ["discriminator-stated@body=kind compatible"],
      response: ["discriminator-stated@body=kind compatible"],
    });
    expect(severities(union(tagged, "kind"), union(tagged))).toEqual({
      request: ["discriminator-stated@body=kind compatible"],
      response: ["discriminator-stated@body=kind compatible"],
    });
  });

  it("a tag that is required but not a constant does not tell branches apart", () => {
    const plain = [branch({ type: "string" }, true), branch({ type: "string" }, true)];
    expect(found(union(plain), union(plain, "kind"))).toEqual([["request-discriminator-added@body=kind", "breaking"]]);
    const optional = [branch({ const: "a" }, false), branch({ const: "b" }, true)];
    expect(found(union(optional), union(optional, "kind"))).toEqual([
      ["request-discriminator-added@body=kind", "breaking"],
    ]);
  });

  it("added on an untagged union narrows, dropped from it widens", () => {
    expect(severities(union(untagged), union(untagged, "kind"))).toEqual({
      request: ["discriminator-added@body=kind breaking"],
      response: ["discriminator-added@body=kind compatible"],
    });
    expect(severities(union(untagged, "kind"), union(untagged))).toEqual({
      request: ["discriminator-removed@body=kind compatible"],
      response: ["discriminator-removed@body=kind breaking"],
    });
  });

  it("added where there are no branches to carry a tag narrows", () => {
    const base = { type: "object", properties: { kind: { type: "string" } } };
    expect(found(base, { ...base, discriminator: { propertyName: "kind" } })).toEqual([
      ["request-discriminator-added@body=kind", "breaking"],
    ]);
  });

  it("moved to a property the branches do not all tag is a change both ways", () => {
    expect(severities(union(tagged, "kind"), union(tagged, "value"))).toEqual({
      request: ["discriminator-changed@body breaking"],
      response: ["discriminator-changed@body breaking"],
    });
    expect(messages(union(tagged, "kind"), union(tagged, "value"))).toEqual([
      'body: discriminator changed, {"propertyName":"kind"} → {"propertyName":"value"}',
    ]);
  });
});

describe("keywords without a rule", () => {
  it("a changed value counts as breaking; the same value in another key order is no change", () => {
    expect(severities({ contains: { const: "a" } }, { contains: { const: "b" } })).toEqual({
      request: ["keyword-changed@body=contains breaking"],
      response: ["keyword-changed@body=contains breaking"],
    });
    expect(
      found({ contains: { type: "string", minLength: 1 } }, { contains: { minLength: 1, type: "string" } }),
    ).toEqual([]);
  });
});

describe("hasCounterpart", () => {
  const pathed = (path: string, operation: Record<string, unknown>, schemas: Schemas = {}): OpenApiDocument =>
    documentWith(schemas, { [path]: { get: { operationId: "get", responses: {}, ...operation } } });
  const marked = (name: string): Record<string, unknown> => ({
    in: "query",
    name,
    "x-not-shown": { limits: "not shown" },
  });
  const plain = (name: string): Record<string, unknown> => ({ in: "query", name });

  it("finds a parameter by where and what it is called, wherever it moved in the list", () => {
    const before = pathed("/v1/things", { parameters: [plain("a"), marked("b")] });
    const pointer = "#/paths/~1v1~1things/get/parameters/1/x-not-shown";
    expect(hasCounterpart(before, pathed("/v1/things", { parameters: [marked("b"), plain("a")] }), pointer)).toBe(true);
    expect(hasCounterpart(before, pathed("/v1/things", { parameters: [plain("a"), plain("b")] }), pointer)).toBe(false);
    expect(hasCounterpart(before, pathed("/v1/things", { parameters: [plain("a"), marked("c")] }), pointer)).toBe(
      false,
    );
  });

  it("finds a parameter referenced from components", () => {
    const before = pathed("/v1/things", { parameters: [plain("a"), marked("b")] });
    const after = {
      ...pathed("/v1/things", { parameters: [{ $ref: "#/components/parameters/B" }] }),
    };
    after.components.parameters = { B: marked("b") };
    expect(hasCounterpart(before, after, "#/paths/~1v1~1things/get/parameters/1")).toBe(true);
  });

  it("follows other arrays by position", () => {
    const schemas = (second: JsonSchema): Schemas => ({
      X: { allOf: [{ properties: { a: { type: "string" } } }, second] },
    });
    const before = pathed("/v1/things", {}, schemas({ properties: { b: { type: "string", "x-not-shown": {} } } }));
    const pointer = "#/components/schemas/X/allOf/1/properties/b/x-not-shown";
    expect(hasCounterpart(before, before, pointer)).toBe(true);
    const moved = pathed("/v1/things", {}, schemas({ properties: { c: { type: "string" } } }));
    expect(hasCounterpart(before, moved, pointer)).toBe(false);
  });

  it("unescapes ~1 and ~0 in the pointer's keys", () => {
    const doc = pathed("/v1/a~b", { "x-not-shown": {} });
    expect(hasCounterpart(doc, doc, "#/paths/~1v1~1a~0b/get/x-not-shown")).toBe(true);
  });

  it("has none when the other side holds something else there, or nothing", () => {
    const before = pathed(
      "/v1/things",
      {},
      { X: { type: "object", properties: { a: { type: "string", "x-not-shown": {} } } } },
    );
    const after = pathed("/v1/things", {}, { X: true as unknown as JsonSchema });
    expect(hasCounterpart(before, after, "#/components/schemas/X/properties/a/x-not-shown")).toBe(false);
    expect(hasCounterpart(before, before, "#/paths/~1v1~1things/get/parameters/0")).toBe(false);
    const listed = pathed("/v1/things", { parameters: [marked("a")] });
    expect(hasCounterpart(listed, listed, "#/paths/~1v1~1things/get/parameters/3")).toBe(false);
  });
});
