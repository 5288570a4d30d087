import { describe, expect, it } from "vitest";
import { I_A_REQUEST, describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule, { mediaKindOfProperty } from "./check.ts";

describeHouseRule("media-fields", rule);

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
    const notShown = {
      op: "add",
      path: `${I_A_REQUEST}/properties/reference_images/x-not-shown`,
      value: { "input-forms": "The input forms are not shown." },
    } as const;
    expect(
      findings(rule.check, [
        { op: "remove", path: `${I_A_REQUEST}/properties/reference_images/x-media/forms` },
        notShown,
      ]),
    ).toEqual([]);
    expect(findings(rule.check, [notShown])).toEqual([
      {
        path: expect.stringMatching(/reference_images\.x-not-shown\.input-forms$/),
        message: expect.stringContaining("has both x-media.forms and x-not-shown.input-forms"),
      },
    ]);
  });
});

describe("media fields taking URLs only", () => {
  const items = `${I_A_REQUEST}/properties/reference_images/items`;
  const urlOnly = {
    op: "replace",
    path: `${I_A_REQUEST}/properties/reference_images/x-media/forms`,
    value: ["public-url", "uploaded-file-url"],
  } as const;
  const refersToMediaUrl = {
    op: "add",
    path: `${items}/allOf`,
    value: [{ $ref: "#/components/schemas/MediaUrl" }],
  } as const;

  it("refer to MediaUrl, which refuses inline media in standard keywords", () => {
    expect(findings(rule.check, [urlOnly, refersToMediaUrl])).toEqual([]);
  });

  it("a field taking an inline form does not refer to MediaUrl", () => {
    expect(findings(rule.check, [refersToMediaUrl])).toEqual([
      {
        path: expect.stringMatching(/reference_images\.items$/),
        message:
          'Media field "reference_images" refers to MediaUrl, which refuses inline media, but its x-media.forms takes an inline form: remove the reference, or the inline forms.',
      },
    ]);
  });
});
