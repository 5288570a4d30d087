/**
 * The near-miss negatives of a request schema (contract/bodies/near-misses.ts), kind by kind, on a
 * small area of three create routes: each a valid body with one field (or the fields of one
 * cross-field rule) changed the way a server one mistake away would wrongly accept, and a rule
 * for reports saying what it sends and why that is wrong (`field value (why)`).
 */
import { describe, expect, it } from "vitest";
import { type BodyOperation, type NearMiss, nearMisses } from "../../contract/bodies/near-misses.ts";
import { sample } from "../../contract/bodies/values.ts";
import type { JsonSchema } from "../../model/document.ts";
import { registry } from "../support/description.ts";

const URL_ONLY = { kind: "video", forms: ["public-url"] };

/** I-A's request: a field of each kind of bound, lists, media, and cross-field rules of each shape. */
const requestA: JsonSchema = {
  type: "object",
  required: ["prompt"],
  properties: {
    prompt: { type: "string", minLength: 2, maxLength: 10 },
    size: { type: "string", enum: ["1K", "auto", "AUTO"] },
    num_images: { type: "integer", minimum: 1, maximum: 4 },
    steps: { type: "integer", maximum: 50 },
    count: { type: "integer", minimum: 2 },
    strength: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    style: { type: "string" },
    reference_images: { type: "array", minItems: 1, maxItems: 3, items: { type: "string" } },
    seeds: { type: "array", maxItems: 2, items: { type: "integer" } },
    pair: { type: "array", minItems: 2, items: { type: "string" } },
    options: { type: "object" },
    flag: { type: "boolean" },
    version: { const: "v2" },
    image: { type: "string" },
    video: { type: "string", "x-media": URL_ONLY },
    mask: { type: "string", "x-media": { kind: "image", forms: ["public-url", "data-uri"] } },
    audio: { type: "string", "x-media": { kind: "audio" } },
    resolution: { type: "string", enum: ["1k", "2k", "4k"] },
    aspect_ratio: { type: "string", enum: ["1:1", "adaptive"] },
    generate_audio: { type: "boolean" },
  },
  allOf: [
    {
      description: "image cannot be combined with reference_images.",
      if: { required: ["image"] },
      then: { not: { anyOf: [{ required: ["reference_images"] }] } },
    },
    {
      description: "2k only when extending, with a mask.",
      if: { required: ["resolution"], properties: { resolution: { const: "2k" } } },
      then: { required: ["video", "mask"] },
    },
    {
      description: "2k with an image needs a mask.",
      if: { required: ["resolution", "image"], properties: { resolution: { const: "2k" } } },
      then: { required: ["mask"] },
    },
    {
      description: "a masked image takes no style.",
      if: { required: ["image", "mask"] },
      then: { not: { anyOf: [{ required: ["style"] }] } },
    },
    {
      description: "adaptive needs references.",
      if: { required: ["aspect_ratio"], properties: { aspect_ratio: { const: "adaptive" } } },
      then: { anyOf: [{ required: ["reference_images"] }, { required: ["image"] }] },
    },
    {
      description: "extending: at most 2 images, 1 reference, no 4k, no audio.",
      if: { required: ["video"] },
      then: {
        required: ["prompt"],
        properties: {
          num_images: { maximum: 2 },
          reference_images: { minItems: 1, maxItems: 1 },
          resolution: { not: { const: "4k" } },
          generate_audio: { const: false },
          style: { const: "cinematic" },
        },
      },
    },
    // A rule in a shape the cross-field reader does not know: left to the exact negative cases.
    { description: "an unknown shape.", if: { required: ["seeds"] }, then: { oneOf: [{ required: ["count"] }] } },
  ],
};

/** The area's other models, and a route of another area and a poll route of this one, which are no siblings. */
const operations: BodyOperation[] = [
  { area: "images", route: "POST /v1/images/i-a", create: { label: "I-A" }, requestSchema: requestA },
  {
    area: "images",
    route: "POST /v1/images/i-b",
    create: { label: "I-B" },
    requestSchema: {
      type: "object",
      properties: {
        size: { type: "string", enum: ["1K", "2MP", 512] },
        num_images: { type: "integer", minimum: 1, maximum: 6 },
        steps: { type: "integer", minimum: 10, maximum: 60 },
        count: { type: "integer", minimum: 1 },
        style: { type: "string", enum: ["photo"] },
      },
    },
  },
  {
    area: "images",
    route: "POST /v1/images/i-c",
    create: { label: "I-C" },
    requestSchema: {
      type: "object",
      properties: { size: { type: "string", enum: ["2MP", "4MP"] }, num_images: { minimum: 4, maximum: 8 } },
    },
  },
  {
    area: "videos",
    route: "POST /v1/videos/v-a",
    create: { label: "V-A" },
    requestSchema: { type: "object", properties: { size: { enum: ["720p"] }, num_images: { maximum: 99 } } },
  },
  {
    area: "images",
    route: "GET /v1/images/{id}",
    requestSchema: { type: "object", properties: { size: { enum: ["huge"] } } },
  },
];
const [opA] = operations as [BodyOperation];
const base = { prompt: "a cat" };

/** The near misses of I-A of `kind` on `field`. */
const misses = (kind: string, field: string): NearMiss[] =>
  nearMisses(operations, opA).filter((miss) => miss.kind === kind && miss.fields.at(-1) === field);
const property = (field: string): JsonSchema => (requestA.properties as Record<string, JsonSchema>)[field]!;
const validAgainst = (schema: JsonSchema, value: unknown): boolean => registry.compile(schema)(value) === true;

describe("near misses of a field's own schema", () => {
  it("send one past every bound, saying which: minimum - 1, maximum + 1, an exclusive bound itself, a length one short or long", () => {
    const sent = nearMisses(operations, opA)
      .filter((miss) => miss.kind === "off-by-one" && !miss.rule.includes(" with video"))
      .map((miss) => miss.rule);
    expect(sent).toEqual([
      `prompt "x" (minLength 2 - 1)`,
      `prompt "xxxxxxxxxxx" (maxLength 10 + 1)`,
      "num_images 0 (minimum 1 - 1)",
      "num_images 5 (maximum 4 + 1)",
      "steps 51 (maximum 50 + 1)",
      "count 1 (minimum 2 - 1)",
      "strength 0 (exclusiveMinimum 0)",
      "strength 1 (exclusiveMaximum 1)",
      "reference_images with 0 items (minItems 1 - 1)",
      "pair with 1 item (minItems 2 - 1)",
    ]);
    for (const miss of misses("off-by-one", "num_images").filter((candidate) => !candidate.rule.includes("video")))
      expect(validAgainst(property("num_images"), miss.apply(base).num_images)).toBe(false);
    expect(misses("off-by-one", "prompt").map((miss) => (miss.apply(base).prompt as string).length)).toEqual([1, 11]);
  });

  it("send one item too many: distinct items like the body's, else the schema's, each valid as an item", () => {
    const [tooMany] = misses("one-too-many", "reference_images");
    expect(tooMany?.rule).toBe("reference_images with 4 items (maxItems 3 + 1)");
    const given = tooMany?.apply({ ...base, reference_images: ["https://a/1.png", "https://a/2.png"] })
      .reference_images as string[];
    expect(given.slice(0, 2)).toEqual(["https://a/1.png", "https://a/2.png"]);
    expect(given).toHaveLength(4);
    expect(new Set(given).size).toBe(4);
    expect(given.slice(2).every((item) => item.startsWith("https://a/1.png"))).toBe(true);
    const fromSchema = tooMany?.apply(base).reference_images as string[];
    const item = sample({ type: "string" }) as string;
    expect(fromSchema).toHaveLength(4);
    expect(new Set(fromSchema).size).toBe(4);
    expect(fromSchema.every((entry) => entry.startsWith(item))).toBe(true);
    const [seeds] = misses("one-too-many", "seeds");
    expect(seeds?.rule).toBe("seeds with 3 items (maxItems 2 + 1)");
    const numbers = seeds?.apply({ ...base, seeds: [7] }).seeds as unknown[];
    expect(numbers).toEqual([7, 7, 7]);
    expect(numbers.every((entry) => validAgainst({ type: "integer" }, entry))).toBe(true);
  });

  it("send each enum value in another case, never a value the enum lists", () => {
    expect(misses("case-variant", "size").map((miss) => miss.rule)).toEqual([`size "1k" (a case variant of "1K")`]);
    expect(misses("case-variant", "size")[0]?.apply(base)).toEqual({ ...base, size: "1k" });
  });

  it("send a required field as null, and only a required one", () => {
    const nulls = nearMisses(operations, opA).filter((miss) => miss.kind === "required-null");
    expect(nulls.map((miss) => miss.rule)).toEqual(["prompt null (required, sent as null)"]);
    expect(nulls[0]?.apply({ prompt: "a cat", size: "1K" })).toEqual({ prompt: null, size: "1K" });
  });

  it("send the right value in the wrong JSON type: a number or boolean as its text, a list's first item bare, an object in a list, a numeric text as a number", () => {
    const wrong = (field: string, value: unknown): unknown => {
      const [miss] = misses("wrong-type", field);
      expect(miss?.rule).toBe(`${field} in the wrong JSON type (${JSON.stringify(property(field).type)} expected)`);
      return miss?.apply({ ...base, [field]: value })[field];
    };
    expect(wrong("num_images", 2)).toBe("2");
    expect(wrong("strength", 0.5)).toBe("0.5");
    expect(wrong("flag", true)).toBe("true");
    expect(wrong("reference_images", ["https://a/1.png", "https://a/2.png"])).toBe("https://a/1.png");
    expect(wrong("options", { a: 1 })).toEqual([{ a: 1 }]);
    expect(wrong("style", "12")).toBe(12);
    // A text that is no number is sent as some number.
    expect(typeof wrong("style", "photo")).toBe("number");
    expect(Number.isFinite(wrong("style", "photo"))).toBe(true);
    // Without the field in the body, its schema's sample stands in.
    expect(misses("wrong-type", "num_images")[0]?.apply(base).num_images).toBe("1");
    // A field without a type has no wrong type.
    expect(misses("wrong-type", "version")).toEqual([]);
  });

  it("send a media value inlined in each form its field does not take, and none where the specification states no forms", () => {
    expect(misses("other-form", "video").map((miss) => miss.rule)).toEqual([
      "video as a data-uri (video; takes public-url)",
      "video as a raw-base64 (video; takes public-url)",
    ]);
    expect(misses("other-form", "mask").map((miss) => miss.rule)).toEqual([
      "mask as a raw-base64 (image; takes public-url or data-uri)",
    ]);
    expect(misses("other-form", "audio")).toEqual([]);
  });
});

describe("near misses of sibling models", () => {
  it("send the values other models of the same area allow for the field and this one does not, each once", () => {
    const siblings = nearMisses(operations, opA).filter((miss) => miss.kind === "sibling-value");
    expect(siblings.map((miss) => miss.rule)).toEqual([
      // I-B's and I-C's 2MP once; I-B's 512 is a number where I-A lists strings: a wrong type, not a near miss.
      `size "2MP" (allowed for I-B, not here)`,
      `size "4MP" (allowed for I-C, not here)`,
      // I-B's range ends at 6, I-C's at 8; their 1 and 4 are I-A's own.
      "num_images 6 (allowed for I-B, not here)",
      "num_images 8 (allowed for I-C, not here)",
      // I-A has no lower bound on steps: I-B's 10 is its own, 60 is past its 50.
      "steps 60 (allowed for I-B, not here)",
      // I-B's lowest count, under I-A's 2 (I-B has no upper bound to send).
      "count 1 (allowed for I-B, not here)",
    ]);
    // Another area's values (V-A's 720p, 99) and a route that creates nothing are no siblings; nor is
    // a field I-A leaves open (any style).
    expect(siblings.map((miss) => miss.apply(base))).toContainEqual({ ...base, size: "2MP" });
  });
});

describe("near misses of cross-field rules", () => {
  /** The rules of I-A's near misses of `kind` that a cross-field rule gives (its description quoted). */
  const rules = (kind: string): string[] =>
    nearMisses(operations, opA)
      .filter((miss) => miss.kind === kind && miss.rule.endsWith(".)"))
      .map((miss) => miss.rule);

  it("send two fields a rule says cannot be combined together, the rule's conditions all met", () => {
    const pairs = nearMisses(operations, opA).filter((miss) => miss.kind === "exclusive-pair");
    expect(pairs.map((miss) => [miss.fields, miss.rule])).toEqual([
      [
        ["image", "reference_images"],
        "with image and reference_images together (image cannot be combined with reference_images.)",
      ],
      [["image", "mask", "style"], "with image and with mask and style together (a masked image takes no style.)"],
    ]);
    expect(Object.keys(pairs[1]?.apply(base) ?? {}).sort()).toEqual(["image", "mask", "prompt", "style"]);
    const [pair] = pairs;
    const body = pair?.apply(base) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["image", "prompt", "reference_images"]);
    expect(pair?.apply({ ...base, reference_images: ["https://a/1.png"] }).reference_images).toEqual([
      "https://a/1.png",
    ]);
  });

  it("send a mode's limits one past, the mode's fields set: a maximum, an item count each way", () => {
    const limits = nearMisses(operations, opA)
      .filter((miss) => miss.rule.includes(" with video)"))
      .map((miss) => [miss.kind, miss.rule]);
    expect(limits).toEqual([
      ["off-by-one", "num_images 3 (maximum 2 + 1 with video)"],
      ["off-by-one", "reference_images with 0 items (minItems 1 - 1 with video)"],
      ["one-too-many", "reference_images with 2 items (maxItems 1 + 1 with video)"],
    ]);
    const maximum = nearMisses(operations, opA).find((miss) => miss.rule.startsWith("num_images 3"));
    expect(maximum?.fields).toEqual(["video", "num_images"]);
    expect(maximum?.apply(base)).toEqual({ ...base, video: sample(property("video")), num_images: 3 });
    const items = nearMisses(operations, opA).find((miss) => miss.rule.startsWith("reference_images with 2 items"));
    expect(items?.apply({ ...base, video: "https://a/v.mp4" })).toEqual({
      ...base,
      video: "https://a/v.mp4",
      reference_images: [`${sample({ type: "string" })}?n=0`, `${sample({ type: "string" })}?n=1`],
    });
  });

  it("send a value the schema allows only in another mode: a listed value the mode excludes, a flag it turns off, a value without the fields its mode needs", () => {
    expect(rules("other-mode-value")).toEqual([
      `resolution "2k" without video and mask (2k only when extending, with a mask.)`,
      `aspect_ratio "adaptive" without reference_images or image (adaptive needs references.)`,
      `resolution "4k" with video (extending: at most 2 images, 1 reference, no 4k, no audio.)`,
      "generate_audio true with video (extending: at most 2 images, 1 reference, no 4k, no audio.)",
    ]);
    const misses = nearMisses(operations, opA).filter((miss) => miss.kind === "other-mode-value");
    // A mode's value the schema gives no list of (style "cinematic" when extending) has no other value to send; nor
    // does a rule whose mode is partly a field's presence (2k with an image) send its value without what it needs.
    const sent = { ...base, video: "https://a/v.mp4", image: "https://a/i.png", mask: "https://a/m.png" };
    expect(misses.map((miss) => miss.apply(sent))).toEqual([
      { ...base, image: "https://a/i.png", resolution: "2k" },
      { ...base, video: "https://a/v.mp4", mask: "https://a/m.png", aspect_ratio: "adaptive" },
      { ...sent, resolution: "4k" },
      { ...sent, generate_audio: true },
    ]);
    expect(misses.map((miss) => miss.apply({ ...base, video: "https://a/v.mp4", image: "https://a/i.png" }))).toEqual([
      { ...base, image: "https://a/i.png", resolution: "2k" },
      { ...base, video: "https://a/v.mp4", aspect_ratio: "adaptive" },
      { ...base, video: "https://a/v.mp4", image: "https://a/i.png", resolution: "4k" },
      { ...base, video: "https://a/v.mp4", image: "https://a/i.png", generate_audio: true },
    ]);
    expect(misses.map((miss) => miss.fields)).toEqual([
      ["resolution"],
      ["aspect_ratio"],
      ["video", "resolution"],
      ["video", "generate_audio"],
    ]);
  });

  it("leave a rule whose mode is only a field's presence without a value-needs near miss, and one of an unknown shape to the exact negatives", () => {
    // The extending rule requires prompt with video: a presence, not a value, so nothing to send without it.
    expect(rules("other-mode-value").filter((rule) => rule.includes("without prompt"))).toEqual([]);
    expect(
      nearMisses(operations, opA).filter((miss) => miss.fields.includes("count") && miss.fields.length > 1),
    ).toEqual([]);
  });

  it("are none for an operation without a request schema or without properties", () => {
    expect(nearMisses(operations, { area: "images", route: "POST /v1/images/x" })).toEqual([]);
    expect(
      nearMisses(operations, { area: "images", route: "POST /v1/images/x", requestSchema: { type: "object" } }),
    ).toEqual([]);
  });
});
