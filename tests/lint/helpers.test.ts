import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../model/document.ts";
import { follow, pointerPath } from "../../lint/refs.ts";
import { areas, createRoutes, pollRoutes } from "../../lint/routes.ts";
import { subschemas } from "../../lint/schema-walk.ts";
import { I_A_CREATE, applyPatch, golden } from "./support.ts";

describe("areas", () => {
  it("are the tags' x-area, with where each tag sits", () => {
    const doc = applyPatch(golden(), [
      { op: "add", path: "/tags/0", value: { name: "Stock", description: "No area." } },
    ]);
    expect(areas(doc)).toEqual([
      { tag: "Images", name: "Image", labelPrefix: "I", segment: "images", where: ["tags", 1] },
    ]);
  });

  it("leave out a malformed x-area (the extensions rule reports it)", () => {
    expect(areas(applyPatch(golden(), [{ op: "remove", path: "/tags/0/x-area/segment" }]))).toEqual([]);
  });
});

describe("routes", () => {
  it("counts a POST in a model area as a create route even without x-model-label, and no other route", () => {
    // The golden document's POST /v1/uploads is tagged outside the model areas: no create route.
    const doc = applyPatch(golden(), [
      { op: "add", path: "/paths/~1v1~1images~1i-z", value: { post: { tags: ["Images"], responses: {} } } },
    ]);
    expect(createRoutes(doc).map(({ path, label, area }) => [path, label, area?.name])).toEqual([
      ["/v1/images/i-a", "I-A", "Image"],
      ["/v1/images/i-z", undefined, "Image"],
    ]);
    expect(pollRoutes(doc).map(({ path }) => path)).toEqual(["/v1/images/{id}"]);
  });

  it("take their area from their tag, not from their path or label", () => {
    const doc = applyPatch(golden(), [{ op: "replace", path: `${I_A_CREATE}/tags`, value: ["Stock"] }]);
    expect(createRoutes(doc).map(({ path, area }) => [path, area])).toEqual([["/v1/images/i-a", undefined]]);
  });
});

describe("document helpers", () => {
  it("unescapes JSON pointers: ~1 is /, ~0 is ~, and ~01 is ~1, not / (RFC 6901, section 4)", () => {
    expect(pointerPath("#/paths/~1v1~1images~1{id}/get")).toEqual(["paths", "/v1/images/{id}", "get"]);
    expect(pointerPath("#/components/schemas/a~0b/c~01d/e~10f")).toEqual([
      "components",
      "schemas",
      "a~b",
      "c~1d",
      "e/0f",
    ]);
  });

  it("follows chains of references to the definition, and gives up on a broken one", () => {
    const doc: OpenApiDocument = applyPatch(golden(), [
      { op: "add", path: "/components/responses/Alias", value: { $ref: "#/components/responses/Forbidden" } },
    ]);
    expect(follow(doc, { $ref: "#/components/responses/Alias" }, ["x"])?.path).toEqual([
      "components",
      "responses",
      "Forbidden",
    ]);
    expect(follow(doc, { $ref: "#/components/responses/Nope" }, ["x"])).toBeUndefined();
  });

  it("marks schemas inside applicator branches", () => {
    const nodes = [
      ...subschemas({ properties: { a: { type: "string" } }, if: { properties: { b: { const: 1 } } } }, []),
    ];
    expect(nodes.map(({ path, inBranch }) => [path.join("."), inBranch])).toEqual([
      ["", false],
      ["if", true],
      ["if.properties.b", true],
      ["properties.a", false],
    ]);
  });
});
