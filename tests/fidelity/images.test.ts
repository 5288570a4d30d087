import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../model/document.ts";
import { operation, property, requestSchema } from "../support/description.ts";
import {
  accepts,
  declared,
  exampleUrls as images,
  FOUR_FORMS,
  missing,
  outOfRange,
  outsideEnum,
  rejects,
  requestProperties as properties,
  tooManyItems,
  unknownField,
  wrongTypes,
  type Body,
} from "../support/fidelity.ts";

/** Facts of the seed's "Image creation" section, checked against the bundled description. */

const IMAGE_URL = "https://files.example.com/input.png";

// Aspect ratios of I-A; other variants' lists are compared against it only by value.
const I_A_RATIOS = [
  "auto",
  "1:1",
  "16:9",
  "9:16",
  "4:3",
  "3:4",
  "3:2",
  "2:3",
  "5:4",
  "4:5",
  "2:1",
  "1:2",
  "21:9",
  "9:21",
];
const FIVE_SIZES = ["768px", "1K", "1.5K", "2K", "4K"];

interface SeedFacts {
  properties: string[];
  required?: string[];
  closed: boolean;
  defaults: Record<string, unknown>;
  enums: Record<string, unknown[]>;
  minimum: Record<string, number>;
  maximum: Record<string, number>;
  minItems?: Record<string, number>;
  maxItems: Record<string, number>;
  /** Media fields and their input forms; null where the seed does not state them. */
  media: Record<string, string[] | null>;
  /** Standard price components, or undefined where the seed shows no price. */
  pricing?: unknown[];
  impliedNames?: string[];
}

/** Asserts the schema declares exactly the seed's facts: nothing missing, nothing invented. */
function declaresSeedFacts(path: string, facts: SeedFacts): void {
  it("has exactly the seed's fields, requiredness and closedness", () => {
    const schema = requestSchema(path);
    expect(Object.keys(properties(path)).sort()).toEqual([...facts.properties].sort());
    expect(schema.required).toEqual(facts.required);
    if (facts.closed) {
      expect(schema.additionalProperties).toBe(false);
    } else {
      expect(schema.additionalProperties).toBeUndefined();
      expect((schema["x-not-shown"] as Body)["request-fields"]).toEqual(expect.any(String));
    }
    // The seed states requiredness for no field, or for prompt only: the rest is marked not shown.
    expect((schema["x-not-shown"] as Body).requiredness).toEqual(expect.any(String));
  });

  it("declares exactly the seed's defaults", () => {
    expect(declared(path, "default")).toEqual(facts.defaults);
  });

  it("declares exactly the seed's enums, each value described where it has its own meaning", () => {
    expect(declared(path, "enum")).toEqual(facts.enums);
    for (const [name, schema] of Object.entries(properties(path))) {
      expect(schema.description, `${name} has no description`).toEqual(expect.stringMatching(/\w{3}/));
    }
  });

  it("declares exactly the seed's ranges and item limits", () => {
    expect(declared(path, "minimum")).toEqual(facts.minimum);
    expect(declared(path, "maximum")).toEqual(facts.maximum);
    expect(declared(path, "minItems")).toEqual(facts.minItems ?? {});
    expect(declared(path, "maxItems")).toEqual(facts.maxItems);
  });

  it("marks every media field with x-media and the seed's input forms", () => {
    const media = declared(path, "x-media") as Record<string, { kind: string; forms?: string[] }>;
    expect(Object.keys(media).sort()).toEqual(Object.keys(facts.media).sort());
    for (const [name, forms] of Object.entries(facts.media)) {
      expect(media[name]?.kind).toBe("image");
      expect(media[name]?.forms).toEqual(forms ?? undefined);
      if (forms === null)
        expect((properties(path)[name]!["x-not-shown"] as Body)["input-forms"]).toEqual(expect.any(String));
    }
  });

  it("marks exactly the implied names", () => {
    expect(Object.keys(declared(path, "x-implied-name")).sort()).toEqual([...(facts.impliedNames ?? [])].sort());
  });

  it(facts.pricing ? "prices exactly as the seed" : "marks the price as not shown", () => {
    const op = operation(path);
    if (facts.pricing) {
      expect(op["x-pricing"]).toMatchObject({ charged: "on-success" });
      expect((op["x-pricing"] as { components: unknown[] }).components).toEqual(facts.pricing);
    } else {
      expect(op["x-pricing"]).toBeUndefined();
      expect((op["x-not-shown"] as Body).price).toEqual(expect.any(String));
    }
  });
}

const perImage = { per: { field: "num_images" } };

describe("I-A: POST /v1/images/i-a", () => {
  const path = "/v1/images/i-a";
  const base = { prompt: "a lighthouse" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "num_images", "reference_images", "size"],
    required: ["prompt"],
    closed: true,
    defaults: { aspect_ratio: "auto", num_images: 1, size: "1K" },
    enums: { aspect_ratio: I_A_RATIOS, size: FIVE_SIZES },
    minimum: { num_images: 1 },
    maximum: { num_images: 4 },
    maxItems: { reference_images: 10 },
    media: { reference_images: FOUR_FORMS },
    pricing: [
      {
        label: "output image",
        rateBy: { fields: ["size"], table: { "768px": 11, "1K": 12, "1.5K": 15, "2K": 19, "4K": 48 } },
        ...perImage,
      },
    ],
  });
  accepts(path, {
    "a prompt alone": base,
    "every field at its limits": {
      ...base,
      aspect_ratio: "9:21",
      num_images: 4,
      reference_images: images(10),
      size: "4K",
    },
  });
  rejects(path, [
    missing(base, "prompt"),
    ...outsideEnum(base, "aspect_ratio", ["match_input_image", "4:1", "adaptive"]),
    ...outsideEnum(base, "size", ["1MP", "3K", "1k"]),
    ...outOfRange(base, "num_images", 1, 4),
    tooManyItems(base, "reference_images", 10),
    ...wrongTypes(base, { prompt: 42, num_images: 1.5, reference_images: IMAGE_URL }),
    unknownField(base),
  ]);

  it("states that 4K comes back as JPEG and smaller sizes as PNG", () => {
    expect(operation(path).description).toContain("4K is returned as JPEG, smaller sizes as PNG");
    expect(property(path, "size").description).toContain("4K is returned as JPEG, smaller sizes as PNG");
  });
});

describe("I-B: POST /v1/images/i-b", () => {
  const path = "/v1/images/i-b";
  const base = { prompt: "a paper boat" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "image", "num_images", "quality", "size"],
    closed: true,
    defaults: {},
    enums: {
      aspect_ratio: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "2:1", "1:2", "auto"],
      quality: ["low", "medium"],
      size: ["1K", "2K"],
    },
    minimum: { num_images: 1 },
    maximum: { num_images: 1 },
    maxItems: {},
    media: { image: FOUR_FORMS },
    pricing: [
      {
        label: "output image",
        rateBy: {
          fields: ["quality", "size"],
          table: { low: { "1K": 50, "2K": 80 }, medium: { "1K": 80, "2K": 100 } },
        },
        ...perImage,
      },
    ],
  });
  it("describes the repeated-failure cooldown of its model family", () => {
    expect(operation(path).description).toMatch(
      /cooldown[\s\S]*three consecutive failed generations within an hour[\s\S]*ten minutes/,
    );
  });
  accepts(path, {
    "an empty body (no field is stated as required)": {},
    "a single-image edit with aspect_ratio, which is ignored and not rejected": {
      ...base,
      image: IMAGE_URL,
      aspect_ratio: "16:9",
      num_images: 1,
      quality: "medium",
      size: "2K",
    },
  });
  rejects(path, [
    ...outsideEnum(base, "aspect_ratio", ["21:9", "5:4", "match_input_image"]),
    ...outsideEnum(base, "quality", ["high", "standard"]),
    ...outsideEnum(base, "size", ["768px", "4K", "1.5K"]),
    ...outOfRange(base, "num_images", 1, 1),
    ...wrongTypes(base, { image: images(1), num_images: "1", prompt: null }),
    unknownField(base),
    {
      rule: "reference_images is not an I-B field (one input image only)",
      body: { ...base, reference_images: images(1) },
      keyword: "additionalProperties",
    },
  ]);
});

describe("I-C: POST /v1/images/i-c", () => {
  const path = "/v1/images/i-c";
  const base = { prompt: "a tiny greenhouse" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "background", "num_images", "reference_images", "size"],
    closed: true,
    defaults: {},
    enums: {
      aspect_ratio: ["1:1", "4:3", "3:4", "16:9", "9:16", "2:3", "3:2", "21:9", "9:21"],
      background: ["opaque", "transparent"],
      size: ["1K", "2K"],
    },
    minimum: { num_images: 1 },
    maximum: { num_images: 4 },
    maxItems: { reference_images: 10 },
    media: { reference_images: FOUR_FORMS },
    pricing: [{ label: "output image", rate: 25, ...perImage }],
  });
  it("describes the transparent-background rule where it is enforced", () => {
    const rule = (requestSchema(path).allOf as JsonSchema[])[0]!;
    expect(rule.description).toMatch(/`transparent` needs exactly one input image/);
    expect(rule.description).toMatch(/must use `opaque`/);
  });
  accepts(path, {
    "an empty body (no field is stated as required)": {},
    "transparent with exactly one input image": { ...base, background: "transparent", reference_images: images(1) },
    "opaque multi-reference at the limits": {
      ...base,
      background: "opaque",
      reference_images: images(10),
      num_images: 4,
      size: "2K",
      aspect_ratio: "9:21",
    },
    "opaque text-to-image": { ...base, background: "opaque" },
  });
  rejects(path, [
    ...outsideEnum(base, "aspect_ratio", ["auto", "2:1", "5:4"]),
    ...outsideEnum(base, "background", ["white", "alpha"]),
    ...outsideEnum(base, "size", ["768px", "4K", "1.5K"]),
    ...outOfRange(base, "num_images", 1, 4),
    tooManyItems(base, "reference_images", 10),
    ...wrongTypes(base, { num_images: 2.5, reference_images: [42], background: true }),
    unknownField(base),
    {
      rule: "transparent on text-to-image (needs exactly one input image)",
      body: { ...base, background: "transparent" },
      keyword: "if",
    },
    {
      rule: "transparent with an empty reference list",
      body: { ...base, background: "transparent", reference_images: [] },
      keyword: "minItems",
    },
    {
      rule: "transparent on a multi-reference request",
      body: { ...base, background: "transparent", reference_images: images(2) },
      keyword: "if",
    },
  ]);
});

describe("I-D: POST /v1/images/i-d", () => {
  const path = "/v1/images/i-d";
  const base = { prompt: "place the lamp from image 2 in image 1", reference_images: images(2) };
  declaresSeedFacts(path, {
    properties: ["prompt", "reference_images", "aspect_ratio", "num_images", "seed"],
    closed: true,
    defaults: { aspect_ratio: "match_input_image" },
    enums: { aspect_ratio: ["match_input_image", "1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"] },
    minimum: { num_images: 1 },
    maximum: { num_images: 1 },
    minItems: { reference_images: 1 },
    maxItems: { reference_images: 3 },
    media: { reference_images: FOUR_FORMS },
  });
  accepts(path, {
    "a prompt and one reference": { prompt: "make image 1 autumnal", reference_images: images(1) },
    "every field, three references": {
      ...base,
      reference_images: images(3),
      aspect_ratio: "2:3",
      num_images: 1,
      seed: -3,
    },
  });
  rejects(path, [
    { rule: "reference_images with no item (1 to 3)", body: { ...base, reference_images: [] }, keyword: "minItems" },
    tooManyItems(base, "reference_images", 3),
    ...outsideEnum(base, "aspect_ratio", ["auto", "21:9", "4:5"]),
    ...outOfRange(base, "num_images", 1, 1),
    ...wrongTypes(base, { seed: 1.5, prompt: ["a"], reference_images: IMAGE_URL }),
    unknownField(base),
  ]);
});

describe("I-E: POST /v1/images/i-e", () => {
  const path = "/v1/images/i-e";
  const base = { prompt: "a reading nook" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "num_images", "reference_images"],
    closed: true,
    defaults: {},
    enums: {
      aspect_ratio: [
        "1:1",
        "2:3",
        "3:2",
        "3:4",
        "4:3",
        "4:5",
        "5:4",
        "9:16",
        "16:9",
        "21:9",
        "1:4",
        "4:1",
        "1:8",
        "8:1",
      ],
    },
    minimum: { num_images: 1 },
    maximum: { num_images: 4 },
    maxItems: { reference_images: 14 },
    media: { reference_images: FOUR_FORMS },
    pricing: [{ label: "output image", rate: 40, ...perImage }],
  });
  accepts(path, {
    "an empty body (no field is stated as required)": {},
    "every field at its limits": { ...base, aspect_ratio: "1:8", num_images: 4, reference_images: images(14) },
  });
  rejects(path, [
    ...outsideEnum(base, "aspect_ratio", ["auto", "9:21", "2:1", "1:16"]),
    ...outOfRange(base, "num_images", 1, 4),
    tooManyItems(base, "reference_images", 14),
    ...wrongTypes(base, { num_images: "2", reference_images: [{ url: IMAGE_URL }] }),
    {
      rule: "size is not an I-E field (fixed 1K output)",
      body: { ...base, size: "1K" },
      keyword: "additionalProperties",
    },
  ]);
});

describe("I-F: POST /v1/images/i-f", () => {
  const path = "/v1/images/i-f";
  const base = { prompt: "a neon sign" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "num_images", "seed"],
    closed: true,
    defaults: {},
    enums: { aspect_ratio: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"] },
    minimum: { num_images: 1 },
    maximum: { num_images: 1 },
    maxItems: {},
    media: {},
  });
  accepts(path, {
    "an empty body (no field is stated as required)": {},
    "every field": { ...base, aspect_ratio: "3:4", num_images: 1, seed: 7 },
  });
  rejects(path, [
    ...outsideEnum(base, "aspect_ratio", ["21:9", "auto", "match_input_image"]),
    ...outOfRange(base, "num_images", 1, 1),
    ...wrongTypes(base, { seed: "7", prompt: 1 }),
    {
      rule: "reference_images is not an I-F field (text-to-image only)",
      body: { ...base, reference_images: images(1) },
      keyword: "additionalProperties",
    },
  ]);
});

describe("I-G: POST /v1/images/i-g", () => {
  const path = "/v1/images/i-g";
  const base = { prompt: "a red fox" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "max_images", "num_images", "sequential_image_generation", "size"],
    required: ["prompt"],
    closed: true,
    defaults: {
      aspect_ratio: "1:1",
      max_images: 1,
      num_images: 1,
      sequential_image_generation: "disabled",
      size: "2K",
    },
    enums: {
      aspect_ratio: ["1:1", "4:3", "3:4", "16:9", "9:16", "2:3", "3:2", "21:9", "9:21"],
      sequential_image_generation: ["disabled", "auto"],
      size: ["2K", "4K"],
    },
    minimum: { max_images: 1, num_images: 1 },
    maximum: { max_images: 4, num_images: 4 },
    maxItems: {},
    media: {},
  });
  it("answers with the legacy create response", () => {
    expect(operation(path).responses["200"]?.$ref).toBe("#/components/responses/LegacyImageJobAccepted");
  });
  accepts(path, {
    "a prompt alone": base,
    "a sequence with every field": {
      ...base,
      aspect_ratio: "9:21",
      max_images: 4,
      num_images: 4,
      sequential_image_generation: "auto",
      size: "4K",
    },
    "max_images while sequential generation is disabled (a maximum, not a rejection rule)": { ...base, max_images: 3 },
  });
  rejects(path, [
    missing(base, "prompt"),
    ...outsideEnum(base, "aspect_ratio", ["auto", "5:4"]),
    ...outsideEnum(base, "sequential_image_generation", ["enabled", "on", true]),
    ...outsideEnum(base, "size", ["1K", "1MP", "8K"]),
    ...outOfRange(base, "max_images", 1, 4),
    ...outOfRange(base, "num_images", 1, 4),
    ...wrongTypes(base, { max_images: 2.5, prompt: 0 }),
    unknownField(base),
  ]);
});

describe("I-H: POST /v1/images/i-h", () => {
  const path = "/v1/images/i-h";
  const base = { prompt: "a bowl of ramen" };
  declaresSeedFacts(path, {
    properties: ["prompt", "aspect_ratio", "num_images", "seed", "size"],
    required: ["prompt"],
    closed: true,
    defaults: { aspect_ratio: "1:1", num_images: 1, size: "1MP" },
    enums: { aspect_ratio: ["1:1", "4:3", "3:4", "9:16", "16:9", "2:3", "3:2"], size: ["0.5MP", "1MP", "2MP", "4MP"] },
    minimum: { num_images: 1 },
    maximum: { num_images: 4 },
    maxItems: {},
    media: {},
  });
  accepts(path, {
    "a prompt alone": base,
    "every field": { ...base, aspect_ratio: "2:3", num_images: 4, seed: 0, size: "0.5MP" },
  });
  rejects(path, [
    missing(base, "prompt"),
    ...outsideEnum(base, "aspect_ratio", ["21:9", "auto"]),
    ...outsideEnum(base, "size", ["1K", "8MP", "0.25MP", 1]),
    ...outOfRange(base, "num_images", 1, 4),
    ...wrongTypes(base, { seed: 1.25, num_images: "4" }),
    unknownField(base),
  ]);
});

describe("I-J: POST /v1/images/i-j (partly described)", () => {
  const path = "/v1/images/i-j";
  const base = { prompt: "an infographic" };
  declaresSeedFacts(path, {
    properties: ["prompt", "grounding", "num_images", "reference_images", "size"],
    closed: false,
    defaults: { grounding: true },
    enums: { size: FIVE_SIZES },
    minimum: { num_images: 1 },
    maximum: { num_images: 4 },
    maxItems: { reference_images: 10 },
    media: { reference_images: null },
    impliedNames: ["prompt", "num_images", "reference_images", "size"],
    pricing: [
      {
        label: "output image",
        rateBy: { fields: ["size"], table: { "768px": 55, "1K": 65, "1.5K": 90, "2K": 130, "4K": 790 } },
        ...perImage,
      },
    ],
  });
  accepts(path, {
    "an empty body": {},
    "every known field at its limits": {
      ...base,
      grounding: false,
      num_images: 4,
      reference_images: images(10),
      size: "768px",
    },
    "a field the seed does not show (the schema stays open)": { ...base, some_unshown_field: 1 },
  });
  rejects(path, [
    ...outsideEnum(base, "size", ["0.5MP", "3K", "8K"]),
    ...outOfRange(base, "num_images", 1, 4),
    tooManyItems(base, "reference_images", 10),
    ...wrongTypes(base, { grounding: "yes", num_images: 1.5 }),
  ]);
});

describe("I-K: POST /v1/images/i-k (partly described)", () => {
  const path = "/v1/images/i-k";
  const base = { size: "2K" };
  declaresSeedFacts(path, {
    properties: ["google_search", "image_search", "num_images", "reference_images", "size"],
    closed: false,
    defaults: { google_search: false, image_search: false },
    enums: { size: ["1K", "2K", "4K"] },
    minimum: { num_images: 1 },
    maximum: { num_images: 4 },
    maxItems: { reference_images: 9 },
    media: { reference_images: null },
    impliedNames: ["num_images", "reference_images", "size"],
    pricing: [
      { label: "output image", rateBy: { fields: ["size"], table: { "1K": 45, "2K": 70, "4K": 150 } }, ...perImage },
      { label: "google search", rate: 10, ...perImage, when: [{ field: "google_search", equals: true }] },
      // 20 in total per request: no `per`, with or without google_search.
      { label: "image search", rate: 20, when: [{ field: "image_search", equals: true }] },
    ],
  });
  accepts(path, {
    "an empty body": {},
    "every known field at its limits": {
      ...base,
      google_search: true,
      image_search: true,
      num_images: 4,
      reference_images: images(9),
    },
    "a field the seed does not show (the schema stays open)": { ...base, prompt: "a style study" },
  });
  rejects(path, [
    ...outsideEnum(base, "size", ["768px", "1.5K", "1MP"]),
    ...outOfRange(base, "num_images", 1, 4),
    tooManyItems(base, "reference_images", 9),
    ...wrongTypes(base, { google_search: 1, image_search: "false", reference_images: IMAGE_URL }),
  ]);
});
