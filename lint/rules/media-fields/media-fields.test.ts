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
    // Another unshown fact does not excuse the missing forms.
    expect(
      findings(rule.check, [
        { op: "remove", path: `${I_A_REQUEST}/properties/reference_images/x-media/forms` },
        { ...notShown, value: { "max-files": "The most files are not shown." } },
      ]),
    ).toEqual([
      {
        path: expect.stringMatching(/reference_images\.x-media$/),
        message: expect.stringContaining('Media field "reference_images" does not say which input forms it accepts'),
      },
    ]);
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

  it("refer to MediaUrl among other allOf entries, and no other schema stands in for it", () => {
    const beside = {
      op: "add",
      path: `${items}/allOf`,
      value: [{ format: "uri" }, { $ref: "#/components/schemas/MediaUrl" }],
    } as const;
    expect(findings(rule.check, [urlOnly, beside])).toEqual([]);
    const other = { op: "add", path: `${items}/allOf`, value: [{ $ref: "#/components/schemas/Other" }] } as const;
    expect(findings(rule.check, [urlOnly, other])).toEqual([
      {
        path: expect.stringMatching(/reference_images\.items$/),
        message:
          "Media field \"reference_images\" takes URLs only (x-media.forms) but its items accept a data URI or raw base64: add allOf: [{$ref: '#/components/schemas/MediaUrl'}] to its items, so that any validator refuses inline media.",
      },
    ]);
  });

  it("a single media field taking URLs only refers to MediaUrl itself, not through items", () => {
    const endImage = {
      op: "add",
      path: `${I_A_REQUEST}/properties/end_image`,
      value: { type: "string", "x-media": { kind: "image", forms: ["public-url"] } },
    } as const;
    expect(findings(rule.check, [endImage])).toEqual([
      {
        path: expect.stringMatching(/end_image$/),
        message:
          "Media field \"end_image\" takes URLs only (x-media.forms) but its schema accepts a data URI or raw base64: add allOf: [{$ref: '#/components/schemas/MediaUrl'}], so that any validator refuses inline media.",
      },
    ]);
  });

  it("a field whose forms are not stated does not refer to MediaUrl either", () => {
    expect(
      findings(rule.check, [
        { op: "remove", path: `${I_A_REQUEST}/properties/reference_images/x-media/forms` },
        {
          op: "add",
          path: `${I_A_REQUEST}/properties/reference_images/x-not-shown`,
          value: { "input-forms": "The input forms are not shown." },
        },
        refersToMediaUrl,
      ]),
    ).toEqual([
      {
        path: expect.stringMatching(/reference_images\.items$/),
        message:
          'Media field "reference_images" refers to MediaUrl, which refuses inline media, but its x-media.forms are not stated: remove the reference, or the inline forms.',
      },
    ]);
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
