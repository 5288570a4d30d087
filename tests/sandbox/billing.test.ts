/**
 * Billing through HTTP: the price is the description's quote, charged only on success; a held
 * price (lip sync, 3D) is reserved at creation and charged exactly; nothing is charged on failure,
 * timeout or a moderation block; per-request prices are charged on every search; POST /v1/cost and
 * GET /v1/models agree with the description; per-second prices read `#duration=N`, else the default.
 */
import { describe, expect, it } from "vitest";
import { quoteRoute } from "../../runtime/costs/quote.ts";
import { mediaDurations } from "../../sandbox/markers.ts";
import { checkedSandboxes, configWith, example, model, routeWhere, type TestSandbox } from "./support.ts";

const sandbox = checkedSandboxes();

const { jobStatus, priceTables } = model;
const image = routeWhere((route) => route.areaId === "image" && route.idType === "string" && route.family === null);
/** A held price per second of one media input (lip sync, LS-A), and a held flat price (3D). */
const heldPerSecond = routeWhere((route) => route.label === "LS-A");
const heldFlat = routeWhere((route) => route.priceHeld && Object.keys(priceTables[route.path]!.media).length === 0);
const perSecondField = Object.keys(priceTables[heldPerSecond.path]!.media)[0]!;
const search = model.operations.find((op) => priceTables[op.path]?.pricing?.charged === "per-request")!;
const balance = async (sb: TestSandbox) => (await sb.send("GET", "/v1/account/credits")).json;
const END = 3_600_000;

describe("charges", () => {
  it("charge the quote only when the job succeeds", async () => {
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 1_000, extra: 500 } }, { jobs: { defaultDurationSeconds: 10 } }));
    const body = { ...example(image.path), num_images: 2 };
    const price = quoteRoute(priceTables, image.path, body).credits!;
    expect(price).toBeGreaterThan(0);
    await sb.send("POST", image.path, { body });
    sb.advance(9_999);
    expect(await balance(sb)).toMatchObject({ monthly_used: 0, total_available: 1_500 });
    sb.advance(1);
    expect(await balance(sb)).toEqual({ extra_credits: 500, monthly_limit: 1_000, monthly_used: price, monthly_remaining: 1_000 - price, total_available: 1_500 - price });
  });

  it("charge nothing for failed, timed-out or moderation-blocked requests", async () => {
    const sb = await sandbox(configWith());
    const body = example(image.path);
    for (const status of jobStatus.failure) await sb.send("POST", image.path, { body: { ...body, prompt: `x [sandbox:${status}]` } });
    const blocked = await sb.send("POST", image.path, { body: { ...body, prompt: `x [sandbox:moderation=${model.errors.moderation.reasons[0]}]` } });
    expect(blocked.status).toBe(400);
    sb.advance(END);
    expect((await balance(sb)).monthly_used).toBe(0);
  });

  it("reserve a held per-second price at creation, equal to POST /v1/cost, and charge exactly it on success; release it on failure", async () => {
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 10_000, extra: 0 } }, { jobs: { defaultDurationSeconds: 10 } }));
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
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 10_000, extra: 0 } }, { jobs: { defaultDurationSeconds: 10 }, media: { defaultDurationSeconds: 9 } }));
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
    expect(ok.json.credits).toBe(quoteRoute(priceTables, heldFlat.path, body).credits);
    const failed = await sb.send("POST", heldFlat.path, { body: { ...body, image: `https://media.example/x.png#sandbox:${jobStatus.failure[0]}` } });
    expect(await balance(sb)).toMatchObject({ monthly_used: 0, total_available: 10_000 - ok.json.credits - failed.json.credits });
    sb.advance(END);
    expect(await balance(sb)).toMatchObject({ monthly_used: ok.json.credits, total_available: 10_000 - ok.json.credits });
  });

  it("charge a per-request price on every search, empty or not", async () => {
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 1_000, extra: 0 } }));
    const price = quoteRoute(priceTables, search.path, {}).credits!;
    await sb.send("GET", search.path);
    await sb.send("GET", `${search.path}?query=${encodeURIComponent("nothing at all")}`);
    expect((await balance(sb)).monthly_used).toBe(2 * price);
  });

  it("refuse with 403 a request the balance cannot cover", async () => {
    const body = example(image.path);
    const price = quoteRoute(priceTables, image.path, body).credits!;
    const sb = await sandbox(configWith({ credits: { monthlyLimit: price, extra: 0 } }));
    expect((await sb.send("POST", image.path, { body })).status).toBe(200);
    expect((await sb.send("POST", image.path, { body })).status).toBe(403);
  });
});

describe("prices", () => {
  it("POST /v1/cost and every create response's credits are the description's quote, durations from #duration=N or the default", async () => {
    const sb = await sandbox(configWith({ credits: { monthlyLimit: 10_000_000, extra: 0 }, concurrency: 100 }, { media: { defaultDurationSeconds: 9 } }));
    for (const route of model.createRoutes) {
      const table = priceTables[route.path];
      if (!table) continue;
      const body = example(route.path);
      const media = mediaDurations(body, table.media, 9);
      const quote = quoteRoute(priceTables, route.path, body, media);
      const cost = await sb.send("POST", "/v1/cost", { body: { model: route.slug, body } });
      expect(cost.json.credits, route.slug).toBe(quote.credits);
      const created = await sb.send("POST", route.path, { body });
      if ("credits" in created.json) expect(created.json.credits, route.slug).toBe(quote.credits ?? 0);
    }
    const unnamed = await sb.send("POST", "/v1/cost", { body: { seconds: 12 } });
    expect(unnamed.json).toMatchObject({ credits: null, reason: expect.stringContaining("body.model") });
    const withSeconds = await sb.send("POST", "/v1/cost", { body: { model: heldPerSecond.slug, body: example(heldPerSecond.path), seconds: 12 } });
    expect(withSeconds.json.credits).toBe(quoteRoute(priceTables, heldPerSecond.path, example(heldPerSecond.path), { [perSecondField]: 12 }).credits);
  });

  it("GET /v1/models lists every model with the description's pricing, filtered by type", async () => {
    const sb = await sandbox(configWith());
    const all = (await sb.send("GET", "/v1/models")).json.models as Array<{ model: string; type: string; pricing: unknown }>;
    expect(all.map((entry) => entry.model)).toEqual(model.createRoutes.map((route) => route.slug));
    for (const route of model.createRoutes) expect(all.find((entry) => entry.model === route.slug)!.pricing).toEqual(priceTables[route.path]?.pricing ?? null);
    const type = all.at(-1)!.type;
    const filtered = (await sb.send("GET", `/v1/models?type=${encodeURIComponent(type)}`)).json.models as typeof all;
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((entry) => entry.type === type)).toBe(true);
  });
});
