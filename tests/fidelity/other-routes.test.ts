/**
 * Fidelity of the routes other than images and videos, read off the seed: request rules (each
 * broken alone), defaults, requiredness, media limits, stock filters and standard prices.
 */
import { describe, expect, it } from "vitest";
import { deref, type JsonSchema, type Operation } from "../../model/document.ts";
import { doc, operation, property, requestSchema } from "../support/description.ts";
import { accepts, FOUR_FORMS, outsideEnum, rejects, unknownField, URL_FORMS, wrongTypes } from "../support/fidelity.ts";

/** The `default` of each named request property (undefined where none is declared). */
function defaults(path: string, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, property(path, name).default]));
}

function enumOf(path: string, name: string): unknown[] | undefined {
  return property(path, name).enum as unknown[] | undefined;
}

const pricing = (path: string, method: "get" | "post" = "post") => operation(path, method)["x-pricing"];
const notShown = (node: object) => (node as { "x-not-shown"?: Record<string, string> })["x-not-shown"] ?? {};

describe("POST /v1/motion-control/mc-a", () => {
  const path = "/v1/motion-control/mc-a";
  const base = { image: "https://files.example.com/c.png", video: "https://files.example.com/m.mp4" };
  accepts(path, {
    "every field": { ...base, character_orientation: "image", keep_original_sound: false, prompt: "waves" },
    "an empty body (no field is stated as required)": {},
  });
  rejects(path, [
    ...outsideEnum(base, "character_orientation", ["both", "Video"]),
    ...wrongTypes(base, { image: 1, video: ["x"], keep_original_sound: "yes", prompt: 3, character_orientation: true }),
    unknownField(base),
  ]);

  it("states no requiredness or defaults, and marks both as not shown", () => {
    expect(requestSchema(path).required).toBeUndefined();
    expect(Object.keys(notShown(requestSchema(path))).sort()).toEqual(["defaults", "requiredness"]);
    expect(defaults(path, ["character_orientation", "keep_original_sound"])).toEqual({
      character_orientation: undefined,
      keep_original_sound: undefined,
    });
  });

  it("bills 130 credits per second of the reference video, rounded up, on success", () => {
    expect(pricing(path)).toMatchObject({
      charged: "on-success",
      components: [{ rate: 130, per: { mediaSeconds: "video", rounding: "up" } }],
    });
  });
});

describe("POST /v1/lip-sync/ls-a", () => {
  const path = "/v1/lip-sync/ls-a";
  const base = { audio: "https://files.example.com/s.wav", image: "https://files.example.com/p.jpg" };
  accepts(path, { "audio and image": base, "with a prompt": { ...base, prompt: "smiles" } });
  rejects(path, [
    { rule: "audio is required", body: { image: base.image }, keyword: "required" },
    { rule: "image is required", body: { audio: base.audio }, keyword: "required" },
    ...wrongTypes(base, { audio: 1, image: false, prompt: ["x"] }),
    unknownField(base),
  ]);

  it("requires exactly audio and image", () => {
    expect(requestSchema(path).required).toEqual(["audio", "image"]);
    expect(notShown(requestSchema(path)).requiredness).toBeUndefined();
  });

  it("lists the prompt's languages", () => {
    const languages = ["Chinese", "English", "Japanese", "Korean", "Spanish", "Indonesian"];
    for (const language of languages) expect(property(path, "prompt").description).toContain(language);
  });

  it("bills 84 credits per second of audio, rounded up, 4-second minimum, and says the quote is reserved", () => {
    expect(pricing(path)).toMatchObject({
      charged: "on-success",
      components: [{ rate: 84, per: { mediaSeconds: "audio", rounding: "up", minimum: 4 } }],
    });
    expect(operation(path).description).toContain("reserves its quoted price");
  });
});

describe("POST /v1/3d/d-a", () => {
  const path = "/v1/3d/d-a";
  const base = { image: "https://files.example.com/chair.png" };
  accepts(path, {
    "an image alone": base,
    "every field": { ...base, detailed_geometry: true, texture: false, texture_quality: "detailed" },
  });
  rejects(path, [
    ...outsideEnum(base, "texture_quality", ["high", "Standard"]),
    ...wrongTypes(base, { image: 5, detailed_geometry: "true", texture: 1, texture_quality: true }),
    unknownField(base),
  ]);

  it("has the seed's defaults and texture qualities", () => {
    expect(defaults(path, ["detailed_geometry", "texture", "texture_quality", "image"])).toEqual({
      detailed_geometry: false,
      texture: true,
      texture_quality: "standard",
      image: undefined,
    });
    expect(enumOf(path, "texture_quality")).toEqual(["standard", "detailed"]);
  });

  it("prices 400 textured, 270 without texture, 540 detailed; detailed geometry adds 270", () => {
    expect(pricing(path)).toEqual({
      charged: "on-success",
      held: true,
      notes: expect.any(String),
      components: [
        {
          label: expect.any(String),
          rateBy: {
            fields: ["texture", "texture_quality"],
            table: { true: { standard: 400, detailed: 540 }, false: { standard: 270, detailed: 270 } },
          },
        },
        { label: expect.any(String), rate: 270, when: [{ field: "detailed_geometry", equals: true }] },
      ],
    });
  });
});

describe("POST /v1/3d/d-b", () => {
  const path = "/v1/3d/d-b";
  const base = { image: "https://files.example.com/robot.png" };
  accepts(path, {
    textured: { ...base, texture: true },
    "a field the seed does not show (other fields are not shown)": { ...base, other_field: 1 },
  });
  rejects(path, wrongTypes(base, { image: 1, texture: "yes" }));

  it("is open, names rigging and animation without types, and marks the implied names", () => {
    const schema = requestSchema(path);
    expect(schema.additionalProperties).toBeUndefined();
    expect(Object.keys(notShown(schema))).toContain("request-fields");
    for (const name of ["rigging", "animation"]) {
      expect(property(path, name).type).toBeUndefined();
      expect(notShown(property(path, name)).type).toBeDefined();
    }
    for (const name of ["image", "texture"]) expect(property(path, name)["x-implied-name"]).toEqual(expect.any(String));
  });

  it("prices 1600 textured, 1080 without texture; rigging adds 270, animation 160", () => {
    expect(pricing(path)).toMatchObject({
      charged: "on-success",
      components: [
        { rateBy: { fields: ["texture"], table: { true: 1600, false: 1080 } } },
        { rate: 270, when: [{ field: "rigging", present: true }] },
        { rate: 160, when: [{ field: "animation", present: true }] },
      ],
    });
  });
});

describe("POST /v1/depth-maps/dm-a", () => {
  const path = "/v1/depth-maps/dm-a";
  const base = { video: "https://files.example.com/street.mp4" };
  accepts(path, {
    "a video alone": base,
    "every field": {
      ...base,
      size: "base",
      colormap: "viridis",
      resolution: "360p",
      keep_audio: true,
      side_by_side: false,
    },
  });
  rejects(path, [
    ...outsideEnum(base, "size", ["medium"]),
    ...outsideEnum(base, "colormap", ["jet", "gray"]),
    ...outsideEnum(base, "resolution", ["4k", "2160p"]),
    ...wrongTypes(base, { video: 1, keep_audio: "off", side_by_side: 0 }),
    unknownField(base),
  ]);

  it("has the seed's defaults and values", () => {
    expect(defaults(path, ["size", "colormap", "resolution", "keep_audio", "side_by_side"])).toEqual({
      size: "small",
      colormap: "grayscale",
      resolution: "auto",
      keep_audio: false,
      side_by_side: false,
    });
    expect(enumOf(path, "size")).toEqual(["small", "base", "large"]);
    expect(enumOf(path, "colormap")).toEqual(["grayscale", "turbo", "inferno", "magma", "viridis"]);
    expect(enumOf(path, "resolution")).toEqual(["auto", "360p", "480p", "720p", "1080p"]);
  });

  it("bills per second of input by size (20/30/40), rounded up, 5-second minimum, independent of resolution", () => {
    const { components } = pricing(path) as { components: Array<{ rateBy: { fields: string[] } }> };
    expect(components).toEqual([
      {
        label: expect.any(String),
        rateBy: { fields: ["size"], table: { small: 20, base: 30, large: 40 } },
        per: { mediaSeconds: "video", rounding: "up", minimum: 5 },
      },
    ]);
  });
});

describe("POST /v1/video-upscales/vu-a", () => {
  const path = "/v1/video-upscales/vu-a";
  const base = { video: "https://files.example.com/clip.mp4" };
  accepts(path, {
    ...Object.fromEntries(
      [1.5, 2, 2.5, 3].map((factor) => [`upscale_factor ${factor}`, { ...base, upscale_factor: factor }]),
    ),
    "a prompt": { ...base, prompt: "sharp" },
    "a field the seed does not name (the mode; other fields are not shown)": {
      ...base,
      mode_field_not_shown: "creative",
    },
  });
  rejects(path, [
    ...outsideEnum(base, "upscale_factor", [1, 4, 1.75, "2"]),
    ...wrongTypes(base, { prompt: 2, video: true }),
  ]);

  it("is open and marks the unnamed mode and the implied video name", () => {
    const schema = requestSchema(path);
    expect(schema.additionalProperties).toBeUndefined();
    expect(Object.keys(notShown(schema))).toEqual(expect.arrayContaining(["request-fields", "field-names"]));
    expect(property(path, "video")["x-implied-name"]).toEqual(expect.any(String));
  });

  it("records the 1080p rates (188 precise, 267 creative) and marks the rest of the price as not shown", () => {
    const by1080p = (mode: string) => [
      { fact: "result_resolution", equals: "1080p" },
      { fact: "mode", equals: mode },
    ];
    expect(pricing(path)).toMatchObject({
      charged: "on-success",
      components: [
        { rate: 188, when: by1080p("precise") },
        { rate: 267, when: by1080p("creative") },
      ],
    });
    expect(notShown(operation(path)).price).toEqual(expect.any(String));
  });
});

describe("POST /v1/audios/a-a", () => {
  const path = "/v1/audios/a-a";
  accepts(path, {
    "a video": { video: "https://files.example.com/v.mp4" },
    "fields whose names are not shown": { video: "https://files.example.com/v.mp4", format_field_not_shown: "wav" },
  });
  rejects(path, wrongTypes({}, { video: 360 }));

  it("marks the path, the price and the unnamed fields as not shown, and names nothing it does not know", () => {
    expect(Object.keys(notShown(operation(path))).sort()).toEqual(["path", "price"]);
    // "Priced per second of the input video's measured duration (whole seconds, 10-second minimum)": the rate is not shown.
    expect(pricing(path)).toEqual({
      charged: "on-success",
      notes: expect.stringContaining("rounded up or down is not shown"),
      components: [{ label: "input video", rateNotShown: { by: [] }, per: { mediaSeconds: "video", minimum: 10 } }],
    });
    const schema = requestSchema(path);
    expect(Object.keys(schema.properties as object)).toEqual(["video"]);
    expect(notShown(schema)["field-names"]).toEqual(expect.any(String));
    expect(schema.description).toMatch(/`mp3`.*`wav`/s);
    expect(schema.description).toContain("2000 characters");
  });

  it("states its billing: whole seconds of the input video, a 10-second minimum, on success only", () => {
    expect(notShown(operation(path)).price).toContain("whole seconds, 10-second minimum), on success only");
    expect(operation(path).description).toContain("whole seconds, 10-second minimum");
  });
});

describe("POST /v1/posts", () => {
  const path = "/v1/posts";
  accepts(path, Object.fromEntries(["arr", "cc-by", "cc0"].map((license) => [`license ${license}`, { license }])));
  rejects(path, [...outsideEnum({}, "license", ["cc-by-sa", "CC0"]), ...wrongTypes({}, { license: 0 })]);

  it("defaults license to arr and is open (the other fields are not shown)", () => {
    expect(defaults(path, ["license"])).toEqual({ license: "arr" });
    expect(requestSchema(path).additionalProperties).toBeUndefined();
  });

  it("states that a post's license cannot be changed after publishing", () => {
    expect(operation(path).description).toContain("the license cannot be changed after publishing");
    expect(property(path, "license").description).toContain("It cannot be changed after publishing.");
  });
});

describe("POST /v1/cost and POST /v1/uploads", () => {
  accepts("/v1/cost", { "seconds alone": { seconds: 12 } });
  accepts("/v1/uploads", { "any body (the shape is not shown)": { file: "x" } });

  it("uploads are free; cost and uploads are not create routes but answer 400", () => {
    expect(pricing("/v1/uploads")).toEqual({ charged: "free", components: [] });
    for (const path of ["/v1/cost", "/v1/uploads", "/v1/posts"]) {
      expect(Object.keys(operation(path).responses).sort()).toEqual(["200", "400", "401", "403", "429"]);
    }
  });

  it("the quote response names credits and the depth-map fields", () => {
    const response = deref(doc, operation("/v1/cost").responses["200"]!);
    const schema = deref<JsonSchema>(doc, response.content!["application/json"]!.schema!);
    expect(Object.keys(schema.properties as object).sort()).toEqual([
      "credits",
      "credits_per_second",
      "min_seconds",
      "size_pricing",
    ]);
  });
});

describe("stock searches", () => {
  const filters: Record<string, string[]> = {
    "/v1/stock/images": ["query", "category", "orientation", "color", "type", "sort", "transparent"],
    "/v1/stock/sound-effects": ["query", "category", "min_duration", "max_duration", "sort"],
    "/v1/stock/music": ["query", "min_duration", "max_duration", "sort"],
  };
  const parameters = (op: Operation) =>
    (op.parameters ?? []).map((p) => deref(doc, p as never) as { name: string; in: string; schema: JsonSchema });

  for (const [path, names] of Object.entries(filters)) {
    it(`${path} takes exactly the seed's filters as query parameters, costs 10 credits per search`, () => {
      const op = operation(path, "get");
      expect(parameters(op).map((p) => p.name)).toEqual(names);
      for (const p of parameters(op)) expect(p.in).toBe("query");
      expect(op["x-pricing"]).toEqual({ charged: "per-request", components: [{ label: "search", rate: 10 }] });
      expect(op.description).toContain("Free plan");
      expect(notShown(op)["field-names"]).toContain("paging");
    });
  }

  it("types only transparent (a boolean) and marks the other filters' types as not shown", () => {
    for (const p of parameters(operation("/v1/stock/images", "get"))) {
      if (p.name === "transparent") expect(p.schema).toEqual({ type: "boolean" });
      else expect([p.schema.type, notShown(p).type]).toEqual([undefined, expect.any(String)]);
    }
  });

  it("results carry attribution.text and attribution.html (rule resources.stock-result.attribution)", () => {
    const result = doc.components.schemas!.StockResult as {
      required?: string[];
      properties: { attribution: { required?: string[]; properties: object } };
    };
    expect(Object.keys(result.properties.attribution.properties)).toEqual(["text", "html"]);
    // "Each result carries" them: always present, not left optional.
    expect(result.required).toEqual(["attribution"]);
    expect(result.properties.attribution.required).toEqual(["text", "html"]);
  });
});

describe("GET /v1/account/credits and GET /v1/models", () => {
  it("credits answers the AccountCredits object of five integers", () => {
    const response = deref(doc, operation("/v1/account/credits", "get").responses["200"]!);
    const schema = deref<JsonSchema>(doc, response.content!["application/json"]!.schema!);
    expect(schema.required).toEqual([
      "extra_credits",
      "monthly_limit",
      "monthly_remaining",
      "monthly_used",
      "total_available",
    ]);
  });

  it("models takes the optional type filter and marks its response shape as not shown", () => {
    const op = operation("/v1/models", "get");
    expect(op.parameters).toEqual([expect.objectContaining({ name: "type", in: "query", required: false })]);
    const response = deref(doc, op.responses["200"]!);
    expect(notShown(response.content!["application/json"]!.schema!)["response-schema"]).toEqual(expect.any(String));
  });
});

describe("media fields", () => {
  /** path -> field -> the seed's forms and limits of that media field. */
  const media: Record<string, Record<string, object>> = {
    "/v1/motion-control/mc-a": {
      image: { kind: "image", forms: FOUR_FORMS, formats: ["jpg", "png", "webp"] },
      video: {
        kind: "video",
        forms: URL_FORMS,
        formats: ["mp4", "webm"],
        minDurationSeconds: 3,
        maxDurationSeconds: 30,
        maxSizeMB: 30,
        // "at most 10 s when character_orientation is image"
        conditionalLimits: [
          { when: { field: "character_orientation", equals: "image" }, limits: { maxDurationSeconds: 10 } },
        ],
      },
    },
    "/v1/lip-sync/ls-a": {
      audio: {
        kind: "audio",
        forms: FOUR_FORMS,
        formats: ["mp3", "wav", "ogg"],
        maxDurationSeconds: 120,
        maxSizeMB: 15,
      },
      image: {
        kind: "image",
        forms: FOUR_FORMS,
        formats: ["jpg", "png", "webp"],
        minPixelsPerSide: 300,
        maxPixelsPerSide: 6000,
        minAspectRatio: "2:5",
        maxAspectRatio: "5:2",
      },
    },
    "/v1/3d/d-a": { image: { kind: "image", forms: FOUR_FORMS } },
    "/v1/3d/d-b": { image: { kind: "image" } },
    "/v1/depth-maps/dm-a": {
      video: {
        kind: "video",
        forms: URL_FORMS,
        formats: ["mp4", "mov", "webm"],
        maxDurationSeconds: 30,
        maxSizeMB: 100,
      },
    },
    "/v1/video-upscales/vu-a": {
      video: { kind: "video", maxDurationSeconds: 20, maxWidth: 2560, maxHeight: 1440, maxSizeMB: 100 },
    },
    "/v1/audios/a-a": {
      video: {
        kind: "video",
        forms: FOUR_FORMS,
        formats: ["mp4", "webm"],
        maxDurationSeconds: 360,
        maxRemoteFetchMB: 30,
      },
    },
  };
  for (const [path, fields] of Object.entries(media)) {
    for (const [field, expected] of Object.entries(fields)) {
      it(`${path} ${field}: forms and limits as stated; input forms marked where not stated`, () => {
        expect(property(path, field)["x-media"]).toEqual(expected);
        expect(notShown(property(path, field))["input-forms"] === undefined).toBe("forms" in expected);
      });
    }
  }
});
