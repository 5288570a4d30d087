/** Config checks: each problem names the field and the rule; the shipped default config is valid. */
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CONFIG_FILE, readConfigFile, resolveConfig } from "../../sandbox/config.ts";
import { model } from "./support.ts";

const account = { keys: ["k"], plan: "paid", credits: { monthlyLimit: 10, extra: 0 } };

function problems(raw: unknown): string {
  try {
    resolveConfig(raw, model);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join("\n");
    throw error;
  }
  throw new Error("the config was accepted");
}

describe("sandbox config", () => {
  it("fills in the description's limits and the sandbox's defaults", () => {
    const config = resolveConfig({ accounts: { a: account } }, model);
    expect(config.limits.requests).toEqual({
      perKey: model.limits.requests.perKey,
      perSourceIp: model.limits.requests.perSourceIp,
      windowSeconds: model.limits.requests.windowSeconds,
    });
    expect(config.accounts.a!.concurrency).toBe(model.limits.concurrency.maxOnUltra);
    expect(config.accounts.a!.outcome).toBe(model.jobStatus.success);
  });

  it("ships a valid default config, whose limits are the description's (the cooldown pauses ten minutes, growing by ten)", () => {
    const config = readConfigFile(DEFAULT_CONFIG_FILE, model);
    expect(Object.keys(config.accounts).length).toBeGreaterThan(0);
    expect(config.limits.cooldown).toEqual({
      consecutiveFailures: 3,
      withinSeconds: 3600,
      pauseSeconds: 600,
      growthSeconds: 600,
    });
    expect(config.limits.requests).toEqual({ perKey: 600, perSourceIp: 1200, windowSeconds: 60 });
    expect(config.limits.uploads).toEqual({ perAccount: 60, windowSeconds: 60 });
  });

  it("takes the cooldown's pause and growth from the config, other limits from the description", () => {
    const config = resolveConfig(
      { accounts: { a: account }, limits: { cooldown: { pauseSeconds: 2, growthSeconds: 3 } } },
      model,
    );
    const { consecutiveFailures, withinSeconds } = model.limits.cooldown;
    expect(config.limits.cooldown).toEqual({ consecutiveFailures, withinSeconds, pauseSeconds: 2, growthSeconds: 3 });
  });

  it("names a retired model by its label (which a slug map leaves as it is) or its slug", () => {
    const route = model.createRoutes.find((candidate) => candidate.label === "I-F")!;
    const retired = (names: string[]) =>
      resolveConfig({ accounts: { a: { ...account, retiredModels: names } } }, model).accounts.a?.retiredModels;
    expect(retired(["I-F"])).toEqual([route.slug]);
    expect(retired([route.slug])).toEqual([route.slug]);
  });

  it.each([
    [{}, "config.accounts: is required"],
    [{ accounts: {} }, "config.accounts: must NOT have fewer than 1 properties"],
    [{ accounts: { a: { ...account, plan: "gold" } } }, "config.accounts.a.plan: must be one of free, paid"],
    [
      { accounts: { a: { ...account, credits: { monthlyLimit: -1, extra: 0 } } } },
      "config.accounts.a.credits.monthlyLimit: must be >= 0",
    ],
    [{ accounts: { a: { ...account, keys: [] } } }, "config.accounts.a.keys: must NOT have fewer than 1 items"],
    [{ accounts: { a: account, b: account } }, "config.accounts.b.keys[0]: is already a key of account a"],
    [
      { accounts: { a: { ...account, retiredModels: ["no-such-model"] } } },
      'config.accounts.a.retiredModels[0]: "no-such-model" is neither a model slug nor a model label of the description',
    ],
    [{ accounts: { a: account }, rates: { "V-Z": 10 } }, "config.rates.V-Z: is neither a model slug nor a model label"],
    [
      { accounts: { a: account }, rates: { "V-B": { "4k": 10 } } },
      "config.rates.V-B.4k: resolution must be one of 480p, 720p, 1080p",
    ],
    [{ accounts: { a: account }, rates: { "I-A": 10 } }, "config.rates.I-A: must be a route whose rate is not shown"],
    [
      { accounts: { a: { ...account, outcome: "exploded" } } },
      `config.accounts.a.outcome: must be one of ${model.jobStatus.terminal.join(", ")}`,
    ],
    [{ accounts: { a: account }, clock: { speed: 0 } }, "config.clock.speed: must be > 0"],
    [
      { accounts: { a: account }, limits: { requests: { perKey: 1.5 } } },
      "config.limits.requests.perKey: must be integer",
    ],
    [
      { accounts: { a: account }, limits: { cooldown: { pauseSeconds: 0 } } },
      "config.limits.cooldown.pauseSeconds: must be > 0",
    ],
    [
      { accounts: { a: account }, limits: { cooldown: { growthSeconds: -1 } } },
      "config.limits.cooldown.growthSeconds: must be >= 0",
    ],
    [
      { accounts: { a: account }, limits: { cooldown: { pauseSeconds: "2" } } },
      "config.limits.cooldown.pauseSeconds: must be number",
    ],
    [{ accounts: { a: account }, colour: "blue" }, "config.colour: is not a known field"],
  ])("rejects %j naming the field and the rule", (raw, expected) => {
    expect(problems(raw)).toContain(expected);
  });

  it("names the file when it cannot be read or is not JSON", () => {
    expect(() => readConfigFile("/nonexistent/sandbox.json", model)).toThrow(
      /\/nonexistent\/sandbox\.json: cannot be read/,
    );
  });
});
