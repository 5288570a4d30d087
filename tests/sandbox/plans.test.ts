/**
 * A plan's prices through HTTP: a model discount (a percentage the config gives, rounded to the
 * nearest credit) applies to a create's charge and to POST /v1/cost's quote; the day's free pool of
 * qualified image models pays creates until it is used, shared across those models, then the
 * plan's price applies again, and a new day of the sandbox's clock brings a new pool.
 */
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../sandbox/config.ts";
import { checkedSandboxes, configWith, example, model, routeWhere, type TestSandbox } from "./support.ts";

const sandbox = checkedSandboxes();
/** I-A: 12 credits per image at its default size, I-B: its own price; both image models. */
const iA = routeWhere((route) => route.label === "I-A");
const iB = routeWhere((route) => route.label === "I-B");
const END = 3_600_000;
const DAY = 24 * 3_600_000;

const used = async (sb: TestSandbox): Promise<number> =>
  (await sb.send("GET", "/v1/account/credits")).json.monthly_used as number;

/** Creates one job of `path`'s example with `num_images` 1 and lets it end; the credits it charged. */
async function charge(sb: TestSandbox, path: string): Promise<number> {
  const before = await used(sb);
  const created = await sb.send("POST", path, { body: { ...example(path), num_images: 1 } });
  expect(created.status).toBe(200);
  sb.advance(END);
  return (await used(sb)) - before;
}

describe("a plan's prices", () => {
  it("charge a discounted model its standard price less the discount, rounded to the nearest credit, and quote it so", async () => {
    const sb = await sandbox(configWith({ discounts: { "I-A": 15 } }));
    // 12 credits less 15 %: 10.2, charged 10.
    expect(await charge(sb, iA.path)).toBe(10);
    const standardB = await charge(await sandbox(configWith()), iB.path);
    expect(await charge(sb, iB.path)).toBe(standardB);
    const quote = await sb.send("POST", "/v1/cost", {
      body: { model: iA.slug, body: { ...example(iA.path), num_images: 1 } },
    });
    expect(quote.json.credits).toBe(10);
  });

  it("let the day's free pool pay creates of the qualified models, shared across them, then charge the plan's price; a new day brings a new pool", async () => {
    const sb = await sandbox(configWith({ dailyFreePool: { generations: 2, models: ["I-A", "I-B"] } }));
    expect(await charge(sb, iA.path)).toBe(0);
    expect(await charge(sb, iB.path)).toBe(0);
    expect(await charge(sb, iA.path)).toBe(12);
    sb.advance(DAY);
    expect(await charge(sb, iA.path)).toBe(0);
  });

  it("leave the day's free pool to the creates it pays: a create whose price is not shown does not use it", async () => {
    const vB = routeWhere((route) => route.label === "V-B");
    const sb = await sandbox(configWith({ dailyFreePool: { generations: 1, models: ["I-A"] } }));
    expect((await sb.send("POST", vB.path, { body: example(vB.path) })).status).toBe(200);
    sb.advance(END);
    expect(await charge(sb, iA.path)).toBe(0);
    expect(await charge(sb, iA.path)).toBe(12);
  });

  it("are checked against the description: pool models must be image models, named by label or slug", () => {
    const video = model.createRoutes.find((route) => route.label === "V-A")!;
    expect(() => resolveConfig(configWith({ dailyFreePool: { generations: 1, models: ["V-A"] } }), model)).toThrow(
      `config.accounts.main.dailyFreePool.models[0]: "${video.slug}" is no image model (the pool is of image models)`,
    );
    expect(() => resolveConfig(configWith({ discounts: { "X-Z": 10 } }), model)).toThrow(
      'config.accounts.main.discounts[0]: "X-Z" is neither a model slug nor a model label',
    );
    expect(resolveConfig(configWith({ discounts: { "I-A": 10 } }), model).accounts.main?.discounts).toEqual({
      [iA.slug]: 10,
    });
  });
});
