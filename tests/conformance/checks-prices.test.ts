/**
 * The prices check (conformance/checks/prices.ts): jobs whose bodies cover every rate of each shown
 * price table, every unit the price is per, every surcharge beyond free items and the inputs the
 * price does not name, run in the billing check's measurement; where the balance there did not fall
 * by every quote, measured again route by route and then job by job, naming the job charged
 * otherwise. Specification, What the service does: "Prices are the standard credit price before plan
 * discounts"; "Credits are charged only on success". The expected jobs and their prices are written
 * out by hand from the specification's price lists (I-A: "Price per image by size: 768px = 11,
 * 1K = 12, 1.5K = 15, 2K = 19, 4K = 48 credits"; "Any `num_images` above 1 is billed per image";
 * depth maps: "Price per second of input, rounded up to whole seconds, 5-second minimum"; ...).
 * The check is driven on a session of the test's own: its plan read off `spend` and `blockedBy`,
 * its run against a tiny HTTP target of the test's own that charges as each test says, beside a
 * stand-in for the billing check's measurement that gives the verdict the test wants.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { STAGE } from "../../conformance/check.ts";
import { prices } from "../../conformance/checks/prices.ts";
import { suppliedRatesOf, type TargetConfig } from "../../conformance/config.ts";
import type { MeasuredCharge } from "../../conformance/coordination.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { loadBundle } from "../../model/document.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession, NOWHERE } from "./support/check-session.ts";
import { serveOnLoopback } from "../support/loopback-server.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);

type Body = Record<string, unknown>;

const createOf = (label: string, of = contract): ContractOperation =>
  of.operations.find((op) => op.create?.label === label) as ContractOperation;
const routeOf = (label: string): string => createOf(label).route;

const RATES = (model: string) => `${model}: each rate of the price table is charged its quote`;
const PER_UNIT = (model: string, field: string) => `${model}: the price is charged per ${field}`;
const BEYOND_FREE = (model: string, field: string, free: number) =>
  `${model}: each of ${field} beyond the first ${free} is charged`;
const FREE_INPUTS = (model: string) => `${model}: the inputs the price does not name are free`;
const MEDIA_SECONDS = (model: string, field: string) => `${model}: each second of ${field} is charged`;
const HELD = (model: string, fields: string) => `${model}: the held price adds ${fields}`;

/** Declared rates of the models whose rates the description does not show (V-B, V-C, A-A). */
const RATES_DECLARED = {
  "V-B": { "480p": 10, "720p": 20, "1080p": 40 },
  "V-C": { "480p": 30, "720p": 50, "1080p": 70, "4k": 90 },
  "A-A": 12,
};

/** Polls at once and judges a job on its first terminal poll: no waiting in these tests. */
const QUICK_POLLS = { poll: { intervalMs: 1, timeoutSeconds: 10, stablePolls: 0 } };

/**
 * A session of the test's own, its contract quoting the declared `rates`, sending the requests the
 * description holds valid to `target` (where a validation proxy would be), the others nowhere.
 */
function sessionOf(config: Partial<TargetConfig> = {}, target = NOWHERE, of = contract): Session {
  const full: TargetConfig = { ...declared, ...QUICK_POLLS, ...config };
  return checkSession({
    contract: of.withRates(suppliedRatesOf(full, of)),
    config: full,
    target,
    targetUrl: NOWHERE,
    proxied: false,
  });
}

/** The check's planned jobs: `what` and the quote of each, in order. */
const planned = (session: Session): Array<[string, number | null]> =>
  (prices.spend?.(session) ?? []).map((spend) => [spend.what, spend.price.credits]);

// I-A's price per image by size (Image creation, Variant I-A).
const I_A_RATES: Record<string, number> = { "768px": 11, "1K": 12, "1.5K": 15, "2K": 19, "4K": 48 };
/** I-A's honest charge: the size's rate times the images (default 1K, 1 image). */
const iaCharge = (body: Body): number => (I_A_RATES[String(body.size ?? "1K")] ?? 0) * Number(body.num_images ?? 1);
/** I-E's honest charge: a flat 40 credits per image. */
const ieCharge = (body: Body): number => 40 * Number(body.num_images ?? 1);

/** The I-A jobs of the plan, each with the two images and the two free reference images of "edit-with-references". */
const I_A_JOBS: Array<[string, number]> = [
  ["size 768px, num_images 2, with reference_images", 22],
  ["size 1K, num_images 2, with reference_images", 24],
  ["size 1.5K, num_images 2, with reference_images", 30],
  ["size 2K, num_images 2, with reference_images", 38],
  ["size 4K, num_images 2, with reference_images", 96],
];

describe("the prices check's jobs, at the declaration of the sandbox", () => {
  it("covers every rate, per-unit charge, surcharge and free input of each shown price, quoted by hand", () => {
    const jobs = (label: string, list: Array<[string, number]>): Array<[string, number]> =>
      list.map(([what, credits]) => [`${routeOf(label)} (${what})`, credits]);
    expect(planned(sessionOf())).toEqual([
      ...jobs("I-A", I_A_JOBS),
      // I-B: one image only; low 1K = 50, low 2K = 80, medium 1K = 80, medium 2K = 100; the input image free.
      ...jobs("I-B", [
        ["quality low, size 1K, num_images 1, with image", 50],
        ["quality low, size 2K, num_images 1, with image", 80],
        ["quality medium, size 1K, num_images 1, with image", 80],
        ["quality medium, size 2K, num_images 1, with image", 100],
      ]),
      // I-C: a flat 25 per image; its cut-out example sends one image, the job two.
      ...jobs("I-C", [["num_images 2, with reference_images", 50]]),
      // I-E: a flat 40 per image, three images.
      ...jobs("I-E", [["num_images 3, with reference_images", 120]]),
      // I-J: 55 / 65 / 90 / 130 / 790 per image by size, two images.
      ...jobs("I-J", [
        ["size 768px, num_images 2, with reference_images", 110],
        ["size 1K, num_images 2, with reference_images", 130],
        ["size 1.5K, num_images 2, with reference_images", 180],
        ["size 2K, num_images 2, with reference_images", 260],
        ["size 4K, num_images 2, with reference_images", 1580],
      ]),
      // I-K: 45 / 70 / 150 per image by size, google_search 10 per image, image_search 20 in total; three images.
      ...jobs("I-K", [
        ["size 1K, num_images 3, with reference_images", 3 * 45 + 3 * 10 + 20],
        ["size 2K, num_images 3, with reference_images", 3 * 70 + 3 * 10 + 20],
        ["size 4K, num_images 3, with reference_images", 3 * 150 + 3 * 10 + 20],
      ]),
      // V-A: per output second 480p = 65, 768p = 105, 1080p = 210, 2k = 420 (default 5 s); reference
      // and extended video 170 per input second (the declared 6 s clip); each reference image beyond two 50.
      ...jobs("V-A", [
        ["resolution 480p, reference_videos of 6 s, reference_images [3 items], with reference_audios", 1395],
        ["resolution 768p, length_seconds 8, with image, with end_image", 840],
        ["resolution 1080p, length_seconds 10, with audio", 2100],
        ["resolution 2k, length_seconds 10, video of 6 s", 5220],
      ]),
      // V-F: per output second 200 / 325 / 380 / 555, extensions per new second 285 / 365 / 420 / 610.
      ...jobs("V-F", [
        ["resolution 720p, length_seconds 8, with image, with end_image", 1600],
        ["resolution 1080p, length_seconds 10, with video", 3650],
        ["resolution 1440p, length_seconds 8, with image, with end_image", 3040],
        ["resolution 4K, length_seconds 10, with video", 6100],
      ]),
      // V-G: per output second at 480p 15 / 30 / 60, at 768p 37 / 52 / 112 by mode; 15 s.
      ...jobs("V-G", [
        ["resolution 480p, mode cost, length_seconds 15, with image, with end_image", 225],
        ["resolution 480p, mode speed, length_seconds 15, with image, with end_image", 450],
        ["resolution 480p, mode quality, length_seconds 15, with image, with end_image", 900],
        ["resolution 768p, mode cost, length_seconds 15, with image, with end_image", 555],
        ["resolution 768p, mode speed, length_seconds 15, with image, with end_image", 780],
        ["resolution 768p, mode quality, length_seconds 15, with image, with end_image", 1680],
      ]),
      // MC-A: 130 per second of the reference video.
      ...jobs("MC-A", [["video of 6 s, with image", 780]]),
      // DM-A: 20 / 30 / 40 per input second, rounded up, 5-second minimum: 6 s, 3 s billed 5, 6.4 s billed 7.
      ...jobs("DM-A", [
        ["size small, video of 6 s", 120],
        ["size base, video of 3 s", 150],
        ["size large, video of 6.4 s", 280],
      ]),
      // VU-A, the declared upscales: a 1080p result at 188 a second in precise mode, 267 in creative.
      ...jobs("VU-A", [
        ["mode precise, a 1080p result, video of 6 s", 1128],
        ["mode creative, a 1080p result, video of 3 s", 801],
      ]),
      // D-B's held price: 1600 textured, rigging adds 270, animation 160.
      [`${routeOf("D-B")} (rigging, animation)`, 2030],
    ]);
  });

  it("plans its spend on the main key, each quote exact", () => {
    const spends = prices.spend?.(sessionOf({ models: ["I-A", "D-B"] })) ?? [];
    expect(spends.map((spend) => [spend.key, spend.price.atMost])).toEqual(Array(6).fill(["main", false]));
  });

  it("covers the declared rates of V-B, V-C (its video-edit input at half the output rate) and A-A (10-second minimum)", () => {
    const session = sessionOf({ models: ["V-B", "V-C", "A-A"], rates: RATES_DECLARED });
    expect(planned(session)).toEqual([
      // V-B: the declared rate per output second; input media free.
      [`${routeOf("V-B")} (resolution 480p, length_seconds 6, with image, with end_image)`, 6 * 10],
      [`${routeOf("V-B")} (resolution 720p, length_seconds 10, with reference_videos)`, 10 * 20],
      [`${routeOf("V-B")} (resolution 1080p, length_seconds 10, with reference_videos)`, 10 * 40],
      // V-C: whole-second inputs only (its rounding is not shown), 6 s and 3 s in turn; 4k not in video-edit mode.
      [
        `${routeOf("V-C")} (resolution 480p, length_seconds 8, video of 6 s, with reference_images, with audio)`,
        8 * 30 + 6 * 15,
      ],
      [
        `${routeOf("V-C")} (resolution 720p, length_seconds 8, video of 3 s, with reference_images, with audio)`,
        8 * 50 + 3 * 25,
      ],
      [
        `${routeOf("V-C")} (resolution 1080p, length_seconds 8, video of 6 s, with reference_images, with audio)`,
        8 * 70 + 6 * 35,
      ],
      [`${routeOf("V-C")} (resolution 4k, length_seconds 8)`, 8 * 90],
      // A-A: 6 s of input video billed as the 10-second minimum.
      [`${routeOf("A-A")} (video of 6 s)`, 10 * 12],
    ]);
  });

  it("checks only the resolutions whose rates are declared", () => {
    const session = sessionOf({ models: ["V-B"], rates: { "V-B": { "720p": 20 } } });
    // Still a job per example showing free inputs, each at the one declared resolution ("references"
    // has no length, so the next, "video-edit", stands in for it, and is not sent a second time).
    expect(planned(session)).toEqual([
      [`${routeOf("V-B")} (resolution 720p, length_seconds 6, with image, with end_image)`, 6 * 20],
      [`${routeOf("V-B")} (resolution 720p, length_seconds 10, with reference_videos)`, 10 * 20],
    ]);
  });
});

describe("the prices check's jobs and the declared media inputs (mediaInputs)", () => {
  const video = (seconds: number | undefined, name = `clip-${seconds}s`) => ({
    kind: "video",
    url: `https://media.example/${name}.mp4`,
    ...(seconds === undefined ? {} : { seconds }),
  });

  it("sends the inputs of the field's kind with measured seconds in turn, past no limit; rounded up where the price says so", () => {
    // DM-A takes up to 30 s and rounds up: an audio input, one without seconds and one of 31 s are not sent.
    const session = sessionOf({
      models: ["DM-A"],
      mediaInputs: [
        { kind: "audio", url: "https://media.example/voice.mp3", seconds: 8 },
        video(undefined, "unmeasured"),
        video(31),
        video(30),
        video(4.5),
      ],
    });
    expect(planned(session)).toEqual([
      [`${routeOf("DM-A")} (size small, video of 30 s)`, 30 * 20],
      [`${routeOf("DM-A")} (size base, video of 4.5 s)`, 5 * 30],
      [`${routeOf("DM-A")} (size large, video of 30 s)`, 30 * 40],
    ]);
  });

  it("sends a job no input that its route does not take in that form, leaving its rate to the skips", () => {
    // DM-A's video is a URL: the second input, a data URI, would be the base size's.
    const session = sessionOf({
      models: ["DM-A"],
      mediaInputs: [video(6), { kind: "video", url: "data:video/mp4;base64,AAAA", seconds: 3 }],
    });
    expect(planned(session)).toEqual([
      [`${routeOf("DM-A")} (size small, video of 6 s)`, 6 * 20],
      [`${routeOf("DM-A")} (size large, video of 6 s)`, 6 * 40],
    ]);
  });

  it("sends no input shorter than the field allows: MC-A's reference video is 3 to 30 s", () => {
    const session = sessionOf({ models: ["MC-A"], mediaInputs: [video(2), video(3)] });
    expect(planned(session)).toEqual([[`${routeOf("MC-A")} (video of 3 s, with image)`, 3 * 130]]);
  });

  it("sends only whole seconds where the price does not show how it rounds (V-C's video-edit input)", () => {
    const session = sessionOf({ models: ["V-C"], rates: RATES_DECLARED, mediaInputs: [video(6.4), video(5)] });
    expect(planned(session).map(([what]) => what)).toEqual([
      `${routeOf("V-C")} (resolution 480p, length_seconds 8, video of 5 s, with reference_images, with audio)`,
      `${routeOf("V-C")} (resolution 720p, length_seconds 8, video of 5 s, with reference_images, with audio)`,
      `${routeOf("V-C")} (resolution 1080p, length_seconds 8, video of 5 s, with reference_images, with audio)`,
      `${routeOf("V-C")} (resolution 4k, length_seconds 8)`,
    ]);
  });

  it("sends a list field one declared input, and leaves out the fields no input fits", () => {
    // 16 s fits V-A's extension (up to 60 s), not a reference video (up to 15 s): the reference job goes without one.
    const session = sessionOf({ models: ["V-A"], mediaInputs: [video(16)] });
    expect(planned(session)).toEqual([
      [`${routeOf("V-A")} (resolution 480p, length_seconds 8, with image, with end_image)`, 8 * 65],
      // The reference job without its reference video: 5 s by default, one reference image beyond the free two.
      [`${routeOf("V-A")} (resolution 768p, reference_images [3 items], with reference_audios)`, 5 * 105 + 50],
      [`${routeOf("V-A")} (resolution 1080p, length_seconds 10, with audio)`, 10 * 210],
      // The source's first 15 seconds are billed as input video.
      [`${routeOf("V-A")} (resolution 2k, length_seconds 10, video of 16 s)`, 10 * 420 + 15 * 170],
    ]);
  });
});

/**
 * A description whose prices are made up to reach what the real one does not: I-C 25 per image at 1K
 * (one image only there), 30 at 2K, 50 at a 4K it is given; I-K by google_search (a boolean: 55 with
 * it, 45 without); I-E by num_images (an integer: 40 for one, 100 for three); I-J by num_images typed
 * as a number (60 for one, 110 for two), with a surcharge on a field no example sends; I-H a flat 30;
 * I-B a fee whose rate is not shown; V-A's reference images free up to three; surcharges of D-A its
 * examples do not send but that are not charged for being present; a held surcharge of LS-A whose
 * quote bounds the audio's seconds, and one of D-B that has no quote.
 */
function madeUpPrices(): Contract {
  const doc = structuredClone(loadBundle());
  const post = (label: string) => doc.paths[createOf(label).path]?.post as unknown as Record<string, unknown>;
  const pricing = (label: string) => post(label)["x-pricing"] as { components: unknown[] };
  const schemaOf = (label: string) =>
    (post(label).requestBody as { content: Record<string, { schema: Record<string, unknown> }> }).content[
      "application/json"
    ]?.schema as { properties: Record<string, Record<string, unknown>>; allOf?: unknown[] };
  pricing("I-C").components = [
    {
      label: "output image",
      rateBy: { fields: ["size"], table: { "1K": 25, "2K": 30, "4K": 50 } },
      per: { field: "num_images" },
    },
  ];
  Object.assign(schemaOf("I-C").properties.size ?? {}, { enum: ["1K", "2K", "4K"] });
  schemaOf("I-C").allOf?.push({
    if: { required: ["size"], properties: { size: { const: "1K" } } },
    then: { properties: { num_images: { maximum: 1 } } },
  });
  pricing("I-K").components = [
    { label: "output image", rateBy: { fields: ["google_search"], table: { true: 55, false: 45 } } },
  ];
  pricing("I-E").components = [{ label: "output image", rateBy: { fields: ["num_images"], table: { 1: 40, 3: 100 } } }];
  pricing("I-J").components = [
    { label: "output image", rateBy: { fields: ["num_images"], table: { 1: 60, 2: 110 } } },
    { label: "watermark", rate: 7, when: [{ field: "watermark", present: true }] },
  ];
  // A rate table is keyed by an enum's values (or a boolean's).
  Object.assign(schemaOf("I-E").properties.num_images ?? {}, { enum: [1, 3] });
  Object.assign(schemaOf("I-J").properties.num_images ?? {}, { type: "number", enum: [1, 2] });
  schemaOf("I-J").properties.watermark = {};
  delete post("I-H")["x-not-shown"];
  post("I-H")["x-pricing"] = { charged: "on-success", components: [{ label: "output image", rate: 30 }] };
  post("I-B")["x-not-shown"] = { price: "A fee of I-B is not shown." };
  pricing("I-B").components.push({ label: "fee", rateNotShown: { by: [] } });
  const vaBeyond = pricing("V-A").components.find(
    (component) => (component as { per?: { itemsBeyond?: unknown } }).per?.itemsBeyond,
  ) as { label: string; per: { itemsBeyond: { free: number } } };
  vaBeyond.label = "reference images beyond the first three";
  vaBeyond.per.itemsBeyond.free = 3;
  pricing("D-A").components.push(
    { label: "fast", rate: 3, when: [{ field: "fast_mode", equals: true }] },
    { label: "no slow", rate: 4, when: [{ field: "slow_mode", present: false }] },
    { label: "quality named", rate: 5, when: [{ field: "texture_quality", present: true }] },
  );
  schemaOf("D-A").properties.fast_mode = { type: "boolean" };
  schemaOf("D-A").properties.slow_mode = {};
  pricing("LS-A").components.push({ label: "extra", rate: 5, when: [{ field: "extra_option", present: true }] });
  schemaOf("LS-A").properties.extra_option = {};
  // Sent as true (its type not shown), a string field makes the quote fail.
  pricing("D-B").components.push({
    label: "voice",
    rate: 2,
    per: { mediaSeconds: "voice" },
    when: [{ field: "voice", present: true }],
  });
  schemaOf("D-B").properties.voice = { type: "string", "x-media": { kind: "audio" } };
  return new Contract(doc);
}

describe("the prices check's jobs on a description of made-up prices", () => {
  let madeUp: Contract;
  beforeAll(() => {
    madeUp = madeUpPrices();
  });

  it("sends each rate's key as the field's type: a boolean, an integer, a number; a non-held price's surcharges only as its examples do", () => {
    const session = sessionOf({ models: ["I-E", "I-J", "I-K"] }, NOWHERE, madeUp);
    expect(planned(session)).toEqual([
      [`${routeOf("I-E")} (num_images 1, with reference_images)`, 40],
      [`${routeOf("I-E")} (num_images 3, with reference_images)`, 100],
      [`${routeOf("I-J")} (num_images 1, with reference_images)`, 60],
      [`${routeOf("I-J")} (num_images 2, with reference_images)`, 110],
      [`${routeOf("I-K")} (google_search true, with reference_images)`, 55],
      [`${routeOf("I-K")} (google_search false, with reference_images)`, 45],
    ]);
  });

  it("sends one image more than one once: in the first job where it may, none after", () => {
    // 1K allows one image only: the 2K job sends two, the 4K job one.
    const session = sessionOf({ models: ["I-C"] }, NOWHERE, madeUp);
    expect(planned(session)).toEqual([
      [`${routeOf("I-C")} (size 1K, num_images 1, with reference_images)`, 25],
      [`${routeOf("I-C")} (size 2K, num_images 2, with reference_images)`, 2 * 30],
      [`${routeOf("I-C")} (size 4K, num_images 1, with reference_images)`, 50],
    ]);
  });

  it("sends one example where none shows anything of the price but its rate", () => {
    const session = sessionOf({ models: ["I-H"] }, NOWHERE, madeUp);
    expect(planned(session)).toEqual([[`${routeOf("I-H")} (the example)`, 30]]);
  });

  it("skips the rates of a price one of whose rates is not shown, planning no job of it", async () => {
    const session = sessionOf({ models: ["I-B"] }, NOWHERE, madeUp);
    expect(planned(session)).toEqual([]);
    const run = await pricesRun({ models: ["I-B"] }, {}, "agrees", madeUp);
    expect(run.results).toEqual([
      [
        routeOf("I-B"),
        RATES("I-B"),
        "skip",
        "not declared: the target's own rates of I-B (rates), which the description does not show",
      ],
    ]);
  });

  it("states no surcharge of a list not beyond its free items: V-A's three reference images, three free", async () => {
    const run = await pricesRun({ models: ["V-A"] }, {}, "agrees", madeUp);
    expect(run.results.map(([, name]) => name).sort()).toEqual(
      [
        RATES("V-A"),
        FREE_INPUTS("V-A"),
        MEDIA_SECONDS("V-A", "reference_videos"),
        PER_UNIT("V-A", "length_seconds"),
        MEDIA_SECONDS("V-A", "video"),
      ].sort(),
    );
  });

  it("sends none of a held price's surcharges that are not charged for being present, or that an example sends", () => {
    expect(prices.spend?.(sessionOf({ models: ["D-A"] }, NOWHERE, madeUp))).toEqual([]);
  });

  it("skips a held surcharge that has no exact quote, saying why, and sends nothing", async () => {
    const run = await pricesRun({ models: ["LS-A", "D-B"] }, {}, "agrees", madeUp);
    expect(run.results).toEqual([
      [
        routeOf("D-B"),
        HELD("D-B", "rigging and animation and voice"),
        "skip",
        "the request has no exact quote (quote: body.voice: must be a string)",
      ],
      [routeOf("LS-A"), HELD("LS-A", "extra_option"), "skip", "the request has no exact quote (a media duration)"],
    ]);
    expect(run.creates).toEqual([]);
  });
});

/**
 * DM-A made up with surcharges no one example shows all of: three lists beyond their free items, two
 * examples sending `masks` and one more each (`layers`, `styles`), and a second medium charged by the
 * second (`voice`), sent beside `video` by a third.
 */
function madeUpSurcharges(): Contract {
  const doc = structuredClone(loadBundle());
  const post = doc.paths[createOf("DM-A").path]?.post as unknown as Record<string, unknown>;
  const pricing = post["x-pricing"] as { components: unknown[] };
  const json = (post.requestBody as { content: Record<string, { schema: Body; examples: Record<string, unknown> }> })
    .content["application/json"]!;
  const properties = json.schema.properties as Record<string, unknown>;
  const list = { type: "array", items: { type: "string" } };
  Object.assign(properties, {
    masks: list,
    layers: list,
    styles: list,
    voice: { type: "string", "x-media": { kind: "audio" } },
  });
  pricing.components.push(
    { label: "masks beyond the first", rate: 3, per: { itemsBeyond: { field: "masks", free: 1 } } },
    { label: "layers beyond the first", rate: 5, per: { itemsBeyond: { field: "layers", free: 1 } } },
    { label: "styles beyond the first", rate: 4, per: { itemsBeyond: { field: "styles", free: 1 } } },
    { label: "voice", rate: 2, per: { mediaSeconds: "voice" }, when: [{ field: "voice", present: true }] },
  );
  const video = "https://files.example.com/street.mp4";
  json.examples = {
    "masks-and-layers": { value: { video, masks: ["m1", "m2"], layers: ["l1", "l2"] } },
    "masks-and-styles": { value: { video, masks: ["m1", "m2"], styles: ["s1", "s2"] } },
    "with-voice": { value: { video, voice: "https://files.example.com/voice.mp3" } },
  };
  return new Contract(doc);
}

describe("the prices check's jobs on a description of made-up surcharges", () => {
  const video = { kind: "video", url: "https://media.example/street.mp4", seconds: 6 };
  const voice = { kind: "audio", url: "https://media.example/voice.mp3", seconds: 8 };

  it("chooses one example more for a list beyond its free items that the first does not send", () => {
    const session = sessionOf({ models: ["DM-A"], mediaInputs: [video] }, NOWHERE, madeUpSurcharges());
    // 6 s of video at small, base, large (20, 30, 40 a second); one item beyond the first of each list.
    expect(planned(session)).toEqual([
      [`${routeOf("DM-A")} (size small, video of 6 s, masks [2 items], layers [2 items])`, 6 * 20 + 3 + 5],
      [`${routeOf("DM-A")} (size base, video of 6 s, masks [2 items], styles [2 items])`, 6 * 30 + 3 + 4],
      [`${routeOf("DM-A")} (size large, video of 6 s, masks [2 items], layers [2 items])`, 6 * 40 + 3 + 5],
    ]);
  });

  it("chooses one example more for a medium it charges by the second that those do not send", () => {
    const session = sessionOf({ models: ["DM-A"], mediaInputs: [video, voice] }, NOWHERE, madeUpSurcharges());
    expect(planned(session)).toEqual([
      [`${routeOf("DM-A")} (size small, video of 6 s, masks [2 items], layers [2 items])`, 6 * 20 + 3 + 5],
      [`${routeOf("DM-A")} (size base, video of 6 s, masks [2 items], styles [2 items])`, 6 * 30 + 3 + 4],
      [`${routeOf("DM-A")} (size large, video of 6 s, voice of 8 s)`, 6 * 40 + 8 * 2],
    ]);
  });
});

describe("the prices check's upscale jobs, from the declared upscaleRequests", () => {
  it("sends each declared upscale whose body holds its input video and whose seconds the price allows (up to 20 s)", () => {
    const session = sessionOf({
      models: ["VU-A"],
      upscaleRequests: [
        { body: { upscale_factor: 2, mode: "precise" }, mode: "precise", seconds: 6 },
        { body: { video: ["https://media.example/a.mp4"], mode: "precise" }, mode: "precise", seconds: 6 },
        { body: { video: "https://media.example/long.mp4", mode: "precise" }, mode: "precise", seconds: 25 },
        { body: { video: "https://media.example/clip-4s.mp4", mode: "creative" }, mode: "creative", seconds: 4 },
      ],
    });
    // A 1080p result in creative mode: 267 credits per second.
    expect(planned(session)).toEqual([[`${routeOf("VU-A")} (mode creative, a 1080p result, video of 4 s)`, 4 * 267]]);
  });

  it("quotes and names each declared upscale by its own seconds, where two send the same video", () => {
    const clip = "https://media.example/clip.mp4";
    const session = sessionOf({
      models: ["VU-A"],
      upscaleRequests: [
        { body: { video: clip, mode: "creative" }, mode: "creative", seconds: 4 },
        { body: { video: clip, mode: "precise" }, mode: "precise", seconds: 6 },
      ],
    });
    // A 1080p result: 267 credits per second in creative mode, 188 in precise.
    expect(planned(session)).toEqual([
      [`${routeOf("VU-A")} (mode creative, a 1080p result, video of 4 s)`, 4 * 267],
      [`${routeOf("VU-A")} (mode precise, a 1080p result, video of 6 s)`, 6 * 188],
    ]);
  });

  it("has no upscale job to follow where the create response names no id (jobIdFields)", () => {
    expect(planned(sessionOf({ models: ["VU-A"], jobIdFields: undefined }))).toEqual([]);
  });
});

/** What a run of the check left: its results, progress lines, stages, and what the target saw. */
interface PricesRun {
  /** `[route, name, outcome, detail]` of each result. */
  readonly results: Array<[string, string, string, string | undefined]>;
  /** The groups of the results. */
  readonly groups: string[];
  /** The curl line of each failure, by name. */
  readonly curls: Record<string, string | undefined>;
  readonly statuses: string[];
  readonly stages: number[];
  /** The charges reported to the billing measurement: what, credits, charged. */
  readonly charges: Array<[string, number, boolean]>;
  /** Every create the target was sent: its path and body. */
  readonly creates: Array<{ path: string; body: Body }>;
}

/** How the test's target answers. Creates are numbered from 1 in the order the target receives them. */
interface Behaviour {
  /** Credits a succeeded job takes off the balance (none: nothing). */
  charge?(path: string, body: Body, create: number): number;
  /** Credits a job that does not succeed takes all the same (none: nothing, as the specification says). */
  chargeFailed?: number;
  /** The create's answer instead of an accepted job's: its status and JSON body (or a body that is not JSON). */
  refuse?(path: string, body: Body, create: number): { status: number; json?: unknown; text?: string } | undefined;
  /** What the accepted create's answer adds (a held price's credits), or takes out (undefined). */
  created?(path: string, body: Body): Body;
  /** The job's terminal status (default succeeded); `processing` for a job that outlasts the run. */
  ends?(path: string, body: Body, create: number): string;
  /** The poll's status code (default 200). */
  pollStatus?(path: string): number;
  /** The credits route's answer instead of the balance, by read (from 1). */
  credits?(read: number): { status: number; json: unknown } | undefined;
}

/** A target of the test's own: accepts creates, ends their jobs on the first poll, charges as told. */
async function fakeTarget(behaviour: Behaviour) {
  let balance = 1_000_000;
  let reads = 0;
  const creates: Array<{ path: string; body: Body }> = [];
  const jobs = new Map<string, { path: string; body: Body; create: number; status?: string }>();
  const server = await serveOnLoopback(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const reply = (status: number, json: unknown) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    const path = request.url ?? "/";
    if (request.method === "GET" && path === "/v1/account/credits") {
      const instead = behaviour.credits?.(++reads);
      return instead ? reply(instead.status, instead.json) : reply(200, { total_available: balance });
    }
    if (request.method === "POST") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
      creates.push({ path, body });
      const create = creates.length;
      const refused = behaviour.refuse?.(path, body, create);
      if (refused?.text !== undefined) return response.writeHead(refused.status).end(refused.text);
      if (refused) return reply(refused.status, refused.json);
      const id = `job-${create}`;
      jobs.set(id, { path, body, create });
      return reply(200, {
        id,
        message: "Job accepted.",
        model: "m",
        status: "pending",
        ...behaviour.created?.(path, body),
      });
    }
    const job = jobs.get(path.split("/").pop() ?? "");
    if (!job) return reply(404, { error: { type: "invalid_request_error", code: "not_found", message: "No job." } });
    const pollStatus = behaviour.pollStatus?.(job.path) ?? 200;
    if (pollStatus !== 200) return reply(pollStatus, { error: { type: "api_error", code: "x", message: "down" } });
    if (job.status === undefined) {
      job.status = behaviour.ends?.(job.path, job.body, job.create) ?? "succeeded";
      if (job.status === "succeeded") balance -= behaviour.charge?.(job.path, job.body, job.create) ?? 0;
      else balance -= behaviour.chargeFailed ?? 0;
    }
    return reply(200, { status: job.status });
  });
  return {
    url: server.url,
    creates,
    close: server.close,
  };
}

/**
 * The check run against a target answering as `behaviour` says, beside a stand-in for the billing
 * check's measurement: it takes the pledged jobs and says the balance agreed with every quote
 * (`agrees`), or not (`disagrees`); `ended`: the measurement was over before the check pledged its
 * jobs, which then run unmeasured.
 */
async function pricesRun(
  config: Partial<TargetConfig>,
  behaviour: Behaviour,
  billing: "agrees" | "disagrees" | "ended" = "agrees",
  of = contract,
): Promise<PricesRun> {
  const target = await fakeTarget(behaviour);
  try {
    const session = sessionOf(config, target.url, of);
    const statuses: string[] = [];
    const stages: number[] = [];
    const charges: MeasuredCharge[] = [];
    if (billing === "ended") await session.main.charges.measure(async () => {});
    // The check pledges its jobs before its first wait: the measurement below opens to them.
    const running = prices.run?.({
      session,
      stage: async (stage) => void stages.push(stage),
      status: (text) => statuses.push(text),
    });
    if (billing !== "ended")
      await session.main.charges.measure(async (window) => {
        window.open({ cap: session.concurrency, own: 0 });
        for (const charge of await window.settled()) {
          charges.push(charge);
          charge.verdict?.(billing === "agrees");
        }
      });
    await running;
    const all = session.results.all;
    return {
      results: all.map((result) => [result.route, result.name, result.outcome, result.detail]),
      groups: [...new Set(all.map((result) => result.group))],
      curls: Object.fromEntries(
        all.filter((result) => result.outcome === "fail").map((result) => [result.name, result.curl]),
      ),
      statuses,
      stages,
      charges: charges.map((charge) => [charge.what, charge.credits, charge.charged()]),
      creates: target.creates,
    };
  } finally {
    await target.close();
  }
}

/** `[route, name, "pass", undefined]` for each name. */
const passes = (route: string, ...names: string[]) =>
  names.map((name): [string, string, string, undefined] => [route, name, "pass", undefined]);

const I_A = routeOf("I-A");
const I_A_RESULTS = [RATES("I-A"), PER_UNIT("I-A", "num_images"), FREE_INPUTS("I-A")];

describe("the prices check against a target charging each job its quote", () => {
  it("passes I-A's rates, per-image charge and free reference images when the billing measurement agreed", async () => {
    const run = await pricesRun({ models: ["I-A"] }, { charge: (_, body) => iaCharge(body) });
    expect(run.results).toEqual(passes(I_A, ...I_A_RESULTS));
    expect(run.groups).toEqual(["prices"]);
    // Each job rode on the billing measurement with its quote, charged once it succeeded (in any order).
    const charges = run.charges.map(([what, credits, charged]) => [what.replace(/job-\d+/, "job"), credits, charged]);
    expect(charges.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual(
      I_A_JOBS.map(([, credits]) => [`${I_A} (job)`, credits, true]),
    );
    expect(run.creates.map(({ body }) => `${body.size} x ${body.num_images}`).sort()).toEqual([
      "1.5K x 2",
      "1K x 2",
      "2K x 2",
      "4K x 2",
      "768px x 2",
    ]);
    expect(run.statuses).toEqual(["5 jobs in the billing measurement"]);
    // No held price: the check does not wait for the late stage.
    expect(run.stages).toEqual([]);
  });

  it("measures the jobs again, route by route, where the billing measurement did not agree, and passes them charged their quote", async () => {
    const run = await pricesRun(
      { models: ["I-A", "I-E"] },
      { charge: (path, body) => (path === createOf("I-A").path ? iaCharge(body) : ieCharge(body)) },
      "disagrees",
    );
    expect(run.results).toEqual([
      ...passes(I_A, ...I_A_RESULTS),
      ...passes(routeOf("I-E"), RATES("I-E"), PER_UNIT("I-E", "num_images"), FREE_INPUTS("I-E")),
    ]);
    expect(run.statuses).toEqual([
      "6 jobs in the billing measurement",
      "measuring 6 jobs again, route by route",
      `measuring the 5 jobs of ${I_A}`,
      `measuring the 1 jobs of ${routeOf("I-E")}`,
    ]);
    // 6 in the sweep, then each route's together.
    expect(run.creates).toHaveLength(12);
  });

  it("measures the jobs itself where no billing measurement took them (one had ended)", async () => {
    const run = await pricesRun({ models: ["I-A"] }, { charge: (_, body) => iaCharge(body) }, "ended");
    expect(run.results).toEqual(passes(I_A, ...I_A_RESULTS));
    expect(run.charges).toEqual([]);
    expect(run.statuses.slice(1)).toEqual(["measuring 5 jobs again, route by route", `measuring the 5 jobs of ${I_A}`]);
  });
});

describe("the prices check's results at the declaration of the sandbox", () => {
  it("states, for each route, the rates, the units, the surcharges, the free inputs and the measured seconds its jobs bear on", async () => {
    const run = await pricesRun({}, { created: (path) => (path === createOf("D-B").path ? { credits: 2030 } : {}) });
    const not = (model: string) =>
      `not declared: the target's own rates of ${model} (rates), which the description does not show`;
    const images = ["I-A", "I-C", "I-E", "I-J", "I-K"].flatMap((model) =>
      passes(routeOf(model), RATES(model), PER_UNIT(model, "num_images"), FREE_INPUTS(model)),
    );
    expect(run.results).toEqual([
      ...["V-B", "V-C", "A-A"].map((model) => [routeOf(model), RATES(model), "skip", not(model)]),
      ...images.slice(0, 3),
      // I-B sends one image only: nothing per image to see.
      ...passes(routeOf("I-B"), RATES("I-B"), FREE_INPUTS("I-B")),
      ...images.slice(3),
      ...passes(
        routeOf("V-A"),
        RATES("V-A"),
        BEYOND_FREE("V-A", "reference_images", 2),
        FREE_INPUTS("V-A"),
        MEDIA_SECONDS("V-A", "reference_videos"),
        PER_UNIT("V-A", "length_seconds"),
        MEDIA_SECONDS("V-A", "video"),
      ),
      ...passes(routeOf("V-F"), RATES("V-F"), PER_UNIT("V-F", "length_seconds"), FREE_INPUTS("V-F")),
      ...passes(routeOf("V-G"), RATES("V-G"), PER_UNIT("V-G", "length_seconds"), FREE_INPUTS("V-G")),
      ...passes(routeOf("MC-A"), RATES("MC-A"), FREE_INPUTS("MC-A"), MEDIA_SECONDS("MC-A", "video")),
      ...passes(routeOf("DM-A"), RATES("DM-A"), MEDIA_SECONDS("DM-A", "video")),
      ...passes(routeOf("VU-A"), RATES("VU-A"), MEDIA_SECONDS("VU-A", "video")),
      ...passes(routeOf("D-B"), HELD("D-B", "rigging and animation")),
    ]);
    expect(run.statuses).toEqual(["39 jobs in the billing measurement"]);
    // I-K's bodies are its "both-searches" example at each size: nothing else put in.
    const example = createOf("I-K").requestExamples.find((named) => named.name === "both-searches")?.value as Body;
    expect(
      run.creates
        .filter(({ path }) => path === createOf("I-K").path)
        .map(({ body }) => body)
        .sort((a, b) => String(a.size).localeCompare(String(b.size))),
    ).toEqual(["1K", "2K", "4K"].map((size) => ({ ...example, size })));
    // The declared upscales are sent as declared.
    expect(run.creates.filter(({ path }) => path === createOf("VU-A").path).map(({ body }) => body)).toEqual(
      expect.arrayContaining((declared.upscaleRequests ?? []).map((request) => request.body)),
    );
  });
});

describe("the prices check names the job charged otherwise than its quote", () => {
  it("fails each result a job bears on, measured alone, with the balance's fall and the quote's lines", async () => {
    // 2K charged as 1.5K: 30 instead of 19 x 2 = 38.
    const run = await pricesRun(
      { models: ["I-A"] },
      { charge: (_, body) => (body.size === "2K" ? 30 : iaCharge(body)) },
      "disagrees",
    );
    const detail = `measured alone, ${I_A} with size 2K, num_images 2, with reference_images made total_available fall by 30; its quote is 38 (output image 19 x 2)`;
    expect(run.results).toEqual(I_A_RESULTS.map((name) => [I_A, name, "fail", detail]));
    expect(run.curls[RATES("I-A")]).toContain('"size":"2K"');
    expect(run.statuses.slice(3)).toEqual(
      Object.keys(I_A_RATES).map(
        (size) => `measuring ${I_A} (size ${size}, num_images 2, with reference_images) alone`,
      ),
    );
    // 5 in the sweep, 5 together, 5 alone.
    expect(run.creates).toHaveLength(15);
  });

  it("quotes every line of the job's quote: I-K's images, its google search per image and its image search", async () => {
    const I_K = routeOf("I-K");
    const rate: Record<string, number> = { "1K": 45, "2K": 70, "4K": 150 };
    // 3 images at 2K and 4K charged honestly; at 1K, 5 credits more.
    const charge = (body: Body) => 3 * (rate[String(body.size)] ?? 0) + 3 * 10 + 20 + (body.size === "1K" ? 5 : 0);
    const run = await pricesRun({ models: ["I-K"] }, { charge: (_, body) => charge(body) }, "disagrees");
    expect(run.results[0]).toEqual([
      I_K,
      RATES("I-K"),
      "fail",
      `measured alone, ${I_K} with size 1K, num_images 3, with reference_images made total_available fall by 190; its quote is 185 (output image 45 x 3 + google search 10 x 3 + image search 20 x 1)`,
    ]);
  });

  it("judges the jobs measured again that were created and succeeded, and fails the one refused there", async () => {
    // The billing measurement disagreed; measured again, the 2K job's create is refused.
    const run = await pricesRun(
      { models: ["I-A"] },
      {
        charge: (_, body) => iaCharge(body),
        refuse: (_, body, create) =>
          body.size === "2K" && create > 5 ? { status: 400, json: { error: "busy" } } : undefined,
      },
      "disagrees",
    );
    expect(run.results).toEqual([
      [
        I_A,
        "I-A: the job of size 2K, num_images 2, with reference_images is created",
        "fail",
        `the create answered 400: {"error":"busy"}`,
      ],
      ...passes(I_A, ...I_A_RESULTS),
    ]);
  });

  it("judges no charge where every job of the route failed when measured again", async () => {
    // The target charges 5 credits for a failed job: billing's verdict, not this check's.
    const run = await pricesRun(
      { models: ["I-E"] },
      {
        charge: (_, body) => ieCharge(body),
        chargeFailed: 5,
        ends: (_, __, create) => (create > 1 ? "failed" : "succeeded"),
      },
      "disagrees",
    );
    expect(run.results).toEqual([
      [
        routeOf("I-E"),
        "I-E: the job of num_images 3, with reference_images succeeds",
        "fail",
        "the job ended failed, so its charge cannot be judged",
      ],
    ]);
  });

  it("lists every job charged otherwise, the curl line showing the first of them", async () => {
    const run = await pricesRun(
      { models: ["I-A"] },
      { charge: (_, body) => iaCharge(body) + (body.size === "1.5K" || body.size === "4K" ? 1 : 0) },
      "disagrees",
    );
    const alone = (size: string, fell: number, quote: string) =>
      `measured alone, ${I_A} with size ${size}, num_images 2, with reference_images made total_available fall by ${fell}; its quote is ${quote}`;
    expect(run.results[0]).toEqual([
      I_A,
      RATES("I-A"),
      "fail",
      `${alone("1.5K", 31, "30 (output image 15 x 2)")}; ${alone("4K", 97, "96 (output image 48 x 2)")}`,
    ]);
    expect(run.curls[RATES("I-A")]).toContain('"size":"1.5K"');
  });

  it("names the jobs together where the balance fell by more than their quotes yet each, alone, was charged its quote", async () => {
    // 5 credits more, once, for a job of the route's measurement together (creates 6 to 10).
    const run = await pricesRun(
      { models: ["I-A"] },
      { charge: (_, body, create) => iaCharge(body) + (create === 6 ? 5 : 0) },
      "disagrees",
    );
    const all = I_A_JOBS.map(([what, credits]) => `${what}: ${credits} (output image ${credits / 2} x 2)`).join("; ");
    expect(run.results).toEqual([
      [
        I_A,
        RATES("I-A"),
        "fail",
        `total_available fell by 215 for jobs quoted 210 in all (${all}), yet each, measured alone, was charged its quote`,
      ],
      ...passes(I_A, PER_UNIT("I-A", "num_images"), FREE_INPUTS("I-A")),
    ]);
  });

  it("judges no job that could not be measured alone (it failed there), and names the others' sum", async () => {
    // The 2K job fails when measured alone (its third create, the 14th in all); 3 more credits together.
    const run = await pricesRun(
      { models: ["I-A"] },
      {
        charge: (_, body, create) => iaCharge(body) + (create === 6 ? 3 : 0),
        ends: (_, body, create) => (body.size === "2K" && create > 10 ? "failed" : "succeeded"),
      },
      "disagrees",
    );
    expect(run.results).toEqual([
      [
        I_A,
        `I-A: the job of size 2K, num_images 2, with reference_images succeeds`,
        "fail",
        "the job ended failed, so its charge cannot be judged",
      ],
      [I_A, RATES("I-A"), "fail", expect.stringMatching(/^total_available fell by 213 for jobs quoted 210 in all/)],
      ...passes(I_A, PER_UNIT("I-A", "num_images"), FREE_INPUTS("I-A")),
    ]);
  });

  it("fails the route's rates where the balance cannot be read, and measures no further route", async () => {
    const run = await pricesRun(
      { models: ["I-A", "I-E"] },
      { credits: () => ({ status: 500, json: { error: "down" } }) },
      "disagrees",
    );
    expect(run.results).toEqual([
      [I_A, RATES("I-A"), "fail", `GET /v1/account/credits answered 500: {"error":"down"}`],
    ]);
    expect(run.creates).toHaveLength(6);
  });

  it("fails the job's first result where the balance cannot be read once it ran alone", async () => {
    const run = await pricesRun(
      { models: ["I-A"] },
      {
        charge: (_, body) => iaCharge(body) + 1,
        // The route's two reads together, then the first job's before it runs alone; not the one after.
        credits: (read) => (read === 4 ? { status: 503, json: { error: "busy" } } : undefined),
      },
      "disagrees",
    );
    expect(run.results).toEqual([
      [I_A, RATES("I-A"), "fail", `GET /v1/account/credits answered 503: {"error":"busy"}`],
    ]);
  });
});

describe("the prices check and jobs whose charge cannot be judged", () => {
  it("fails a create refused, naming the job and quoting the answer, and judges the rest", async () => {
    const run = await pricesRun(
      { models: ["I-A"] },
      {
        charge: (_, body) => iaCharge(body),
        refuse: (_, body) =>
          body.size === "4K" ? { status: 400, json: { error: { message: "x".repeat(300) } } } : undefined,
      },
    );
    const name = "I-A: the job of size 4K, num_images 2, with reference_images is created";
    expect(run.results[0]).toEqual([I_A, name, "fail", expect.stringMatching(/^the create answered 400: \{"error"/)]);
    expect(run.results[0]?.[3]).toHaveLength("the create answered 400: ".length + 200);
    expect(run.curls[name]).toContain('"size":"4K"');
    expect(run.results.slice(1)).toEqual(passes(I_A, ...I_A_RESULTS));
  });

  it("skips, rather than fails, a create refused 400 where the description allows it (its fields are not all shown)", async () => {
    const refuse = (status: number) => () => ({ status, json: { error: "no" } });
    const refused = `the create answered 400: {"error":"no"}`;
    const skipped = await pricesRun({ models: ["I-K"], describedShapes: false }, { refuse: refuse(400) });
    const why =
      "which the description allows: fields beyond the shown ones may be required (The full request schema of I-K is not shown; further fields (a prompt among them) may exist, and the names of the size, image-count and reference-image fields are implied.)";
    expect(skipped.results[0]).toEqual([
      routeOf("I-K"),
      "I-K: the job of size 1K, num_images 3, with reference_images is created",
      "skip",
      `${refused}, ${why}`,
    ]);
    // Another status, or a target that takes the described shapes: a failure.
    const forbidden = await pricesRun({ models: ["I-K"], describedShapes: false }, { refuse: refuse(403) });
    expect(forbidden.results[0]?.slice(2)).toEqual(["fail", `the create answered 403: {"error":"no"}`]);
    const described = await pricesRun({ models: ["I-K"] }, { refuse: refuse(400) });
    expect(described.results[0]?.slice(2)).toEqual(["fail", refused]);
  });

  it("fails a create whose answer names no job id, and a job that does not succeed", async () => {
    const run = await pricesRun(
      { models: ["I-B"] },
      {
        created: (_, body) => (body.quality === "low" && body.size === "1K" ? { id: undefined } : {}),
        ends: (_, body) => (body.quality === "medium" && body.size === "2K" ? "timeout" : "succeeded"),
        charge: () => 80,
      },
    );
    const I_B = routeOf("I-B");
    expect(run.results).toEqual([
      [
        I_B,
        "I-B: the job of quality low, size 1K, num_images 1, with image is created",
        "fail",
        "the create response carries no id",
      ],
      [
        I_B,
        "I-B: the job of quality medium, size 2K, num_images 1, with image succeeds",
        "fail",
        "the job ended timeout, so its charge cannot be judged",
      ],
      ...passes(I_B, RATES("I-B"), FREE_INPUTS("I-B")),
    ]);
    // The job without an id is not followed, so not measured; the timed-out one is, as not charged.
    expect(run.charges.map(([, credits, charged]) => [credits, charged]).sort()).toEqual([
      [100, false],
      [80, true],
      [80, true],
    ]);
  });

  it("names why a job was not followed to its end", async () => {
    const run = await pricesRun({ models: ["I-E"] }, { pollStatus: () => 502 });
    expect(run.results).toEqual([
      [
        routeOf("I-E"),
        "I-E: the job of num_images 3, with reference_images succeeds",
        "fail",
        "the job ended a poll answered 502, so its charge cannot be judged",
      ],
    ]);
  });
});

describe("the prices check's held price (3D): its surcharges read off the create response", () => {
  const D_B = routeOf("D-B");
  const NAME = HELD("D-B", "rigging and animation");
  const held = (created: Body, refuse?: Behaviour["refuse"]): Behaviour => ({
    created: () => created,
    ends: () => "processing",
    ...(refuse ? { refuse } : {}),
  });

  it("sends rigging and animation once, in the late stage, and passes 1600 + 270 + 160 = 2030 credits", async () => {
    const run = await pricesRun({ models: ["D-B"] }, held({ credits: 2030 }));
    expect(run.results).toEqual(passes(D_B, NAME));
    expect(run.stages).toEqual([STAGE.late]);
    expect(run.creates).toEqual([
      { path: createOf("D-B").path, body: expect.objectContaining({ texture: true, rigging: true, animation: true }) },
    ]);
  });

  it("fails other credits, or none", async () => {
    const other = await pricesRun({ models: ["D-B"] }, held({ credits: 1600 }));
    expect(other.results).toEqual([
      [D_B, NAME, "fail", "credits is 1600; the quote with rigging and animation is 2030"],
    ]);
    expect(other.curls[NAME]).toContain('"rigging":true');
    const none = await pricesRun({ models: ["D-B"] }, held({ credits: undefined }));
    expect(none.results[0]?.[3]).toBe("credits is undefined; the quote with rigging and animation is 2030");
  });

  it("fails an accepted create whose answer is not JSON, and quotes 200 characters of a refusal", async () => {
    const text = await pricesRun(
      { models: ["D-B"] },
      held({}, () => ({ status: 200, text: "accepted" })),
    );
    expect(text.results).toEqual([
      [D_B, NAME, "fail", "credits is undefined; the quote with rigging and animation is 2030"],
    ]);
    const long = await pricesRun(
      { models: ["D-B"] },
      held({}, () => ({ status: 400, text: "x".repeat(300) })),
    );
    expect(long.results).toEqual([[D_B, NAME, "fail", `the create answered 400: ${"x".repeat(200)}`]]);
  });

  it("reads the credits of an accepted create that names no job, and fails a refusal (skipped where the description allows it)", async () => {
    const noJob = await pricesRun({ models: ["D-B"] }, held({ credits: 2030, id: undefined }));
    expect(noJob.results).toEqual(passes(D_B, NAME));
    const refusal = (status: number) => () => ({ status, json: { credits: 2030 } });
    const redirected = await pricesRun({ models: ["D-B"] }, held({}, refusal(300)));
    expect(redirected.results).toEqual([[D_B, NAME, "fail", `the create answered 300: {"credits":2030}`]]);
    const refused = await pricesRun({ models: ["D-B"] }, held({}, refusal(400)));
    expect(refused.results).toEqual([[D_B, NAME, "fail", `the create answered 400: {"credits":2030}`]]);
    const allowed = await pricesRun({ models: ["D-B"], describedShapes: false }, held({}, refusal(400)));
    expect(allowed.results).toEqual([
      [
        D_B,
        NAME,
        "skip",
        `the create answered 400: {"credits":2030}, which the description allows: fields beyond the shown ones may be required (Other body fields of D-B are not shown.)`,
      ],
    ]);
    const forbidden = await pricesRun({ models: ["D-B"], describedShapes: false }, held({}, refusal(403)));
    expect(forbidden.results[0]?.slice(2)).toEqual(["fail", `the create answered 403: {"credits":2030}`]);
  });
});

describe("the prices check skips what the declaration does not give, naming the field", () => {
  /** The check run where it plans no job: nothing is sent. */
  const skipsOf = async (config: Partial<TargetConfig>) => (await pricesRun(config, {})).results;

  it("skips the rates of V-B, V-C and A-A, which the description does not show, without rates", async () => {
    expect(await skipsOf({ models: ["V-B", "V-C", "A-A"] })).toEqual(
      ["V-B", "V-C", "A-A"].map((model) => [
        routeOf(model),
        RATES(model),
        "skip",
        `not declared: the target's own rates of ${model} (rates), which the description does not show`,
      ]),
    );
  });

  it("skips the upscale rates without upscaleRequests, the body holding neither the mode nor the result's size", async () => {
    const VU_A = routeOf("VU-A");
    const results = await skipsOf({ models: ["VU-A"], upscaleRequests: undefined });
    expect(results.filter(([, name]) => name === RATES("VU-A"))).toEqual([
      [
        VU_A,
        RATES("VU-A"),
        "skip",
        `not declared: ${VU_A} creates with their mode and a 1080p result (upscaleRequests), which its price reads and no body the description shows holds`,
      ],
    ]);
    // Its precise and creative rates are both by the second of video: one result names that field.
    expect(results.filter(([, name]) => name === MEDIA_SECONDS("VU-A", "video"))).toHaveLength(1);
  });

  it("skips the seconds of media inputs without mediaInputs, and the rates no body holds without one", async () => {
    const DM_A = routeOf("DM-A");
    const MC_A = routeOf("MC-A");
    const notDeclared = (field: string) =>
      `not declared: media inputs the target can fetch, with the seconds it measures for them (mediaInputs); no answer states the seconds it billed for ${field}`;
    // I-A's jobs run meanwhile: none of them bears on the seconds of another route's media.
    const results = await skipsOf({ models: ["I-A", "DM-A", "MC-A"], mediaInputs: undefined });
    expect(results.filter(([, , outcome]) => outcome === "skip")).toEqual([
      [
        MC_A,
        RATES("MC-A"),
        "skip",
        `no named example of ${MC_A} has an exact quote without a media input whose seconds only the target measures`,
      ],
      ...["small", "base", "large"].map((size) => [
        DM_A,
        RATES("DM-A"),
        "skip",
        `no named example of ${DM_A} holds {"size":"${size}"} validly at an exact quote (a media input whose seconds only the target measures is left out)`,
      ]),
      [MC_A, MEDIA_SECONDS("MC-A", "video"), "skip", notDeclared("video")],
      [DM_A, MEDIA_SECONDS("DM-A", "video"), "skip", notDeclared("video")],
    ]);
  });

  it("skips the seconds of a list no declared input fits, though the route's other jobs send one", async () => {
    // 16 s: within V-A's extension (up to 60 s), past a reference video (up to 15 s).
    const run = await pricesRun(
      { models: ["V-A"], mediaInputs: [{ kind: "video", url: "https://media.example/c.mp4", seconds: 16 }] },
      {},
    );
    expect(run.results.filter(([, name]) => name.includes("each second of"))).toEqual([
      [
        routeOf("V-A"),
        MEDIA_SECONDS("V-A", "reference_videos"),
        "skip",
        "mediaInputs gives no input of reference_videos's kind with an exact quote (whole seconds, where the description does not show how the seconds are rounded)",
      ],
      [routeOf("V-A"), MEDIA_SECONDS("V-A", "video"), "pass", undefined],
    ]);
  });

  it("skips the seconds of a field no declared input fits, or that no example sends validly with one", async () => {
    const MC_A = routeOf("MC-A");
    const tooLong = await skipsOf({
      models: ["MC-A"],
      mediaInputs: [{ kind: "video", url: "https://media.example/long.mp4", seconds: 31 }],
    });
    expect(tooLong.at(-1)).toEqual([
      MC_A,
      MEDIA_SECONDS("MC-A", "video"),
      "skip",
      "mediaInputs gives no input of video's kind with an exact quote (whole seconds, where the description does not show how the seconds are rounded)",
    ]);
    // MC-A's and DM-A's videos take a URL only: a data URI makes every example invalid.
    const dataUri = await skipsOf({
      models: ["MC-A", "DM-A"],
      mediaInputs: [{ kind: "video", url: "data:video/mp4;base64,AAAA", seconds: 6 }],
    });
    expect(dataUri).toEqual([
      [
        MC_A,
        MEDIA_SECONDS("MC-A", "video"),
        "skip",
        `no named example of ${MC_A} sends video validly with a declared input at an exact quote`,
      ],
      [
        routeOf("DM-A"),
        MEDIA_SECONDS("DM-A", "video"),
        "skip",
        `no named example of ${routeOf("DM-A")} sends video validly with a declared input at an exact quote`,
      ],
    ]);
  });
});

describe("what the prices check needs", () => {
  const blocked = (config: Partial<TargetConfig>) => prices.blockedBy?.(sessionOf(config));

  it("needs a stateful target, standard prices, the credits route, the billing check, and a shown price", () => {
    expect(blocked({})).toBeNull();
    expect(blocked({ stateful: false })).toBe("the target is stateless");
    expect(blocked({ standardPrices: false })).toBe(
      "not declared: the account pays standard prices, so that its balance can be predicted (standardPrices)",
    );
    expect(blocked({ areas: ["images"] })).toBe("the target does not implement the credits route");
    expect(blocked({ skipGroups: ["billing"] })).toBe(
      "its jobs run in the billing check's measurement, and the billing group is skipped",
    );
    // The credits route is named first: without it there is no balance to measure at all.
    expect(blocked({ areas: ["images"], skipGroups: ["billing"] })).toBe(
      "the target does not implement the credits route",
    );
    // I-D's price is not shown; VU-A's rates need the declared upscales.
    expect(blocked({ models: ["I-D", "VU-A"], upscaleRequests: undefined })).toBe(
      "no implemented create route has a shown price to charge rate by rate",
    );
  });

  it("needs what the billing check needs: with only a held price, an exact price it can measure a job of", () => {
    expect(blocked({ models: ["D-B"] })).toBe("no implemented create request has an exact standard price");
    expect(blocked({ models: ["D-B", "I-A"] })).toBeNull();
    expect(blocked({ models: ["I-A"] })).toBeNull();
  });

  it("names its results by templates of its rules", () => {
    expect(templateOf(prices, RATES("I-A"))).toBe("{model}: each rate of the price table is charged its quote");
    expect(templateOf(prices, PER_UNIT("I-A", "num_images"))).toBe("{model}: the price is charged per {field}");
    expect(templateOf(prices, BEYOND_FREE("V-A", "reference_images", 2))).toBe(
      "{model}: each of {field} beyond the first {free} is charged",
    );
    expect(templateOf(prices, FREE_INPUTS("I-A"))).toBe("{model}: the inputs the price does not name are free");
    expect(templateOf(prices, HELD("D-B", "rigging and animation"))).toBe("{model}: the held price adds {fields}");
    expect(templateOf(prices, MEDIA_SECONDS("DM-A", "video"))).toBe("{model}: each second of {field} is charged");
  });

  it("says in its summary which declaration fields enable which of its jobs", () => {
    expect(prices.summary).toMatch(/^With standardPrices: .*with rates, .*with mediaInputs, .*with upscaleRequests, /);
  });
});
