import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../model/document.ts";
import { operation, requestSchema } from "../support/description.ts";
import {
  accepts,
  declared,
  exampleUrls as urls,
  FOUR_FORMS,
  missing,
  outOfRange,
  outsideEnum,
  rejects,
  requestProperties as properties,
  tooManyItems,
  unknownField,
  URL_FORMS,
  type BadBody,
  type Body,
} from "../support/fidelity.ts";

/**
 * Facts of the seed's "Video creation" section, checked against the bundled description. Each
 * variant is one table of the seed's facts; the generic bad bodies (enums, ranges, item limits,
 * required fields, closedness) are derived from that table, never from the schema under test, and
 * the cross-field rules are listed by hand, one body per rule.
 */

const IMAGE = "https://files.example.com/frame.png";
const END_IMAGE = "https://files.example.com/last.png";
const VIDEO = "https://files.example.com/source.mp4";
const AUDIO = "https://files.example.com/track.mp3";
const SEED = readFileSync(new URL("../../spec/media-service-spec.md", import.meta.url), "utf8");

interface VariantFacts {
  label: string;
  slug: string;
  /** A valid body the generic bad bodies start from. */
  base: Body;
  /** Seed's requiredness; undefined where it states none. */
  required?: string[];
  /** Fully described variants are closed; the others stay open. */
  closed: boolean;
  properties: string[];
  defaults: Body;
  enums: Record<string, string[]>;
  /** Values the seed gives other variants (or none), which this variant must reject. */
  foreignValues: Record<string, unknown[]>;
  ranges: Record<string, [number, number]>;
  maxItems: Record<string, number>;
  /** The expected x-media of each media field; no `forms` means the seed does not state them. */
  media: Record<string, Body>;
  /** Properties whose names the seed only implies. */
  impliedNames: string[];
  /** x-not-shown keys expected on the request schema. */
  notShown: string[];
  /** Standard price components, or undefined where the seed shows no price. */
  pricing?: unknown[];
  /** The seed shows the price's form but not its rates: x-not-shown.price says so beside x-pricing. */
  ratesNotShown?: boolean;
  /** Good bodies, one or more per mode. */
  modes: Record<string, Body>;
  /** The seed's words each cross-field rule of the schema quotes first, one per rule. */
  ruleQuotes: string[];
  /** One body per cross-field rule of the seed. */
  crossRules: BadBody[];
}

/** Bodies that each break one per-field rule of the table: enum, range, item limit, required, closedness. */
function perFieldBreaks(facts: VariantFacts): BadBody[] {
  const { base } = facts;
  return [
    ...Object.entries(facts.foreignValues).flatMap(([field, values]) => outsideEnum(base, field, values)),
    ...Object.entries(facts.ranges).flatMap(([field, [min, max]]) => outOfRange(base, field, min, max)),
    ...Object.entries(facts.maxItems).map(([field, max]) => tooManyItems(base, field, max)),
    ...(facts.required ?? []).map((field) => missing(base, field)),
    ...(facts.closed ? [unknownField(base)] : []),
  ];
}

function videoVariant(facts: VariantFacts): void {
  const path = `/v1/videos/${facts.slug}`;
  describe(`${facts.label}: POST ${path}`, () => {
    it("keeps its operationId, tag, label and the shared responses", () => {
      const op = operation(path);
      expect(op.operationId).toBe(`createVideo${facts.label.replace("-", "")}`);
      expect(op.tags).toEqual(["Videos"]);
      expect(op["x-model-label"]).toBe(facts.label);
      expect(op.responses["200"]?.$ref).toBe("#/components/responses/VideoJobAccepted");
      expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "410", "429"]);
    });

    it("has exactly the seed's fields, requiredness and closedness", () => {
      const schema = requestSchema(path);
      expect(Object.keys(properties(path)).sort()).toEqual([...facts.properties].sort());
      expect(schema.required).toEqual(facts.required);
      expect(schema.additionalProperties).toBe(facts.closed ? false : undefined);
      expect(Object.keys(schema["x-not-shown"] as Body).sort()).toEqual([...facts.notShown].sort());
    });

    it("declares exactly the seed's defaults, enums, ranges and item limits", () => {
      expect(declared(path, "default")).toEqual(facts.defaults);
      expect(declared(path, "enum")).toEqual(facts.enums);
      expect(declared(path, "minimum")).toEqual(
        Object.fromEntries(Object.entries(facts.ranges).map(([f, [min]]) => [f, min])),
      );
      expect(declared(path, "maximum")).toEqual(
        Object.fromEntries(Object.entries(facts.ranges).map(([f, [, max]]) => [f, max])),
      );
      expect(declared(path, "maxItems")).toEqual(facts.maxItems);
    });

    it("describes every property, and has exactly the seed's cross-field rules, each quoting the seed", () => {
      for (const [name, schema] of Object.entries(properties(path))) expect(schema.description, name).toMatch(/\w{3}/);
      const rules = (requestSchema(path).allOf ?? []) as JsonSchema[];
      const quotes = rules.map((rule) => [...String(rule.description).matchAll(/"([^"]+)"/g)].map((m) => m[1]!));
      expect(quotes.map((q) => q[0]).sort()).toEqual([...facts.ruleQuotes].sort());
      for (const quote of quotes.flat()) expect(SEED, quote).toContain(quote);
    });

    it("marks every media field with the seed's x-media, and unstated input forms as not shown", () => {
      expect(declared(path, "x-media")).toEqual(facts.media);
      for (const [name, media] of Object.entries(facts.media)) {
        const notShown = properties(path)[name]!["x-not-shown"] as Body | undefined;
        expect(notShown?.["input-forms"], name).toEqual("forms" in media ? undefined : expect.any(String));
      }
    });

    it("marks exactly the implied names", () => {
      expect(Object.keys(declared(path, "x-implied-name")).sort()).toEqual([...facts.impliedNames].sort());
    });

    it(facts.pricing ? "prices exactly as the seed" : "marks the price as not shown", () => {
      const op = operation(path);
      if (facts.pricing) {
        const pricing = op["x-pricing"] as { charged: string; components: unknown[] };
        expect(pricing.charged).toBe("on-success");
        expect(pricing.components).toEqual(facts.pricing);
        if (facts.ratesNotShown) expect((op["x-not-shown"] as Body).price).toMatch(/rates are not shown/);
        else expect(op["x-not-shown"]).toBeUndefined();
      } else {
        expect(op["x-pricing"]).toBeUndefined();
        expect((op["x-not-shown"] as Body).price).toEqual(expect.any(String));
      }
    });

    accepts(path, facts.modes);
    if (!facts.closed)
      accepts(path, { "an unknown field (the schema stays open)": { ...facts.base, camera_motion: "pan" } });
    rejects(path, [...perFieldBreaks(facts), ...facts.crossRules]);
  });
}

const RATIOS_5 = ["16:9", "9:16", "1:1", "4:3", "3:4"];
const not = (rule: string, body: Body): BadBody => ({ rule, body, keyword: "not" });
const endImageNeedsImage = (base: Body): BadBody => ({
  rule: "end_image without image",
  body: { ...base, end_image: END_IMAGE },
  keyword: "dependentRequired",
});
const perOutputSecond = (fields: string[], table: Body): Body => ({
  rateBy: { fields, table },
  per: { field: "length_seconds" },
});

const implied = (facts: Omit<VariantFacts, "impliedNames">, exact: string[] = []): VariantFacts => ({
  ...facts,
  impliedNames: facts.properties.filter((name) => !exact.includes(name)),
});

// --- V-A ---
const vaBase = { prompt: "a paper boat on a rainy street" };
videoVariant({
  label: "V-A",
  slug: "v-a",
  base: vaBase,
  required: ["prompt"],
  closed: true,
  properties: [
    "prompt",
    "aspect_ratio",
    "audio",
    "end_image",
    "image",
    "length_seconds",
    "reference_audios",
    "reference_images",
    "reference_videos",
    "resolution",
    "seed",
    "video",
  ],
  // aspect_ratio's default depends on the mode (16:9, adaptive or auto), so the schema states none.
  defaults: { length_seconds: 5, resolution: "768p" },
  enums: {
    aspect_ratio: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9", "adaptive", "auto"],
    resolution: ["480p", "768p", "1080p", "2k"],
  },
  foreignValues: { aspect_ratio: ["2:3", "match_input_image"], resolution: ["720p", "4k", "2K"] },
  ranges: { length_seconds: [5, 15] },
  maxItems: { reference_audios: 3, reference_images: 5, reference_videos: 3 },
  media: {
    audio: { kind: "audio", forms: URL_FORMS, formats: ["mp3", "wav"], minDurationSeconds: 2, maxSizeMB: 15 },
    end_image: { kind: "image" },
    image: { kind: "image", forms: FOUR_FORMS },
    reference_audios: {
      kind: "audio",
      forms: URL_FORMS,
      formats: ["wav", "mp3"],
      minDurationSeconds: 2,
      maxDurationSeconds: 15,
      maxCombinedDurationSeconds: 15,
    },
    reference_images: { kind: "image", forms: FOUR_FORMS },
    reference_videos: {
      kind: "video",
      forms: URL_FORMS,
      formats: ["mp4", "mov"],
      minDurationSeconds: 2,
      maxDurationSeconds: 15,
      maxCombinedDurationSeconds: 15,
      maxSizeMB: 50,
    },
    video: {
      kind: "video",
      forms: URL_FORMS,
      minDurationSeconds: 1.6,
      maxDurationSeconds: 60,
      maxSizeMB: 50,
      minAspectRatio: "2:5",
      maxAspectRatio: "5:2",
    },
  },
  impliedNames: [],
  notShown: ["requiredness", "defaults"],
  pricing: [
    { label: "output video", ...perOutputSecond(["resolution"], { "480p": 65, "768p": 105, "1080p": 210, "2k": 420 }) },
    {
      label: expect.any(String),
      rate: 170,
      per: { mediaSeconds: "video", maximum: 15 },
      when: [{ field: "video", present: true }],
    },
    { label: "reference video clips", rate: 170, per: { mediaSeconds: "reference_videos" } },
    {
      label: "reference images beyond the first two",
      rate: 50,
      per: { itemsBeyond: { field: "reference_images", free: 2 } },
    },
  ],
  modes: {
    "text-to-video at both length limits": {
      ...vaBase,
      length_seconds: 15,
      aspect_ratio: "21:9",
      resolution: "480p",
      seed: 3,
    },
    "text-to-video with a soundtrack": { ...vaBase, audio: AUDIO, length_seconds: 5 },
    "image-to-video with a soundtrack": { ...vaBase, image: IMAGE, audio: AUDIO, resolution: "1080p" },
    "image-to-video between a first and last frame": { ...vaBase, image: IMAGE, end_image: END_IMAGE },
    "an end-keyframe generation (end_image alone)": { ...vaBase, end_image: END_IMAGE },
    "reference mode at every item limit, adaptive": {
      ...vaBase,
      aspect_ratio: "adaptive",
      reference_images: urls(5),
      reference_videos: urls(3, "mp4"),
      reference_audios: urls(3, "wav"),
    },
    "reference mode with audios alone": { ...vaBase, reference_audios: urls(1, "mp3") },
    "extension at 2k following the source": {
      ...vaBase,
      video: VIDEO,
      aspect_ratio: "auto",
      resolution: "2k",
      length_seconds: 15,
    },
    "extension cropping to a ratio": { ...vaBase, video: VIDEO, aspect_ratio: "9:16" },
    "image-to-video ignores adaptive and auto rather than rejecting them": {
      ...vaBase,
      image: IMAGE,
      aspect_ratio: "adaptive",
    },
    "end-keyframe generation with auto (ignored)": { ...vaBase, end_image: IMAGE, aspect_ratio: "auto" },
  },
  ruleQuotes: [
    "cannot be combined with reference media or `video`",
    "cannot be combined with `image`/`end_image`",
    "cannot be combined with any other media input",
    "only for text-to-video or image-to-video",
    "`2k` only when extending",
    "Reference mode also accepts `adaptive`",
    "Extension accepts `auto`",
  ],
  crossRules: [
    not("image with reference_images (image: cannot be combined with reference media)", {
      ...vaBase,
      image: IMAGE,
      reference_images: urls(1),
    }),
    not("image with reference_videos", { ...vaBase, image: IMAGE, reference_videos: urls(1, "mp4") }),
    not("image with reference_audios", { ...vaBase, image: IMAGE, reference_audios: urls(1, "wav") }),
    not("image with video (image: cannot be combined with video)", { ...vaBase, image: IMAGE, video: VIDEO }),
    not("end_image with reference_images (reference media: cannot be combined with image/end_image)", {
      ...vaBase,
      end_image: END_IMAGE,
      reference_images: urls(1),
    }),
    not("end_image with reference_videos", { ...vaBase, end_image: END_IMAGE, reference_videos: urls(1, "mp4") }),
    not("end_image with reference_audios", { ...vaBase, end_image: END_IMAGE, reference_audios: urls(1, "wav") }),
    not("video with end_image (video: cannot be combined with any other media input)", {
      ...vaBase,
      video: VIDEO,
      end_image: END_IMAGE,
    }),
    not("video with audio", { ...vaBase, video: VIDEO, audio: AUDIO }),
    not("video with reference_images", { ...vaBase, video: VIDEO, reference_images: urls(1) }),
    not("audio in reference mode (audio: only for text-to-video or image-to-video)", {
      ...vaBase,
      audio: AUDIO,
      reference_audios: urls(1, "wav"),
    }),
    {
      rule: "2k on text-to-video (2k only when extending)",
      body: { ...vaBase, resolution: "2k" },
      keyword: "required",
    },
    { rule: "2k on image-to-video", body: { ...vaBase, image: IMAGE, resolution: "2k" }, keyword: "required" },
    {
      rule: "adaptive on text-to-video (reference mode only)",
      body: { ...vaBase, aspect_ratio: "adaptive" },
      keyword: "anyOf",
    },
    { rule: "adaptive when extending", body: { ...vaBase, video: VIDEO, aspect_ratio: "adaptive" }, keyword: "anyOf" },
    { rule: "auto on text-to-video (extension only)", body: { ...vaBase, aspect_ratio: "auto" }, keyword: "anyOf" },
    {
      rule: "auto in reference mode",
      body: { ...vaBase, reference_images: urls(1), aspect_ratio: "auto" },
      keyword: "anyOf",
    },
  ],
});

// --- V-B: names follow the other video variants, their exactness not shown ---
videoVariant(
  implied({
    label: "V-B",
    slug: "v-b",
    base: {},
    closed: false,
    properties: [
      "prompt",
      "aspect_ratio",
      "end_image",
      "generate_audio",
      "image",
      "length_seconds",
      "reference_audios",
      "reference_images",
      "reference_videos",
      "resolution",
      "seed",
    ],
    defaults: { generate_audio: true },
    enums: { aspect_ratio: RATIOS_5, resolution: ["480p", "720p", "1080p"] },
    foreignValues: { aspect_ratio: ["21:9", "adaptive", "auto"], resolution: ["768p", "4k", "2k"] },
    ranges: { length_seconds: [2, 30] },
    maxItems: { reference_audios: 5, reference_images: 10, reference_videos: 5 },
    media: {
      end_image: { kind: "image" },
      image: { kind: "image", forms: FOUR_FORMS },
      reference_audios: {
        kind: "audio",
        forms: URL_FORMS,
        formats: ["wav", "mp3"],
        minDurationSeconds: 2,
        maxDurationSeconds: 15,
        maxCombinedDurationSeconds: 15,
      },
      reference_images: { kind: "image", forms: FOUR_FORMS },
      reference_videos: {
        kind: "video",
        forms: URL_FORMS,
        formats: ["mp4", "mov"],
        minDurationSeconds: 2,
        maxDurationSeconds: 15,
        maxCombinedDurationSeconds: 15,
        // "input video duration plus output length must not exceed 30 s"
        maxTotalWithField: { field: "length_seconds", maxSeconds: 30 },
        maxSizeMB: 50,
      },
    },
    notShown: ["field-names", "requiredness", "defaults"],
    // "Price per output second by resolution; input media is free" (rates not shown).
    pricing: [{ label: "output video", rateNotShown: { by: ["resolution"] }, per: { field: "length_seconds" } }],
    ratesNotShown: true,
    modes: {
      "an empty body (no field is stated as required)": {},
      "text-to-video at both length limits": {
        prompt: "dawn",
        aspect_ratio: "3:4",
        length_seconds: 30,
        resolution: "1080p",
        seed: 1,
      },
      "image-to-video between two frames, 2 s, silent": {
        image: IMAGE,
        end_image: END_IMAGE,
        length_seconds: 2,
        generate_audio: false,
      },
      "image-to-video with aspect_ratio (ignored, not rejected)": { image: IMAGE, aspect_ratio: "16:9" },
      "references at every item limit": {
        reference_images: urls(10),
        reference_videos: urls(5, "mp4"),
        reference_audios: urls(5, "wav"),
      },
    },
    ruleQuotes: [
      "last frame, used together with `image`",
      "cannot be combined with reference media",
      "cannot be combined with `image`/`end_image`",
    ],
    crossRules: [
      not("image with reference_images (image: cannot be combined with reference media)", {
        image: IMAGE,
        reference_images: urls(1),
      }),
      not("image with reference_videos", { image: IMAGE, reference_videos: urls(1, "mp4") }),
      not("image with reference_audios", { image: IMAGE, reference_audios: urls(1, "wav") }),
      not("end_image with reference_audios (reference_audios: cannot be combined with image/end_image)", {
        end_image: END_IMAGE,
        reference_audios: urls(1, "wav"),
      }),
      not("end_image with reference_images (reference_images: cannot be combined with image/end_image)", {
        end_image: END_IMAGE,
        reference_images: urls(1),
      }),
      endImageNeedsImage({}),
    ],
  }),
);

// --- V-C: names follow the other video variants, their exactness not shown ---
videoVariant(
  implied({
    label: "V-C",
    slug: "v-c",
    base: {},
    closed: false,
    properties: [
      "prompt",
      "aspect_ratio",
      "audio",
      "end_image",
      "generate_audio",
      "image",
      "length_seconds",
      "reference_images",
      "resolution",
      "video",
    ],
    defaults: {},
    enums: { aspect_ratio: [...RATIOS_5, "21:9"], resolution: ["480p", "720p", "1080p", "4k"] },
    foreignValues: { aspect_ratio: ["adaptive", "auto", "2:3"], resolution: ["768p", "2k", "4K"] },
    ranges: { length_seconds: [4, 15] },
    maxItems: { reference_images: 9 },
    media: {
      audio: { kind: "audio", forms: URL_FORMS, formats: ["mp3", "wav", "ogg"] },
      end_image: { kind: "image" },
      image: { kind: "image", forms: FOUR_FORMS },
      reference_images: { kind: "image" },
      video: { kind: "video", forms: URL_FORMS, minDurationSeconds: 2, maxDurationSeconds: 15, maxSizeMB: 100 },
    },
    notShown: ["field-names", "requiredness", "defaults"],
    // "Resolution prices differ" (rates not shown); "video-edit input is billed on the input duration at half the output per-second rate, in addition to the output".
    pricing: [
      { label: "output video", rateNotShown: { by: ["resolution"] }, per: { field: "length_seconds" } },
      {
        label: expect.any(String),
        rateTimes: { component: "output video", factor: 0.5 },
        per: { mediaSeconds: "video" },
      },
    ],
    ratesNotShown: true,
    modes: {
      "an empty body (no field is stated as required)": {},
      "text-to-video at 4k, both length limits": {
        prompt: "horses",
        aspect_ratio: "21:9",
        resolution: "4k",
        length_seconds: 15,
        generate_audio: true,
      },
      "text-to-video at 4 s": { prompt: "horses", length_seconds: 4 },
      "image-to-video between two frames with audio": { image: IMAGE, end_image: END_IMAGE, audio: AUDIO },
      "reference images (9) with audio": { reference_images: urls(9), audio: AUDIO },
      "video-edit with audio at 1080p": { video: VIDEO, audio: AUDIO, resolution: "1080p" },
      "video-edit with 9 reference images (only 6 are used, not rejected)": { video: VIDEO, reference_images: urls(9) },
    },
    ruleQuotes: [
      "end frame, with `image`",
      "must accompany an image (`image` or `reference_images`) or a video; audio cannot be the only input",
      "cannot be combined with `image`/`end_image`",
      "not combinable with `image`/`end_image`",
      "`4k` is not available in video-edit mode",
    ],
    crossRules: [
      {
        rule: "audio as the only input (must accompany an image or a video)",
        body: { prompt: "a song", audio: AUDIO },
        keyword: "anyOf",
      },
      endImageNeedsImage({}),
      not("reference_images with image (cannot be combined with image/end_image)", {
        reference_images: urls(1),
        image: IMAGE,
      }),
      not("reference_images with end_image", { reference_images: urls(1), end_image: END_IMAGE }),
      not("video with image (not combinable with image/end_image)", { video: VIDEO, image: IMAGE }),
      not("video with end_image", { video: VIDEO, end_image: END_IMAGE }),
      not("4k in video-edit mode", { video: VIDEO, resolution: "4k" }),
    ],
  }),
);

// --- V-D ---
const vdBase = { prompt: "a hot-air balloon" };
videoVariant({
  label: "V-D",
  slug: "v-d",
  base: vdBase,
  required: ["prompt"],
  closed: true,
  properties: [
    "prompt",
    "aspect_ratio",
    "end_image",
    "generate_audio",
    "image",
    "length_seconds",
    "reference_images",
    "resolution",
    "video",
  ],
  defaults: { aspect_ratio: "16:9", length_seconds: 5, resolution: "720p" },
  enums: { aspect_ratio: ["16:9", "9:16", "1:1"], resolution: ["720p", "1080p", "4k"] },
  foreignValues: { aspect_ratio: ["4:3", "21:9", "adaptive"], resolution: ["480p", "768p", "4K"] },
  ranges: { length_seconds: [3, 15] },
  maxItems: { reference_images: 7 },
  media: {
    end_image: { kind: "image" },
    image: { kind: "image" },
    reference_images: { kind: "image" },
    video: { kind: "video", forms: URL_FORMS },
  },
  impliedNames: [],
  notShown: ["requiredness", "defaults"],
  modes: {
    "text-to-video at the defaults": vdBase,
    "text-to-video with audio at both length limits": {
      ...vdBase,
      generate_audio: true,
      length_seconds: 3,
      resolution: "4k",
      aspect_ratio: "1:1",
    },
    "image-to-video between two frames": { ...vdBase, image: IMAGE, end_image: END_IMAGE, length_seconds: 15 },
    "reference images alone (7)": { ...vdBase, reference_images: urls(7) },
    "video-edit with 4 reference images and audio off": {
      ...vdBase,
      video: VIDEO,
      reference_images: urls(4),
      generate_audio: false,
      length_seconds: 8,
    },
  },
  ruleQuotes: [
    "end frame, with `image`",
    "cannot be combined with `reference_images`",
    "cannot be combined with `image`/`end_image`",
    "video-edit mode: start/end frames unsupported",
    "unavailable on video-edit",
    "up to 4 with a video edit",
  ],
  crossRules: [
    endImageNeedsImage(vdBase),
    not("image with reference_images (image: cannot be combined with reference_images)", {
      ...vdBase,
      image: IMAGE,
      reference_images: urls(1),
    }),
    not("end_image with reference_images (reference_images: cannot be combined with image/end_image)", {
      ...vdBase,
      end_image: END_IMAGE,
      reference_images: urls(1),
    }),
    not("video with image (video-edit: start/end frames unsupported)", { ...vdBase, video: VIDEO, image: IMAGE }),
    not("video with end_image", { ...vdBase, video: VIDEO, end_image: END_IMAGE }),
    {
      rule: "generate_audio on video-edit (unavailable; audio always off)",
      body: { ...vdBase, video: VIDEO, generate_audio: true },
      keyword: "const",
    },
    {
      rule: "5 reference images with a video edit (up to 4)",
      body: { ...vdBase, video: VIDEO, reference_images: urls(5) },
      keyword: "maxItems",
    },
    { rule: "audio is a V-A field, not V-D's", body: { ...vdBase, audio: AUDIO }, keyword: "additionalProperties" },
  ],
});

// --- V-E ---
const veBase = { prompt: "fireflies over a pond" };
videoVariant({
  label: "V-E",
  slug: "v-e",
  base: veBase,
  required: ["prompt"],
  closed: true,
  properties: ["prompt", "aspect_ratio", "end_image", "generate_audio", "image", "length_seconds"],
  defaults: { aspect_ratio: "16:9", length_seconds: 5 },
  enums: { aspect_ratio: ["16:9", "9:16", "1:1"] },
  foreignValues: { aspect_ratio: ["4:3", "21:9", "auto"] },
  ranges: { length_seconds: [3, 15] },
  maxItems: {},
  media: { end_image: { kind: "image" }, image: { kind: "image", forms: FOUR_FORMS } },
  impliedNames: [],
  notShown: ["requiredness", "defaults"],
  modes: {
    "text-to-video at the defaults": veBase,
    "text-to-video with audio at both length limits": {
      ...veBase,
      generate_audio: true,
      length_seconds: 15,
      aspect_ratio: "9:16",
    },
    "image-to-video from a start frame, 3 s": { ...veBase, image: IMAGE, length_seconds: 3 },
    "image-to-video between two frames": { ...veBase, image: IMAGE, end_image: END_IMAGE, generate_audio: false },
  },
  ruleQuotes: ["end frame, with `image`"],
  crossRules: [
    endImageNeedsImage(veBase),
    {
      rule: "resolution is not a V-E field",
      body: { ...veBase, resolution: "1080p" },
      keyword: "additionalProperties",
    },
    {
      rule: "video is not a V-E field (text and image-to-video only)",
      body: { ...veBase, video: VIDEO },
      keyword: "additionalProperties",
    },
  ],
});

// --- V-F: partly described; generate_audio is named, the other names are implied ---
videoVariant(
  implied(
    {
      label: "V-F",
      slug: "v-f",
      base: {},
      closed: false,
      properties: ["prompt", "generate_audio", "image", "end_image", "length_seconds", "resolution", "video"],
      defaults: {},
      enums: { resolution: ["720p", "1080p", "1440p", "4K"] },
      foreignValues: { resolution: ["480p", "768p", "4k", "2k"] },
      ranges: { length_seconds: [5, 20] },
      maxItems: {},
      media: {
        image: { kind: "image" },
        end_image: { kind: "image" },
        video: {
          kind: "video",
          formats: ["mp4", "mov"],
          minDurationSeconds: 1,
          maxDurationSeconds: 120,
          maxSizeMB: 100,
        },
      },
      notShown: ["request-fields", "field-names", "requiredness", "defaults"],
      pricing: [
        {
          label: "output video",
          ...perOutputSecond(["resolution"], { "720p": 200, "1080p": 325, "1440p": 380, "4K": 555 }),
          when: [{ field: "video", present: false }],
        },
        {
          label: expect.any(String),
          ...perOutputSecond(["resolution"], { "720p": 285, "1080p": 365, "1440p": 420, "4K": 610 }),
          when: [{ field: "video", present: true }],
        },
      ],
      modes: {
        "text-to-video, 20 s at 4K": { prompt: "canyon", length_seconds: 20, resolution: "4K" },
        "image-to-video from a first frame, silent": { image: IMAGE, length_seconds: 5, generate_audio: false },
        "image-to-video between two frames at 1440p": { image: IMAGE, end_image: END_IMAGE, resolution: "1440p" },
        "an extension adding 5 s": { video: VIDEO, length_seconds: 5 },
        "an extension adding 15 s": { video: VIDEO, length_seconds: 15, resolution: "720p" },
      },
      ruleQuotes: ["image-to-video from a first frame or a first and last frame", "an extension adds 5 to 15 s"],
      crossRules: [
        endImageNeedsImage({}),
        {
          rule: "an extension adding 16 s (an extension adds 5 to 15 s)",
          body: { video: VIDEO, length_seconds: 16 },
          keyword: "maximum",
        },
      ],
    },
    ["generate_audio"],
  ),
);

// --- V-G: partly described; mode is named, the other names are implied ---
videoVariant(
  implied(
    {
      label: "V-G",
      slug: "v-g",
      base: {},
      closed: false,
      properties: ["prompt", "mode", "image", "end_image", "length_seconds", "resolution"],
      defaults: {},
      enums: { mode: ["cost", "speed", "quality"], resolution: ["480p", "768p"] },
      foreignValues: { mode: ["fast", "standard"], resolution: ["720p", "1080p", "2k"] },
      ranges: { length_seconds: [5, 15] },
      maxItems: {},
      media: { image: { kind: "image" }, end_image: { kind: "image" } },
      notShown: ["request-fields", "field-names", "requiredness", "defaults"],
      pricing: [
        {
          label: "output video",
          ...perOutputSecond(["resolution", "mode"], {
            "480p": { cost: 15, speed: 30, quality: 60 },
            "768p": { cost: 37, speed: 52, quality: 112 },
          }),
        },
      ],
      modes: {
        "text-to-video in cost mode": { prompt: "goldfish", mode: "cost", resolution: "480p", length_seconds: 5 },
        "a first frame in quality mode": { image: IMAGE, mode: "quality", resolution: "768p", length_seconds: 15 },
        "a last frame alone": { end_image: END_IMAGE, mode: "speed" },
        "first and last frames": { image: IMAGE, end_image: END_IMAGE },
      },
      ruleQuotes: [],
      crossRules: [],
    },
    ["mode"],
  ),
);

describe("video prose the schemas cannot hold", () => {
  const prose = (slug: string): string => operation(`/v1/videos/${slug}`).description ?? "";

  it("states each variant's frame rate and length limits", () => {
    expect(prose("v-b")).toMatch(/30 fps/);
    expect(prose("v-b")).toMatch(/input video duration plus output length must not exceed\s+30 s/);
    expect(prose("v-f")).toMatch(/24 fps/);
    expect(prose("v-f")).toMatch(/an extension adds 5 to 15 s/);
    expect(prose("v-g")).toMatch(/24 fps/);
  });

  it("states the per-mode defaults and what is free", () => {
    expect(prose("v-a")).toMatch(/`adaptive`\s+\(its default\)/);
    expect(prose("v-a")).toMatch(/`auto` \(follow the source, its default\)/);
    expect(prose("v-a")).toMatch(/first 15 seconds of the\s+source/);
    expect(prose("v-b")).toMatch(/Input media is free/);
    expect(prose("v-c")).toMatch(/half the output\s+per-second rate/);
    expect(prose("v-f")).toMatch(/`generate_audio: false` gives a silent clip at the same price/);
  });
});
