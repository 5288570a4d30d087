/**
 * Billing through HTTP: the price is the description's quote, charged only on success; a held
 * price (lip sync, 3D) is reserved at creation and charged exactly; nothing is charged on failure,
 * timeout or a moderation block; per-request prices are charged on every search; POST /v1/cost and
 * GET /v1/models agree with the description; per-second prices read `#duration=N`, else the default;
 * a price per image is charged for the images made.
 */
import { describe, expect, it } from "vitest";
import { areaOf, checkedSandboxes, configWith, example, model, routeWhere, type TestSandbox } from "./support.ts";

const sandbox = checkedSandboxes();

const { jobStatus, priceTables } = model;
/** I-A: 12 credits per image at its default size, 1K (the specification's image prices). */
const image = routeWhere((route) => route.label === "I-A");
/** A held price per second of one media input (lip sync, LS-A), and a held flat price (3D). */
const heldPerSecond = routeWhere((route) => route.label === "LS-A");
const heldFlat = routeWhere((route) => route.label === "D-A");
const perSecondField = Object.keys(priceTables[heldPerSecond.path]!.media)[0]!;
const search = model.operations.find((op) => priceTables[op.path]?.pricing?.charged === "per-request")!;
const balance = async (sb: TestSandbox) => (await sb.send("GET", "/v1/account/credits")).json;
const END = 3_600_000;

describe("charges", () => {
  it("charge the quote only when the job succeeds", async () => {
    const sb = await sandbox(
      configWith({ credits: { monthlyLimit: 1_000, extra: 500 } }, { jobs: { defaultDurationSeconds: 10 } }),
    );
    const body = { ...example(image.path), num_images: 2 };
    // Two images at the default 1K, 12 credits each.
    const price = 24;
    await sb.send("POST", image.path, { body });
    sb.advance(9_999);
    expect(await balance(sb)).toMatchObject({ monthly_used: 0, total_available: 1_500 });
    sb.advance(1);
    expect(await balance(sb)).toEqual({
      extra_credits: 500,
      monthly_limit: 1_000,
      monthly_used: price,
      monthly_remaining: 1_000 - price,
      total_available: 1_500 - price,
    });
  });

  it("charge the configured rates where the description does not show them, by its formula; nothing without them", async () => {
    const vb = routeWhere((route) => route.label === "V-B");
    const vc = routeWhere((route) => route.label === "V-C");
    const aa = routeWhere((route) => route.label === "A-A");
    const rates = { "V-B": { "720p": 40 }, "V-C": { "1080p": 50 }, "A-A": 12 };
    const sb = await sandbox(configWith({}, { rates }));
    // V-B: 5 s at 720p, 40 a second; its input media free.
    await sb.send("POST", vb.path, {
      body: { prompt: "p", resolution: "720p", length_seconds: 5, reference_images: ["https://x.example/a.png"] },
    });
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(200);
    // V-C: 5 s at 1080p, 50 a second, and a 6-s video to edit at half of it, 25 a second.
    await sb.send("POST", vc.path, {
      body: { prompt: "p", resolution: "1080p", length_seconds: 5, video: "https://x.example/v.mp4#duration=6" },
    });
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(200 + 250 + 150);
    // A-A: a 7-s input video billed its 10-second minimum, 12 a second.
    await sb.send("POST", aa.path, { body: { video: "https://x.example/v.mp4#duration=7" } });
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(600 + 120);
    const cost = await sb.send("POST", "/v1/cost", {
      body: { model: aa.slug, body: { video: "https://x.example/v.mp4#duration=7" } },
    });
    expect(cost.json).toMatchObject({ credits: 120, credits_per_second: 12, seconds: 10, min_seconds: 10 });

    const unpriced = await sandbox(configWith());
    await unpriced.send("POST", vb.path, { body: { prompt: "p", resolution: "720p", length_seconds: 5 } });
    unpriced.advance(END);
    expect((await balance(unpriced)).monthly_used).toBe(0);
  });

  it("charge an upscale the description's 1080p rate by its mode (188 precise, 267 creative per second); nothing where the result size or mode is unknown", async () => {
    const upscale = routeWhere((route) => route.label === "VU-A");
    const sb = await sandbox(configWith());
    // 720 × 1.5 and 540 × 2: 1080p results; 6 s precise, then 3 s creative.
    await sb.send("POST", upscale.path, {
      body: { video: "https://x.example/v.mp4#duration=6&height=720", upscale_factor: 1.5, mode: "precise" },
    });
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(1_128);
    await sb.send("POST", upscale.path, {
      body: { video: "https://x.example/v.mp4#duration=3&height=540", upscale_factor: 2, mode: "creative" },
    });
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(1_128 + 801);
    // A 1440p result (720 × 2), and a 1080p result without a mode: no rate shown.
    await sb.send("POST", upscale.path, {
      body: { video: "https://x.example/v.mp4#duration=6&height=720", upscale_factor: 2, mode: "precise" },
    });
    await sb.send("POST", upscale.path, {
      body: { video: "https://x.example/v.mp4#duration=6&height=720", upscale_factor: 1.5 },
    });
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(1_929);
  });

  it("charge a price per image for the images a job makes, one where the request leaves out a count with no stated default", async () => {
    // Specification, I-C: "Flat 25 credits per image"; its num_images is "1 to 4" with no default.
    const ic = routeWhere((route) => route.label === "I-C");
    const sb = await sandbox(configWith());
    const made = async (body: Record<string, unknown>) => {
      const created = await sb.send("POST", ic.path, { body });
      sb.advance(END);
      return (await sb.send("GET", areaOf(ic.areaId).poll.path.replace("{id}", created.json.id))).json.images
        .length as number;
    };
    expect(await made({ prompt: "a fox" })).toBe(1);
    expect((await balance(sb)).monthly_used).toBe(25);
    expect(await made({ prompt: "a fox", num_images: 3 })).toBe(3);
    expect((await balance(sb)).monthly_used).toBe(25 + 75);
    // "POST /v1/cost quotes the ... price of a request before it is sent": the price it is then charged.
    const quote = await sb.send("POST", "/v1/cost", { body: { model: ic.slug, body: { prompt: "a fox" } } });
    expect(quote.json).toMatchObject({ credits: 25, breakdown: [{ rate: 25, quantity: 1, credits: 25 }] });
    expect(quote.json.reason).toBeUndefined();
    const three = await sb.send("POST", "/v1/cost", {
      body: { model: ic.slug, body: { prompt: "a fox", num_images: 3 } },
    });
    expect(three.json.credits).toBe(75);
  });

  it("charge nothing for failed, timed-out or moderation-blocked requests", async () => {
    const sb = await sandbox(configWith());
    const body = example(image.path);
    for (const status of jobStatus.failure)
      await sb.send("POST", image.path, { body: { ...body, prompt: `x [sandbox:${status}]` } });
    const blocked = await sb.send("POST", image.path, {
      body: { ...body, prompt: `x [sandbox:moderation=${model.errors.moderation.reasons[0]}]` },
    });
    expect(blocked.status).toBe(400);
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(0);
  });

  it("reserve a held per-second price at creation, equal to POST /v1/cost, and charge exactly it on success; release it on failure", async () => {
    const sb = await sandbox(
      configWith({ credits: { monthlyLimit: 10_000, extra: 0 } }, { jobs: { defaultDurationSeconds: 10 } }),
    );
    const body = { ...example(heldPerSecond.path), [perSecondField]: "https://media.example/speech.mp3#duration=7.2" };
    // The specification's lip sync: 84 credits per second of audio, rounded up to whole seconds: 8 x 84.
    const price = 672;
    const cost = await sb.send("POST", "/v1/cost", { body: { model: heldPerSecond.slug, body } });
    expect(cost.json.credits).toBe(price);
    const created = await sb.send("POST", heldPerSecond.path, { body });
    expect(created.json.credits).toBe(price);
    expect(created.json.seconds).toBe(8);
    expect(await balance(sb)).toMatchObject({ monthly_used: 0, total_available: 10_000 - price });
    sb.advance(10_000);
    expect(await balance(sb)).toMatchObject({ monthly_used: price, total_available: 10_000 - price });

    await sb.send("POST", heldPerSecond.path, { body: { ...body, prompt: `[sandbox:${jobStatus.timeout}]` } });
    expect((await balance(sb)).total_available).toBe(10_000 - 2 * price);
    sb.advance(10_000);
    expect(await balance(sb)).toMatchObject({ monthly_used: price, total_available: 10_000 - price });
  });

  it("charge a per-second price for the configured default duration when the media URL states none", async () => {
    const depthMap = routeWhere((route) => route.label === "DM-A");
    const sb = await sandbox(
      configWith(
        { credits: { monthlyLimit: 10_000, extra: 0 } },
        { jobs: { defaultDurationSeconds: 10 }, media: { defaultDurationSeconds: 9 } },
      ),
    );
    const created = await sb.send("POST", depthMap.path, { body: { video: "https://media.example/street.mp4" } });
    expect(created.status).toBe(200);
    sb.advance(10_000);
    // The specification's depth maps: 20 credits per second of input at the default size `small`: 9 x 20.
    expect((await balance(sb)).monthly_used).toBe(180);
  });

  it("hold a 3D job's credits until it ends: charged on success, released on failure", async () => {
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 10_000, extra: 0 } }));
    const body = example(heldFlat.path);
    const ok = await sb.send("POST", heldFlat.path, { body });
    // The specification's D-A: 400 credits textured, its default.
    expect(ok.json.credits).toBe(400);
    const failed = await sb.send("POST", heldFlat.path, {
      body: { ...body, image: `https://media.example/x.png#sandbox:${jobStatus.failure[0]}` },
    });
    expect(failed.json.credits).toBe(400);
    expect(await balance(sb)).toMatchObject({ monthly_used: 0, total_available: 10_000 - 800 });
    sb.advance(END);
    expect(await balance(sb)).toMatchObject({ monthly_used: 400, total_available: 10_000 - 400 });
  });

  it("charge a per-request price on every search, empty or not", async () => {
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 1_000, extra: 0 } }));
    expect((await sb.send("GET", search.path)).status).toBe(200);
    const empty = await sb.send("GET", `${search.path}?query=${encodeURIComponent("nothing at all")}`);
    expect(empty.status).toBe(200);
    // The specification's stock searches: 10 credits per search, including empty results.
    expect((await balance(sb)).monthly_used).toBe(20);
  });

  it("refuse with 403 a request the balance cannot cover", async () => {
    const body = example(image.path);
    // One image at the default 1K: 12 credits, the whole balance.
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 12, extra: 0 } }));
    expect((await sb.send("POST", image.path, { body })).status).toBe(200);
    const refused = await sb.send("POST", image.path, { body });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe("Not enough credits: the request costs 12.");
  });
});

describe("prices", () => {
  it("POST /v1/cost quotes the specification's price of a create; a create response shows credits exactly where the specification says, equal to the quote", async () => {
    const sb = await sandbox(
      configWith(
        { credits: { monthlyLimit: 10_000_000, extra: 0 }, concurrency: 100 },
        { media: { defaultDurationSeconds: 9 } },
      ),
    );
    // The specification's prices of the description's example bodies; media without #duration=N last the configured 9 s.
    const expected: Record<string, number> = {
      "I-A": 12, // one image at the default 1K
      "I-B": 50, // quality low at 1K
      "I-C": 50, // two images at 2K, 25 each
      "I-E": 40, // one image at the fixed 1K
      "D-A": 400, // textured
      "D-B": 1600, // textured
      "MC-A": 1170, // 9 s of reference video at 130 per second
      "LS-A": 756, // 9 s of audio at 84 per second
      "DM-A": 180, // 9 s of input at the default size small, 20 per second
    };
    // The create responses that add credits: 3D, motion control and lip sync.
    const showingCredits = ["D-A", "D-B", "MC-A", "LS-A"];
    const quoted = new Map<string, number | null>();
    for (const route of model.createRoutes) {
      const body = example(route.path);
      const cost = await sb.send("POST", "/v1/cost", { body: { model: route.slug, body } });
      expect(cost.status, route.label).toBe(200);
      quoted.set(route.label, cost.json.credits);
      const created = await sb.send("POST", route.path, { body });
      expect(created.status, route.label).toBe(200);
      expect("credits" in created.json, route.label).toBe(showingCredits.includes(route.label));
      if (showingCredits.includes(route.label)) expect(created.json.credits, route.label).toBe(cost.json.credits);
    }
    expect(Object.fromEntries(Object.keys(expected).map((label) => [label, quoted.get(label)]))).toEqual(expected);
    const unnamed = await sb.send("POST", "/v1/cost", { body: { seconds: 12 } });
    expect(unnamed.json).toMatchObject({ credits: null, reason: expect.stringContaining("body.model") });
    const withSeconds = await sb.send("POST", "/v1/cost", {
      body: { model: heldPerSecond.slug, body: example(heldPerSecond.path), seconds: 12 },
    });
    // 12 s of audio at 84 per second.
    expect(withSeconds.json.credits).toBe(1_008);
  });

  it("POST /v1/cost quotes a depth map by seconds alone, with no video in the body: exact credits", async () => {
    // Specification, depth maps: "`POST /v1/cost` returns `credits_per_second`, `size_pricing`,
    // `min_seconds`, plus exact `credits` when `seconds` is sent"; 20/30/40 per second, 5-s minimum.
    const depth = routeWhere((route) => route.label === "DM-A");
    const sb = await sandbox(configWith());
    const quote = (body: Record<string, unknown>, seconds: number) =>
      sb.send("POST", "/v1/cost", { body: { model: depth.slug, body, seconds } });
    const { video: _video, ...withoutVideo } = example(depth.path) as Record<string, unknown>;
    const bySeconds = await quote({ ...withoutVideo, size: "base" }, 12);
    expect([bySeconds.status, bySeconds.json.credits, bySeconds.json.credits_per_second]).toEqual([200, 360, 30]);
    expect(bySeconds.json).toMatchObject({ seconds: 12, min_seconds: 5 });
    // Below the minimum: billed 5 s. The same seconds with a video give the same credits.
    expect((await quote({ ...withoutVideo, size: "base" }, 3)).json.credits).toBe(150);
    expect((await quote({ ...withoutVideo, size: "base", video: "https://x.example/v.mp4" }, 12)).json.credits).toBe(
      360,
    );
  });

  it("POST /v1/cost gives a depth map's credits_per_second, size_pricing and min_seconds without seconds or a video, and no exact credits", async () => {
    // Specification, depth maps: "returns `credits_per_second`, `size_pricing`, `min_seconds`, plus
    // exact `credits` when `seconds` is sent"; size "default `small`": 20, `base` 30, `large` 40.
    const depth = routeWhere((route) => route.label === "DM-A");
    const sb = await sandbox(configWith());
    const quote = async (body: Record<string, unknown>) =>
      (await sb.send("POST", "/v1/cost", { body: { model: depth.slug, body } })).json;
    const { video: _video, ...withoutVideo } = example(depth.path) as Record<string, unknown>;
    const { size: _size, ...unsized } = withoutVideo;
    const sizes = { small: 20, base: 30, large: 40 };
    for (const [size, rate] of Object.entries(sizes))
      expect(await quote({ ...withoutVideo, size }), size).toMatchObject({
        credits: null,
        credits_per_second: rate,
        size_pricing: sizes,
        min_seconds: 5,
      });
    const bare = await quote(unsized);
    expect([bare.credits_per_second, bare.seconds]).toEqual([20, undefined]);
  });

  it("GET /v1/models lists every model with the description's pricing, filtered by type", async () => {
    const sb = await sandbox(configWith());
    const all = (await sb.send("GET", "/v1/models")).json.models as Array<{
      model: string;
      type: string;
      pricing: unknown;
    }>;
    expect(all.map((entry) => entry.model)).toEqual(model.createRoutes.map((route) => route.slug));
    for (const route of model.createRoutes)
      expect(all.find((entry) => entry.model === route.slug)!.pricing).toEqual(
        priceTables[route.path]?.pricing ?? null,
      );
    // "GET /v1/models lists the models and their current prices (including `resolution_pricing` ...)":
    // each video model whose rates by resolution the specification shows.
    const byResolution = (label: string) =>
      (
        all.find((entry) => entry.model === routeWhere((route) => route.label === label).slug) as Record<
          string,
          unknown
        >
      ).resolution_pricing;
    expect(byResolution("V-A")).toEqual({ "480p": 65, "768p": 105, "1080p": 210, "2k": 420 });
    // V-F: "Price per output second: 200 / 325 / 380 / 555" (its extensions' rates are in pricing).
    expect(byResolution("V-F")).toEqual({ "720p": 200, "1080p": 325, "1440p": 380, "4K": 555 });
    // V-G: "at 480p: 15 (`cost` mode), 30 (`speed`), 60 (`quality`); at 768p: 37, 52, 112".
    expect(byResolution("V-G")).toEqual({
      "480p": { cost: 15, speed: 30, quality: 60 },
      "768p": { cost: 37, speed: 52, quality: 112 },
    });
    const type = all.at(-1)!.type;
    const filtered = (await sb.send("GET", `/v1/models?type=${encodeURIComponent(type)}`)).json.models as typeof all;
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((entry) => entry.type === type)).toBe(true);
  });
});
