/**
 * Every price and billing rule of the seed (shared/seed/media-service-spec.md) as a quote with its
 * expected credits, worked out by hand from the seed's sentences (quoted beside each group), plus
 * the routes whose price the seed does not show. The numbers are literals on purpose: they check
 * the description's x-pricing and the generated tables against the seed.
 */
import { describe, expect, it } from "vitest";
import { pricedPathOf } from "../client/labels.ts";
import { quote, type PricedPath, type SuppliedRates } from "../../generated/costs.ts";

/** Bodies as the tables read them: each case's body is checked against its route at run time. */
type QuoteBody = Record<string, unknown>;
type Case = [name: string, body: QuoteBody, credits: number, media?: Record<string, unknown>];

function priced(path: PricedPath, seed: string, cases: Case[]): void {
  describe(`${path}: ${seed}`, () => {
    for (const [name, body, credits, media] of cases) {
      it(`${name}: ${credits} credits`, () => {
        const result = quote(path, body as never, media as never);
        expect(result.credits, JSON.stringify(result)).toBe(credits);
        expect(result.breakdown.reduce((sum, line) => sum + line.credits, 0)).toBe(credits);
      });
    }
  });
}

priced(
  pricedPathOf("I-A"),
  "768px = 11, 1K = 12, 1.5K = 15, 2K = 19, 4K = 48 per image; num_images default 1, size default 1K; references free",
  [
    ["768px", { prompt: "p", size: "768px" }, 11],
    ["1K", { prompt: "p", size: "1K" }, 12],
    ["1.5K", { prompt: "p", size: "1.5K" }, 15],
    ["2K", { prompt: "p", size: "2K" }, 19],
    ["4K", { prompt: "p", size: "4K" }, 48],
    ["defaults: one image at 1K", { prompt: "p" }, 12],
    ["three 2K images", { prompt: "p", size: "2K", num_images: 3 }, 57],
    ["four 4K images", { prompt: "p", size: "4K", num_images: 4 }, 192],
    ["ten reference images are free", { prompt: "p", reference_images: Array(10).fill("https://x/r.png") }, 12],
  ],
);

priced(
  pricedPathOf("I-B"),
  "low 1K = 50, low 2K = 80, medium 1K = 80, medium 2K = 100; exactly 1 image; input image free",
  [
    ["low 1K", { quality: "low", size: "1K" }, 50],
    ["low 2K", { quality: "low", size: "2K" }, 80],
    ["medium 1K", { quality: "medium", size: "1K", num_images: 1 }, 80],
    ["medium 2K", { quality: "medium", size: "2K" }, 100],
    ["edit of one input image", { quality: "medium", size: "2K", image: "https://x/in.png" }, 100],
  ],
);

priced(pricedPathOf("I-C"), "flat 25 per image at 1K or 2K; input images free", [
  ["one image at 1K", { size: "1K", num_images: 1 }, 25],
  ["four images at 2K", { size: "2K", num_images: 4 }, 100],
  ["with ten references", { num_images: 2, reference_images: Array(10).fill("https://x/r.png") }, 50],
]);

priced(pricedPathOf("I-E"), "fixed 1K output at a flat 40 per image", [
  ["one image", { num_images: 1 }, 40],
  ["four images", { num_images: 4 }, 160],
]);

priced(pricedPathOf("I-J"), "55 / 65 / 90 / 130 / 790 per image by size; grounding free", [
  ["768px", { size: "768px", num_images: 1 }, 55],
  ["1K", { size: "1K", num_images: 1 }, 65],
  ["1.5K", { size: "1.5K", num_images: 1 }, 90],
  ["2K", { size: "2K", num_images: 1 }, 130],
  ["4K", { size: "4K", num_images: 1 }, 790],
  ["grounding off costs the same", { size: "1K", num_images: 1, grounding: false }, 65],
  ["four 4K images", { size: "4K", num_images: 4 }, 3160],
]);

priced(pricedPathOf("I-K"), "45 / 70 / 150 by size; google_search adds 10 per image; image_search adds 20 in total", [
  ["1K", { size: "1K", num_images: 1 }, 45],
  ["2K", { size: "2K", num_images: 1 }, 70],
  ["4K", { size: "4K", num_images: 1 }, 150],
  ["searches off by default", { size: "1K", num_images: 2 }, 90],
  ["google_search on two 1K images", { size: "1K", num_images: 2, google_search: true }, 110],
  ["image_search on one 1K image", { size: "1K", num_images: 1, image_search: true }, 65],
  ["image_search on four 4K images is 20 in total", { size: "4K", num_images: 4, image_search: true }, 620],
  ["both searches on three 2K images", { size: "2K", num_images: 3, google_search: true, image_search: true }, 260],
]);

priced(
  pricedPathOf("V-A"),
  "480p = 65, 768p = 105, 1080p = 210, 2k = 420 per output second; input video 170/s (first 15 s); reference clips 170/s; reference images beyond two add 50",
  [
    ["480p, 5 s", { prompt: "p", resolution: "480p", length_seconds: 5 }, 325],
    ["defaults: 768p, 5 s", { prompt: "p" }, 525],
    ["1080p, 10 s", { prompt: "p", resolution: "1080p", length_seconds: 10 }, 2100],
    ["768p, 15 s", { prompt: "p", length_seconds: 15 }, 1575],
    [
      "2k extension, 5 s new from a 10 s source",
      { prompt: "p", resolution: "2k", length_seconds: 5, video: "https://x/v.mp4" },
      3800,
      { video: 10 },
    ],
    ["extension of a 12.5 s source", { prompt: "p", video: "https://x/v.mp4" }, 2650, { video: 12.5 }],
    [
      "extension bills only the first 15 s of a 40 s source",
      { prompt: "p", video: "https://x/v.mp4" },
      3075,
      { video: 40 },
    ],
    [
      "extension of a 60 s source, 1080p, 10 s",
      { prompt: "p", resolution: "1080p", length_seconds: 10, video: "https://x/v.mp4" },
      4650,
      { video: 60 },
    ],
    [
      "reference clips of 4 s and 3 s",
      { prompt: "p", reference_videos: ["https://x/a.mp4", "https://x/b.mp4"] },
      1715,
      { reference_videos: [4, 3] },
    ],
    [
      "three reference clips, 15 s combined",
      { prompt: "p", resolution: "480p", reference_videos: ["a", "b", "c"] },
      2875,
      { reference_videos: [5, 5, 5] },
    ],
    ["two reference images are free", { prompt: "p", reference_images: ["a", "b"] }, 525],
    ["a third reference image adds 50", { prompt: "p", reference_images: ["a", "b", "c"] }, 575],
    ["five reference images add 150", { prompt: "p", reference_images: ["a", "b", "c", "d", "e"] }, 675],
    ["reference audios are free", { prompt: "p", reference_audios: ["a", "b", "c"] }, 525],
  ],
);

priced(
  pricedPathOf("V-F"),
  "200 / 325 / 380 / 555 per output second; extensions 285 / 365 / 420 / 610 per new second",
  [
    ["720p, 5 s", { resolution: "720p", length_seconds: 5 }, 1000],
    ["1080p, 10 s", { resolution: "1080p", length_seconds: 10 }, 3250],
    ["1440p, 20 s", { resolution: "1440p", length_seconds: 20 }, 7600],
    ["4K, 8 s", { resolution: "4K", length_seconds: 8 }, 4440],
    ["silent clip at the same price", { resolution: "720p", length_seconds: 5, generate_audio: false }, 1000],
    ["extension 720p, 5 new seconds", { resolution: "720p", length_seconds: 5, video: "https://x/v.mp4" }, 1425],
    ["extension 1080p, 10 new seconds", { resolution: "1080p", length_seconds: 10, video: "https://x/v.mp4" }, 3650],
    ["extension 1440p, 15 new seconds", { resolution: "1440p", length_seconds: 15, video: "https://x/v.mp4" }, 6300],
    ["extension 4K, 5 new seconds", { resolution: "4K", length_seconds: 5, video: "https://x/v.mov" }, 3050],
  ],
);

priced(pricedPathOf("V-G"), "480p: 15 cost, 30 speed, 60 quality; 768p: 37, 52, 112 per output second", [
  ["480p cost, 5 s", { resolution: "480p", mode: "cost", length_seconds: 5 }, 75],
  ["480p speed, 10 s", { resolution: "480p", mode: "speed", length_seconds: 10 }, 300],
  ["480p quality, 15 s", { resolution: "480p", mode: "quality", length_seconds: 15 }, 900],
  ["768p cost, 5 s", { resolution: "768p", mode: "cost", length_seconds: 5 }, 185],
  ["768p speed, 5 s", { resolution: "768p", mode: "speed", length_seconds: 5 }, 260],
  ["768p quality, 10 s", { resolution: "768p", mode: "quality", length_seconds: 10 }, 1120],
]);

priced(pricedPathOf("MC-A"), "130 per second of the reference video, billed seconds rounded up", [
  ["10 s", { image: "i", video: "v" }, 1300, { video: 10 }],
  ["10.2 s is billed as 11", { image: "i", video: "v" }, 1430, { video: 10.2 }],
  ["3 s, the shortest", { image: "i", video: "v" }, 390, { video: 3 }],
  ["30 s, the longest", { image: "i", video: "v", character_orientation: "video" }, 3900, { video: 30 }],
  [
    "10 s with character_orientation image",
    { image: "i", video: "v", character_orientation: "image" },
    1300,
    { video: 10 },
  ],
]);

priced(pricedPathOf("LS-A"), "84 per second of audio, rounded up to whole seconds, 4-second minimum", [
  ["2.5 s is billed as 4", { audio: "a", image: "i" }, 336, { audio: 2.5 }],
  ["4 s", { audio: "a", image: "i" }, 336, { audio: 4 }],
  ["4.1 s is billed as 5", { audio: "a", image: "i" }, 420, { audio: 4.1 }],
  ["60 s", { audio: "a", image: "i" }, 5040, { audio: 60 }],
  ["120 s, the longest", { audio: "a", image: "i", prompt: "smile" }, 10080, { audio: 120 }],
]);

priced(
  pricedPathOf("DM-A"),
  "20 small, 30 base, 40 large per second of input, rounded up, 5-second minimum, independent of resolution",
  [
    ["default size small, 10 s", { video: "v" }, 200, { video: 10 }],
    ["base, 10 s", { video: "v", size: "base" }, 300, { video: 10 }],
    ["large, 10 s", { video: "v", size: "large" }, 400, { video: 10 }],
    ["small, 3 s is billed as 5", { video: "v", size: "small" }, 100, { video: 3 }],
    ["large, 3 s is billed as 5", { video: "v", size: "large" }, 200, { video: 3 }],
    ["base, 7.2 s is billed as 8", { video: "v", size: "base" }, 240, { video: 7.2 }],
    ["small, 4.5 s is billed as 5", { video: "v" }, 100, { video: 4.5 }],
    [
      "large at 1080p costs the same as at 360p",
      { video: "v", size: "large", resolution: "1080p" },
      1200,
      { video: 30 },
    ],
    [
      "large at 360p",
      { video: "v", size: "large", resolution: "360p", colormap: "turbo", keep_audio: true, side_by_side: true },
      1200,
      { video: 30 },
    ],
  ],
);

priced(pricedPathOf("VU-A"), "for a 1080p result, 188 per second in precise and 267 in creative", [
  [
    "precise, 10 s to 1080p",
    { video: "v", upscale_factor: 1.5 },
    1880,
    { video: 10, result_resolution: "1080p", mode: "precise" },
  ],
  [
    "creative, 10 s to 1080p",
    { video: "v", upscale_factor: 1.5 },
    2670,
    { video: 10, result_resolution: "1080p", mode: "creative" },
  ],
  [
    "creative, 20 s to 1080p",
    { video: "v", upscale_factor: 2 },
    5340,
    { video: 20, result_resolution: "1080p", mode: "creative" },
  ],
]);

priced(
  pricedPathOf("D-A"),
  "400 textured, 270 without texture, 540 with detailed texture; detailed_geometry adds 270",
  [
    ["defaults: textured, standard", { image: "i" }, 400],
    ["without texture", { image: "i", texture: false }, 270],
    ["detailed texture", { image: "i", texture_quality: "detailed" }, 540],
    ["textured with detailed geometry", { image: "i", detailed_geometry: true }, 670],
    [
      "detailed texture and detailed geometry",
      { image: "i", texture_quality: "detailed", detailed_geometry: true },
      810,
    ],
    ["plain shape with detailed geometry", { image: "i", texture: false, detailed_geometry: true }, 540],
  ],
);

priced(pricedPathOf("D-B"), "1600 textured, 1080 without texture; rigging adds 270, animation adds 160", [
  ["textured", { texture: true }, 1600],
  ["without texture", { texture: false }, 1080],
  ["textured with rigging", { texture: true, rigging: true }, 1870],
  ["textured with animation", { texture: true, animation: true }, 1760],
  ["textured with rigging and animation", { texture: true, rigging: true, animation: true }, 2030],
  ["untextured with rigging and animation", { texture: false, rigging: true, animation: true }, 1510],
]);

for (const path of ["/v1/stock/images", "/v1/stock/sound-effects", "/v1/stock/music"] as const) {
  priced(path, "10 credits per search, including empty results", [
    ["a search", { query: "forest" }, 10],
    ["a search with no query", {}, 10],
  ]);
}

priced("/v1/uploads", "free and unmetered", [["an upload", {}, 0]]);

describe("charging", () => {
  it("stock searches are charged per request, uploads are free, generations on success", () => {
    expect(quote("/v1/stock/music", {}).charged).toBe("per-request");
    expect(quote("/v1/uploads", {}).charged).toBe("free");
    expect(quote(pricedPathOf("I-A"), {}).charged).toBe("on-success");
  });
});

describe("prices the seed does not show: credits null with the description's sentence", () => {
  const hidden: Array<[PricedPath, QuoteBody]> = [
    [pricedPathOf("I-D"), { prompt: "p", reference_images: ["a"] }],
    [pricedPathOf("I-F"), { prompt: "p" }],
    [pricedPathOf("I-G"), { prompt: "p" }],
    [pricedPathOf("I-H"), { prompt: "p" }],
    [pricedPathOf("V-D"), { prompt: "p" }],
    [pricedPathOf("V-E"), { prompt: "p" }],
  ];
  for (const [path, body] of hidden) {
    it(path, () => {
      const result = quote(path, body as never);
      expect(result.credits).toBeNull();
      expect(result.charged).toBeNull();
      expect(result.reason).toMatch(/not shown/);
    });
  }
  it("upscale to a result other than 1080p", () => {
    const result = quote(pricedPathOf("VU-A"), { video: "v" }, { video: 10, result_resolution: "4K", mode: "precise" });
    expect(result.credits).toBeNull();
    expect(result.reason).toMatch(/only the 1080p-result rates/);
  });
});

describe("inputs the price depends on but the caller did not supply: credits null naming them", () => {
  const cases: Array<[string, PricedPath, QuoteBody, Record<string, unknown> | undefined, string[]]> = [
    [
      "lip sync without the audio's duration",
      pricedPathOf("LS-A"),
      { audio: "a", image: "i" },
      undefined,
      ["media.audio (the duration in seconds of body.audio)"],
    ],
    [
      "depth map without the video's duration",
      pricedPathOf("DM-A"),
      { video: "v" },
      undefined,
      ["media.video (the duration in seconds of body.video)"],
    ],
    [
      "V-A extension without the source's duration",
      pricedPathOf("V-A"),
      { prompt: "p", video: "v" },
      undefined,
      ["media.video (the duration in seconds of body.video)"],
    ],
    [
      "I-B without quality (no default is shown)",
      pricedPathOf("I-B"),
      { size: "1K" },
      undefined,
      ["body.quality (omitted, and its default is not shown)"],
    ],
    [
      "I-C without num_images (no default is shown)",
      pricedPathOf("I-C"),
      { size: "1K" },
      undefined,
      ["body.num_images (omitted, and its default is not shown)"],
    ],
    [
      "D-B without texture (no default is shown)",
      pricedPathOf("D-B"),
      {},
      undefined,
      ["body.texture (omitted, and its default is not shown)"],
    ],
    [
      "I-J without size (no default is shown)",
      pricedPathOf("I-J"),
      { num_images: 1 },
      undefined,
      ["body.size (omitted, and its default is not shown)"],
    ],
    [
      "I-K without num_images (no default is shown)",
      pricedPathOf("I-K"),
      { size: "1K" },
      undefined,
      ["body.num_images (omitted, and its default is not shown)"],
    ],
    [
      "V-F without resolution (no default is shown)",
      pricedPathOf("V-F"),
      { length_seconds: 5 },
      undefined,
      ["body.resolution (omitted, and its default is not shown)"],
    ],
    [
      "V-G without mode (no default is shown)",
      pricedPathOf("V-G"),
      { resolution: "480p", length_seconds: 5 },
      undefined,
      ["body.mode (omitted, and its default is not shown)"],
    ],
    [
      "V-G without length_seconds (no default is shown)",
      pricedPathOf("V-G"),
      { resolution: "480p", mode: "cost" },
      undefined,
      ["body.length_seconds (omitted, and its default is not shown)"],
    ],
    [
      "motion control without its reference video",
      pricedPathOf("MC-A"),
      { image: "i" },
      undefined,
      ["body.video (absent; the price is per second of it)"],
    ],
    [
      "depth map without its video (not the 5-second minimum)",
      pricedPathOf("DM-A"),
      { size: "large" },
      undefined,
      ["body.video (absent; the price is per second of it)"],
    ],
    [
      "upscale without the result's resolution and mode",
      pricedPathOf("VU-A"),
      { video: "v" },
      { video: 10 },
      ["media.result_resolution (a fact the body does not hold)", "media.mode (a fact the body does not hold)"],
    ],
  ];
  for (const [name, path, body, media, missing] of cases) {
    it(name, () => {
      const result = quote(path, body as never, media as never);
      expect(result.credits).toBeNull();
      expect(result.missing).toEqual(missing);
      expect(result.reason).toContain(missing[0]);
    });
  }
});

describe("invalid requests are errors naming the field and the rule", () => {
  const cases: Array<[string, string, unknown, unknown, string]> = [
    ["unknown slug", "/v1/images/i-i", {}, undefined, "quote: path: /v1/images/i-i is not a priced route"],
    [
      "I-A size outside the enum",
      pricedPathOf("I-A"),
      { prompt: "p", size: "8K" },
      undefined,
      "quote: body.size: must be one of 768px, 1K, 1.5K, 2K, 4K",
    ],
    [
      "I-A five images",
      pricedPathOf("I-A"),
      { prompt: "p", num_images: 5 },
      undefined,
      "quote: body.num_images: must be 1 to 4",
    ],
    [
      "I-A misspelt field",
      pricedPathOf("I-A"),
      { prompt: "p", num_image: 4 },
      undefined,
      `quote: body.num_image: is not a field of ${pricedPathOf("I-A")}`,
    ],
    [
      "I-B has no high tier",
      pricedPathOf("I-B"),
      { quality: "high", size: "1K" },
      undefined,
      "quote: body.quality: must be one of low, medium",
    ],
    [
      "I-B takes exactly one image",
      pricedPathOf("I-B"),
      { quality: "low", size: "1K", num_images: 2 },
      undefined,
      "quote: body.num_images: must be 1 to 1",
    ],
    [
      "I-K has no 768px",
      pricedPathOf("I-K"),
      { size: "768px", num_images: 1 },
      undefined,
      "quote: body.size: must be one of 1K, 2K, 4K",
    ],
    [
      "V-A 20 seconds",
      pricedPathOf("V-A"),
      { prompt: "p", length_seconds: 20 },
      undefined,
      "quote: body.length_seconds: must be 5 to 15",
    ],
    [
      "V-A 720p",
      pricedPathOf("V-A"),
      { prompt: "p", resolution: "720p" },
      undefined,
      "quote: body.resolution: must be one of 480p, 768p, 1080p, 2k",
    ],
    [
      "V-A four reference clips",
      pricedPathOf("V-A"),
      { prompt: "p", reference_videos: ["a", "b", "c", "d"] },
      undefined,
      "quote: body.reference_videos: must be at most 3 items",
    ],
    [
      "V-A reference clips over 15 s combined",
      pricedPathOf("V-A"),
      { prompt: "p", reference_videos: ["a", "b"] },
      { reference_videos: [10, 6] },
      "quote: media.reference_videos: must be at most 15 seconds combined",
    ],
    [
      "V-A one duration for two clips",
      pricedPathOf("V-A"),
      { prompt: "p", reference_videos: ["a", "b"] },
      { reference_videos: [10] },
      "quote: media.reference_videos: must list 2 duration(s)",
    ],
    [
      "V-A source over 60 s",
      pricedPathOf("V-A"),
      { prompt: "p", video: "v" },
      { video: 61 },
      "quote: media.video: must be 1.6 to 60 seconds",
    ],
    [
      "V-A 2k is only for extending",
      pricedPathOf("V-A"),
      { prompt: "p", resolution: "2k" },
      undefined,
      "quote: body.video: is required when resolution is 2k",
    ],
    [
      "V-A extension cannot take reference clips",
      pricedPathOf("V-A"),
      { prompt: "p", video: "v", reference_videos: ["a"] },
      { video: 10, reference_videos: [3] },
      "quote: body.reference_videos: must be omitted when video is given",
    ],
    [
      "V-F an extension adds at most 15 s",
      pricedPathOf("V-F"),
      { resolution: "720p", length_seconds: 20, video: "v" },
      undefined,
      "quote: body.length_seconds: must be 5 to 15 when video is given",
    ],
    [
      "V-G unknown mode",
      pricedPathOf("V-G"),
      { resolution: "480p", mode: "turbo", length_seconds: 5 },
      undefined,
      "quote: body.mode: must be one of cost, speed, quality",
    ],
    ["lip sync without audio", pricedPathOf("LS-A"), { image: "i" }, undefined, "quote: body.audio: is required"],
    [
      "lip sync audio over 120 s",
      pricedPathOf("LS-A"),
      { audio: "a", image: "i" },
      { audio: 121 },
      "quote: media.audio: must be at most 120 seconds",
    ],
    [
      "motion control over 10 s with character_orientation image",
      pricedPathOf("MC-A"),
      { image: "i", video: "v", character_orientation: "image" },
      { video: 12 },
      "quote: media.video: must be 3 to 10 seconds",
    ],
    [
      "depth map over 30 s",
      pricedPathOf("DM-A"),
      { video: "v" },
      { video: 31 },
      "quote: media.video: must be at most 30 seconds",
    ],
    [
      "depth map size outside the enum",
      pricedPathOf("DM-A"),
      { video: "v", size: "huge" },
      { video: 5 },
      "quote: body.size: must be one of small, base, large",
    ],
    [
      "D-A texture_quality outside the enum",
      pricedPathOf("D-A"),
      { texture_quality: "high" },
      undefined,
      "quote: body.texture_quality: must be one of standard, detailed",
    ],
    [
      "a duration for a route without media",
      pricedPathOf("I-A"),
      { prompt: "p" },
      { video: 3 },
      `quote: media.video: ${pricedPathOf("I-A")} takes no media durations or facts`,
    ],
  ];
  for (const [name, path, body, media, message] of cases) {
    it(name, () => {
      expect(() => quote(path as PricedPath, body as QuoteBody, media as never)).toThrow(message);
    });
  }
});

describe("rates the seed does not show, of prices whose form it shows (V-B, V-C, A-A)", () => {
  const vb = pricedPathOf("V-B");
  const vc = pricedPathOf("V-C");
  const aa = pricedPathOf("A-A");
  // A target's own rates, as its declaration gives them: figures of this test, not of the seed.
  const rates: SuppliedRates = { [vb]: { "720p": 40, "1080p": 80 }, [vc]: { "1080p": 50, "4k": 90 }, [aa]: 12 };

  it("without the target's rates: credits null, charged on success, with the description's sentence", () => {
    for (const [path, body] of [
      [vb, { prompt: "p", resolution: "720p", length_seconds: 5 }],
      [vc, { prompt: "p", resolution: "1080p", length_seconds: 5 }],
      [aa, {}],
    ] as const) {
      const result = quote(path, body as never);
      expect(result.credits, path).toBeNull();
      expect(result.charged, path).toBe("on-success");
      expect(result.reason, path).toMatch(/not shown/);
    }
  });

  it("V-B: price per output second by resolution; input media is free", () => {
    expect(quote(vb, { prompt: "p", resolution: "720p", length_seconds: 5 }, undefined, rates).credits).toBe(200);
    expect(quote(vb, { prompt: "p", resolution: "1080p", length_seconds: 5 }, undefined, rates).credits).toBe(400);
    const withInputs = { prompt: "p", resolution: "720p", length_seconds: 5, reference_images: ["a", "b"] };
    expect(quote(vb, withInputs, undefined, rates).credits).toBe(200);
    // A resolution whose rate the target did not give stays unpriced.
    expect(quote(vb, { prompt: "p", resolution: "480p", length_seconds: 5 }, undefined, rates).credits).toBeNull();
  });

  it("V-C: resolution prices differ; video-edit input at half the output per-second rate, in addition", () => {
    expect(quote(vc, { prompt: "p", resolution: "4k", length_seconds: 8 }, undefined, rates).credits).toBe(720);
    // 5 s of output at 50, and 7 s of input video at 25.
    const edit = { prompt: "p", resolution: "1080p", length_seconds: 5, video: "v" };
    expect(quote(vc, edit, { video: 7 }, rates).credits).toBe(425);
  });

  it("A-A: per second of the input video's measured duration, 10-second minimum", () => {
    expect(quote(aa, { video: "v" }, { video: 7 }, rates).credits).toBe(120);
    expect(quote(aa, { video: "v" }, { video: 17 }, rates).credits).toBe(204);
  });

  it("a rate keyed by a value its field does not take, or for a route whose rates are shown, is an error naming it", () => {
    expect(() => quote(vb, {}, undefined, { [vb]: { "2k": 3 } })).toThrow(`rates.${vb}.2k: resolution must be one of`);
    expect(() => quote(vb, {}, undefined, { [aa]: { "720p": 3 } })).toThrow(`rates.${aa}: must be a number`);
    expect(() => quote(vb, {}, undefined, { [pricedPathOf("I-A")]: 3 })).toThrow(
      "must be a route whose rate is not shown",
    );
  });
});
