import { describe, expect, it } from "vitest";
import { I_A_CREATE, I_A_PATH, describeHouseRule, findings, type PatchOperation } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("paths", rule);

describe("paths with a slug map (MEDIA_SLUG_MAP)", () => {
  const moved: PatchOperation[] = [{ op: "move", from: I_A_PATH, path: "/paths/~1v1~1images~1real-slug" }];

  it("accepts the mapped real slug", () => {
    expect(findings(rule.check, moved, { slugMap: { "i-a": "real-slug" } })).toEqual([]);
  });

  it("expects the mapped slug, not the placeholder, once a map is given", () => {
    expect(findings(rule.check, [], { slugMap: { "i-a": "real-slug" } })).toEqual([
      expect.objectContaining({
        path: "paths./v1/images/i-a.post",
        message: expect.stringContaining("must be at /v1/images/real-slug"),
      }),
    ]);
  });

  it("rejects a real slug that no map names", () => {
    expect(findings(rule.check, moved)).toEqual([
      expect.objectContaining({ message: expect.stringContaining("must be at /v1/images/i-a") }),
    ]);
  });
});

describe("areas of routes (the tags' x-area)", () => {
  it("rejects a label whose prefix is not its tag's area's", () => {
    expect(findings(rule.check, [{ op: "replace", path: `${I_A_CREATE}/x-model-label`, value: "Q-A" }])).toEqual([
      {
        path: "paths./v1/images/i-a.post.x-model-label",
        message: expect.stringContaining(
          'x-model-label "Q-A" does not start with I-, the label prefix of its tag Images (x-area)',
        ),
      },
    ]);
  });

  it("rejects a create route that carries no area's tag", () => {
    expect(
      findings(rule.check, [
        { op: "add", path: "/tags/-", value: { name: "Misc", description: "Other routes." } },
        { op: "replace", path: `${I_A_CREATE}/tags`, value: ["Misc"] },
      ]),
    ).toEqual([
      {
        path: "paths./v1/images/i-a.post",
        message: expect.stringContaining(
          "POST /v1/images/i-a is a create route but carries no area's tag: set its tag to one of Images",
        ),
      },
    ]);
  });

  it("reads segment and label prefix from x-area, not from a table", () => {
    const renamed: PatchOperation[] = [
      { op: "replace", path: "/tags/0/x-area", value: { name: "Image", labelPrefix: "I", segment: "pictures" } },
      { op: "move", from: I_A_PATH, path: "/paths/~1v1~1pictures~1i-a" },
      { op: "move", from: "/paths/~1v1~1images~1{id}", path: "/paths/~1v1~1pictures~1{id}" },
    ];
    expect(findings(rule.check, renamed)).toEqual([]);
    expect(findings(rule.check, renamed.slice(0, 2))).toEqual([
      {
        path: "paths./v1/images/{id}.get",
        message:
          "GET /v1/images/{id} polls the jobs of Images but is not GET /v1/pictures/{id}, the poll route of its tag's x-area: rename it.",
      },
    ]);
  });

  it("asks each area for exactly one poll route, at the area's tag", () => {
    const second: PatchOperation = {
      op: "add",
      path: "/paths/~1v1~1images~1{job}",
      value: { get: { tags: ["Images"], responses: {} } },
    };
    expect(findings(rule.check, [second]).map(({ path, message }) => [path, message.split(":")[0]])).toEqual([
      [
        "paths./v1/images/{job}.get",
        "GET /v1/images/{job} polls the jobs of Images but is not GET /v1/images/{id}, the poll route of its tag's x-area",
      ],
      ["tags.0", "Area Images has 2 poll routes (/v1/images/{id}, /v1/images/{job})"],
    ]);
    expect(findings(rule.check, [{ op: "remove", path: "/paths/~1v1~1images~1{id}" }])).toEqual([
      {
        path: "tags.0",
        message: expect.stringMatching(
          /^Area Images has no poll route: keep exactly one, GET \/v1\/images\/\{id\} tagged Images/,
        ),
      },
    ]);
  });

  it("tells areas apart by name, label prefix and segment", () => {
    const twin: PatchOperation = {
      op: "add",
      path: "/tags/-",
      value: {
        name: "Pictures",
        description: "Pictures.",
        "x-area": { name: "Picture", labelPrefix: "I", segment: "images" },
      },
    };
    expect(findings(rule.check, [twin]).map(({ path, message }) => [path, message.split(":")[0]])).toEqual([
      ["tags.2.x-area.labelPrefix", "Tags Images and Pictures both have x-area.labelPrefix I"],
      ["tags.2.x-area.segment", "Tags Images and Pictures both have x-area.segment images"],
      ["tags.2", "Area Pictures has no poll route"],
    ]);
  });
});
