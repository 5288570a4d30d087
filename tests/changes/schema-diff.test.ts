/**
 * The schema comparison on small documents, for what the bundle does not exercise: recursive
 * schemas, one component reached from a request and from a response, `$ref` with keywords beside
 * it, boolean schemas, tuples, and a keyword the comparison has no rule for.
 */
import { describe, expect, it } from "vitest";
import { ChangeCollector, type Change } from "../../changes/change.ts";
import { compareRoutes } from "../../changes/operation-diff.ts";
import type { JsonSchema, OpenApiDocument } from "../../model/document.ts";

/** A document with one POST /v1/things whose request body is `request` and whose 200 body is `response`. */
function documentWith(request: unknown, response: unknown, schemas: Record<string, JsonSchema> = {}): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/v1/things": {
        post: {
          operationId: "createThing",
          requestBody: { required: true, content: { "application/json": { schema: request as JsonSchema } } },
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: response as JsonSchema } } },
          },
        },
      },
    },
    components: { schemas },
  };
}

function changes(before: OpenApiDocument, after: OpenApiDocument): Array<Pick<Change, "id" | "severity">> {
  const collector = new ChangeCollector();
  compareRoutes({ before, after }, collector, () => undefined);
  return collector.changes().map(({ id, severity }) => ({ id, severity }));
}

const node = (type: string): JsonSchema => ({
  type: "object",
  properties: { value: { type }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
});

describe("schema comparison", () => {
  it("ends on a recursive schema and reports its change once per direction", () => {
    const ref = { $ref: "#/components/schemas/Node" };
    const found = changes(
      documentWith(ref, ref, { Node: node("string") }),
      documentWith(ref, ref, { Node: node("integer") }),
    );
    expect(found).toEqual([
      { id: "request-type-changed@schema Node.value", severity: "breaking" },
      { id: "response-type-changed@schema Node.value", severity: "breaking" },
    ]);
  });

  it("classifies one component's change by the direction of each use", () => {
    const ref = { $ref: "#/components/schemas/Size" };
    const sizes = (values: string[]): Record<string, JsonSchema> => ({ Size: { type: "string", enum: values } });
    const found = changes(documentWith(ref, ref, sizes(["S", "M"])), documentWith(ref, ref, sizes(["S", "M", "L"])));
    expect(found).toEqual([
      { id: 'response-enum-value-added@schema Size="L"', severity: "breaking" },
      { id: 'request-enum-value-added@schema Size="L"', severity: "compatible" },
    ]);
  });

  it("applies the keywords beside a $ref", () => {
    const schemas = { Count: { type: "integer", minimum: 1 } };
    const before = documentWith({ $ref: "#/components/schemas/Count", maximum: 10 }, {}, schemas);
    const after = documentWith({ $ref: "#/components/schemas/Count", maximum: 5 }, {}, schemas);
    expect(changes(before, after)).toEqual([
      { id: "request-maximum-decreased@POST /v1/things request body", severity: "breaking" },
    ]);
  });

  it("reads true and false as schemas", () => {
    const before = documentWith({ type: "object", properties: { extra: true } }, {});
    const after = documentWith({ type: "object", properties: { extra: false } }, {});
    expect(changes(before, after)).toEqual([
      { id: "request-not-added@POST /v1/things request body.extra", severity: "breaking" },
    ]);
  });

  it("compares tuple items one by one", () => {
    const tuple = (second: JsonSchema): JsonSchema => ({ type: "array", prefixItems: [{ type: "string" }, second] });
    const found = changes(
      documentWith({}, tuple({ type: "integer" })),
      documentWith({}, tuple({ type: "integer", maximum: 3 })),
    );
    expect(found).toEqual([
      { id: "response-maximum-added@POST /v1/things response 200 body[1]", severity: "compatible" },
    ]);
  });

  it("counts a changed keyword it has no rule for as breaking", () => {
    const before = documentWith({ type: "array", contains: { const: "a" } }, {});
    const after = documentWith({ type: "array", contains: { const: "b" } }, {});
    expect(changes(before, after)).toEqual([
      { id: "request-keyword-changed@POST /v1/things request body=contains", severity: "breaking" },
    ]);
  });

  it("ignores wording: descriptions, titles and examples", () => {
    const before = documentWith({ type: "string", description: "a", examples: ["x"] }, { title: "A" });
    const after = documentWith({ type: "string", description: "b", examples: ["y"] }, { title: "B" });
    expect(changes(before, after)).toEqual([]);
  });

  it("sees a renamed path parameter as the same route, its template renamed (breaking for typed code), its parameters unchanged", () => {
    const poll = (name: string): OpenApiDocument => ({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        [`/v1/things/{${name}}`]: {
          get: {
            operationId: "getThing",
            parameters: [{ name, in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: {},
    });
    expect(changes(poll("id"), poll("thing_id")).map((change) => [change.id, change.severity])).toEqual([
      ["path-template-changed@GET /v1/things/{thing_id}", "breaking"],
    ]);
  });

  describe("judges a discriminator by the values the union accepts", () => {
    const branch = (kind: string | undefined, extra: JsonSchema): JsonSchema => ({
      type: "object",
      required: kind === undefined ? ["value"] : ["kind", "value"],
      properties: { ...(kind === undefined ? {} : { kind: { const: kind } }), value: extra },
    });
    const union = (branches: JsonSchema[], discriminator?: string): JsonSchema => ({
      oneOf: branches,
      ...(discriminator ? { discriminator: { propertyName: discriminator } } : {}),
    });
    const tagged = [branch("text", { type: "string" }), branch("count", { type: "integer" })];
    const untagged = [branch(undefined, { type: "string" }), branch("count", { type: "integer" })];

    it("adding one to a union already tagged by const changes nothing a client sends or reads", () => {
      const found = changes(
        documentWith(union(tagged), union(tagged)),
        documentWith(union(tagged, "kind"), union(tagged, "kind")),
      );
      expect(found).toEqual([
        { id: "request-discriminator-stated@POST /v1/things request body=kind", severity: "compatible" },
        { id: "response-discriminator-stated@POST /v1/things response 200 body=kind", severity: "compatible" },
      ]);
    });

    it("adding one to a union whose branches do not all carry the tag narrows it", () => {
      const found = changes(documentWith(union(untagged), {}), documentWith(union(untagged, "kind"), {}));
      expect(found).toEqual([
        { id: "request-discriminator-added@POST /v1/things request body=kind", severity: "breaking" },
      ]);
    });

    it("reads the tag through a branch's $ref", () => {
      const schemas = { Text: tagged[0]!, Count: tagged[1]! };
      const refs = [{ $ref: "#/components/schemas/Text" }, { $ref: "#/components/schemas/Count" }];
      const found = changes(documentWith(union(refs), {}, schemas), documentWith(union(refs, "kind"), {}, schemas));
      expect(found).toEqual([
        { id: "request-discriminator-stated@POST /v1/things request body=kind", severity: "compatible" },
      ]);
    });
  });
});
