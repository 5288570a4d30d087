import { describe, expect, it } from "vitest";
import extensions from "../../model/extensions.schema.json" with { type: "json" };
import { EXTENSION_NAMES } from "../../model/schema-registry.ts";
import type { OpenApiDocument } from "../../model/document.ts";
import { AREAS, areaOfLabel, areaOfSegment } from "../../lint/areas.ts";
import { CHECKS } from "../../lint/checks/index.ts";
import { isErrorBodySchema } from "../../lint/checks/create-responses.ts";
import { mediaKindOfProperty } from "../../lint/checks/media-fields.ts";
import { checkPaths } from "../../lint/checks/paths.ts";
import { jobStatusComponent } from "../../lint/checks/poll-status.ts";
import { tableKeys } from "../../lint/checks/pricing-fields.ts";
import type { Check, CheckOptions } from "../../lint/finding.ts";
import { follow, pointerPath } from "../../lint/refs.ts";
import { createRoutes, pollRoutes } from "../../lint/routes.ts";
import { subschemas } from "../../lint/schema-walk.ts";
import { applyPatch, golden, type PatchOperation } from "./support.ts";

const NO_MAP: CheckOptions = { slugMap: {} };
const CREATE = "/paths/~1v1~1images~1i-a/post";
const REQUEST = `${CREATE}/requestBody/content/application~1json/schema`;

function run(check: Check, patch: PatchOperation[], options = NO_MAP): Array<{ path: string; message: string }> {
  return check(applyPatch(golden(), patch), options).map(({ path, message }) => ({ path: path.join("."), message }));
}

describe("the house checks on the golden document", () => {
  for (const [name, check] of Object.entries(CHECKS)) {
    it(`${name} finds nothing`, () => {
      expect(check(golden(), NO_MAP)).toEqual([]);
    });
  }
});

describe("areas", () => {
  it("maps each label prefix to its route segment and back", () => {
    expect(areaOfLabel("MC-A")).toEqual({ segment: "motion-control", name: "MotionControl" });
    expect(areaOfLabel("D-B")?.segment).toBe("3d");
    expect(areaOfLabel("X-A")).toBeUndefined();
    for (const area of Object.values(AREAS)) expect(areaOfSegment(area.segment)).toBe(area);
  });
});

describe("routes", () => {
  it("counts a POST in a model area as a create route even without x-model-label, and no other route", () => {
    const doc = applyPatch(golden(), [
      { op: "add", path: "/paths/~1v1~1uploads", value: { post: { responses: {} } } },
      { op: "add", path: "/paths/~1v1~1images~1i-z", value: { post: { responses: {} } } },
    ]);
    expect(createRoutes(doc).map(({ path, label, area }) => [path, label, area?.name])).toEqual([
      ["/v1/images/i-a", "I-A", "Image"],
      ["/v1/images/i-z", undefined, "Image"],
    ]);
    expect(pollRoutes(doc).map(({ path }) => path)).toEqual(["/v1/images/{id}"]);
  });
});

describe("paths check with a slug map (MEDIA_SLUG_MAP)", () => {
  const moved: PatchOperation[] = [{ op: "move", from: "/paths/~1v1~1images~1i-a", path: "/paths/~1v1~1images~1real-slug" }];

  it("accepts the mapped real slug", () => {
    expect(run(checkPaths, moved, { slugMap: { "i-a": "real-slug" } })).toEqual([]);
  });

  it("expects the mapped slug, not the placeholder, once a map is given", () => {
    expect(run(checkPaths, [], { slugMap: { "i-a": "real-slug" } })).toEqual([
      expect.objectContaining({ path: "paths./v1/images/i-a.post", message: expect.stringContaining("must be at /v1/images/real-slug") }),
    ]);
  });

  it("rejects a real slug that no map names", () => {
    expect(run(checkPaths, moved)).toEqual([expect.objectContaining({ message: expect.stringContaining("must be at /v1/images/i-a") })]);
  });

  it("rejects a label whose prefix is no area", () => {
    expect(run(checkPaths, [{ op: "replace", path: `${CREATE}/x-model-label`, value: "Q-A" }])).toEqual([
      { path: "paths./v1/images/i-a.post.x-model-label", message: expect.stringContaining('x-model-label "Q-A" has no known area prefix; use one of I, V, D, A, MC, LS, DM, VU') },
    ]);
  });
});

describe("media field names", () => {
  it.each([
    ["image", { type: "string" }, "image"],
    ["end_image", { type: "string" }, "image"],
    ["reference_videos", { type: "array", items: { type: "string" } }, "video"],
    ["audio", { type: "string" }, "audio"],
    ["num_images", { type: "integer" }, undefined],
    ["generate_audio", { type: "boolean" }, undefined],
    ["image_search", { type: "boolean" }, undefined],
    ["imagery", { type: "string" }, undefined],
  ])("%s holding %j is %s media", (name, schema, kind) => {
    expect(mediaKindOfProperty(name, schema)).toBe(kind);
  });

  it("accepts x-not-shown.input-forms instead of forms, and rejects both at once", () => {
    const notShown = { op: "add", path: `${REQUEST}/properties/reference_images/x-not-shown`, value: { "input-forms": "The input forms are not shown." } } as const;
    expect(run(CHECKS["media-fields"], [{ op: "remove", path: `${REQUEST}/properties/reference_images/x-media/forms` }, notShown])).toEqual([]);
    expect(run(CHECKS["media-fields"], [notShown])).toEqual([
      { path: expect.stringMatching(/reference_images\.x-not-shown\.input-forms$/), message: expect.stringContaining("has both x-media.forms and x-not-shown.input-forms") },
    ]);
  });
});

describe("error bodies", () => {
  const doc = golden();
  it.each([
    ["the error body", { $ref: "#/components/schemas/ErrorBody" }, true],
    ["a union of both bodies", { $ref: "#/components/schemas/BadRequestBody" }, true],
    ["an allOf on the error body", { $ref: "#/components/schemas/CooldownError" }, true],
    ["a union with a foreign branch", { anyOf: [{ $ref: "#/components/schemas/ErrorBody" }, { type: "object" }] }, false],
    ["an inline object", { type: "object" }, false],
    ["an empty union", { oneOf: [] }, false],
  ])("%s: %s", (_name, schema, expected) => {
    expect(isErrorBodySchema(doc, schema)).toBe(expected);
  });

  it("does not loop on a reference cycle", () => {
    const cyclic = applyPatch(golden(), [{ op: "add", path: "/components/schemas/Loop", value: { allOf: [{ $ref: "#/components/schemas/Loop" }] } }]);
    expect(isErrorBodySchema(cyclic, { $ref: "#/components/schemas/Loop" })).toBe(false);
  });

  it("reports a 4xx response without a body", () => {
    const findings = run(CHECKS["create-responses"], [{ op: "remove", path: "/components/responses/Unauthorized/content" }]);
    expect(findings).toEqual([{ path: "components.responses.Unauthorized", message: expect.stringContaining("A 4xx response must have a body") }]);
  });
});

describe("job status", () => {
  it("is the schema component with x-terminal-values", () => {
    expect(jobStatusComponent(golden())).toBe("#/components/schemas/JobStatus");
  });

  it("is reported missing when no schema lists terminal values", () => {
    expect(run(CHECKS["poll-status"], [{ op: "remove", path: "/components/schemas/JobStatus/x-terminal-values" }])).toEqual([
      { path: "components.schemas", message: expect.stringContaining("No job-status enum") },
    ]);
  });
});

describe("descriptions", () => {
  it("asks for a description of an enum that is not a property", () => {
    const findings = run(CHECKS.descriptions, [{ op: "add", path: "/components/schemas/ImageJob/properties/images/items/enum", value: ["a"] }, { op: "remove", path: "/components/schemas/ImageJob/properties/images/items/description" }]);
    expect(findings).toEqual([{ path: "components.schemas.ImageJob.properties.images.items", message: expect.stringMatching(/^Enum has no description/) }]);
  });

  it("asks for one on a property that an applicator branch declares and nothing else describes", () => {
    const findings = run(CHECKS.descriptions, [{ op: "add", path: `${REQUEST}/then/properties/seed`, value: { type: "integer" } }]);
    expect(findings).toEqual([{ path: expect.stringMatching(/schema\.then\.properties\.seed$/), message: expect.stringContaining('Property "seed" has no description') }]);
  });
});

describe("schemas compile", () => {
  it("points at the component when the schemas do not even load", () => {
    const findings = run(CHECKS["schemas-compile"], [{ op: "replace", path: "/components/schemas/ImageJob/type", value: 12 }]);
    expect(findings).toEqual([{ path: "components.schemas.ImageJob.type", message: expect.stringContaining("do not load under JSON Schema 2020-12") }]);
  });
});

describe("extensions", () => {
  it("does not mistake property names, header names or example data for extensions", () => {
    expect(
      run(CHECKS.extensions, [
        { op: "add", path: `${REQUEST}/properties/x-tag`, value: { type: "string", description: "A field named like an extension." } },
        { op: "add", path: `${CREATE}/requestBody/content/application~1json/examples/text-to-image/value/x-tag`, value: "data" },
      ]),
    ).toEqual([]);
  });

  it("are all used by the golden document, so the whole ruleset is shown to accept each one", () => {
    const text = JSON.stringify(golden());
    expect(EXTENSION_NAMES.filter((name) => !text.includes(`"${name}":`))).toEqual([]);
  });

  it("accept every x-not-shown key and every conditional media limit their definitions list", () => {
    const keys = extensions.$defs["x-not-shown"].propertyNames.enum;
    const limits = extensions.$defs["x-media"].properties.conditionalLimits.items.properties.limits.properties;
    const values: Record<string, unknown> = { maxDurationSeconds: 10, formats: ["png"] };
    expect(Object.keys(limits).filter((limit) => !(limit in values))).toEqual([]);
    const patch: PatchOperation[] = [
      { op: "add", path: "/paths/~1v1~1images~1{id}/get/x-not-shown", value: Object.fromEntries(keys.map((key) => [key, `The ${key} is not shown.`])) },
      ...Object.keys(limits).map((limit): PatchOperation => ({ op: "add", path: `${REQUEST}/properties/reference_images/x-media/conditionalLimits/-`, value: { when: { field: "size", equals: "2K" }, limits: { [limit]: values[limit] } } })),
    ];
    expect(run(CHECKS.extensions, patch)).toEqual([]);
    expect(run(CHECKS.extensions, [{ op: "add", path: "/paths/~1v1~1images~1{id}/get/x-not-shown/no-such-key", value: "A key outside the vocabulary." }])).toEqual([
      { path: "paths./v1/images/{id}.get.x-not-shown", message: expect.stringContaining("Malformed x-not-shown: x-not-shown must be equal to one of the allowed values") },
    ]);
  });

  it("checks extensions inside schemas too", () => {
    expect(run(CHECKS.extensions, [{ op: "add", path: "/components/schemas/ImageJob/x-model-label", value: "lower-case" }])).toEqual([
      { path: "components.schemas.ImageJob.x-model-label", message: expect.stringContaining('Malformed x-model-label: x-model-label must match pattern "^[A-Z]{1,3}-[A-Z]$"') },
    ]);
  });
});

describe("enum extensions", () => {
  it("reports x-enumDescriptions away from an enum", () => {
    expect(run(CHECKS["enum-extensions"], [{ op: "remove", path: `${REQUEST}/properties/size/enum` }])).toEqual([
      { path: expect.stringMatching(/properties\.size$/), message: expect.stringContaining("x-enumDescriptions sits on a schema without enum") },
    ]);
  });
});

describe("too many requests", () => {
  it("asks each 429 variant for a boolean x-retry-after, wherever the variant is defined", () => {
    expect(run(CHECKS["too-many-requests"], [{ op: "replace", path: "/components/schemas/RateLimitedError/x-retry-after", value: "yes" }])).toEqual([
      { path: "components.schemas.RateLimitedError", message: expect.stringContaining("does not say whether it sends Retry-After") },
    ]);
    const inline = structuredClone(golden().components.schemas?.CooldownError);
    delete inline?.["x-retry-after"];
    expect(run(CHECKS["too-many-requests"], [{ op: "replace", path: "/components/schemas/TooManyRequestsBody/anyOf/1", value: inline }])).toEqual([
      { path: "components.schemas.TooManyRequestsBody.anyOf.1", message: expect.stringContaining("The 429 variant #1 does not say whether it sends Retry-After") },
    ]);
  });

  it("reports a shared 429 body that is not a union of variants", () => {
    const findings = run(CHECKS["too-many-requests"], [{ op: "replace", path: "/components/responses/TooManyRequests/content/application~1json/schema", value: { $ref: "#/components/schemas/ErrorBody" } }]);
    expect(findings).toEqual([{ path: "components.responses.TooManyRequests.content.application/json.schema", message: expect.stringContaining("is not a union") }]);
  });
});

describe("document helpers", () => {
  it("unescapes JSON pointers", () => {
    expect(pointerPath("#/paths/~1v1~1images~1{id}/get")).toEqual(["paths", "/v1/images/{id}", "get"]);
  });

  it("follows chains of references to the definition, and gives up on a broken one", () => {
    const doc: OpenApiDocument = applyPatch(golden(), [{ op: "add", path: "/components/responses/Alias", value: { $ref: "#/components/responses/Forbidden" } }]);
    expect(follow(doc, { $ref: "#/components/responses/Alias" }, ["x"])?.path).toEqual(["components", "responses", "Forbidden"]);
    expect(follow(doc, { $ref: "#/components/responses/Nope" }, ["x"])).toBeUndefined();
  });

  it("marks schemas inside applicator branches", () => {
    const nodes = [...subschemas({ properties: { a: { type: "string" } }, if: { properties: { b: { const: 1 } } } }, [])];
    expect(nodes.map(({ path, inBranch }) => [path.join("."), inBranch])).toEqual([
      ["", false],
      ["if", true],
      ["if.properties.b", true],
      ["properties.a", false],
    ]);
  });
});

describe("pricing fields", () => {
  it.each([
    [{ enum: ["1K", 2] }, ["1K", "2"]],
    [{ const: true }, ["true"]],
    [{ type: "boolean" }, ["true", "false"]],
    [{ type: "integer" }, undefined],
  ])("a field %j takes the table keys %j", (schema, keys) => {
    expect(tableKeys(schema)).toEqual(keys);
  });

  it("knows per, when and nested rate-table fields, and query parameters", () => {
    const pricing = `${CREATE}/x-pricing/components/0`;
    const findings = run(CHECKS["pricing-fields"], [
      { op: "replace", path: `${pricing}/rateBy`, value: { fields: ["size", "prompt"], table: { "1K": { any: 1 }, "3K": { any: 2 } } } },
      { op: "add", path: `${pricing}/per`, value: { mediaSeconds: "reference_videos" } },
      { op: "add", path: `${pricing}/when`, value: [{ field: "size", equals: "1K" }, { field: "quality", equals: "low" }] },
      { op: "add", path: "/paths/~1v1~1images~1{id}/get/x-pricing", value: { charged: "per-request", components: [{ label: "search", rate: 10, when: [{ field: "id", present: true }, { field: "query", present: true }] }] } },
      { op: "add", path: "/paths/~1v1~1images~1{id}/get/parameters/-", value: { name: "query", in: "query", schema: { type: "string" } } },
    ]);
    expect(findings.map(({ message }) => message.split(": ")[1])).toEqual([
      'x-pricing refers to the field "reference_videos", which the request does not declare',
      'x-pricing refers to the field "quality", which the request does not declare',
      'the rate table has the key "3K", which is not a value of size (1K, 2K)',
      'x-pricing refers to the field "id", which the request does not declare',
    ]);
  });
});

describe("too many requests with a broken variant", () => {
  it("leaves a variant that does not compile to the schemas-compile rule", () => {
    const patch: PatchOperation[] = [{ op: "add", path: "/components/schemas/CooldownError/maxItem", value: 1 }];
    expect(run(CHECKS["too-many-requests"], patch)).toEqual([]);
    expect(run(CHECKS["schemas-compile"], patch)).toEqual([{ path: "components.schemas.CooldownError", message: expect.stringContaining('unknown keyword: "maxItem"') }]);
  });
});
