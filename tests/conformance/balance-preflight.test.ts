/**
 * The balance preflight (conformance/balance-preflight.ts, cost.ts's shortfalls): before anything is
 * spent, each key's balance against what the run could spend with it. A run that could run an
 * account dry does not start, saying how many credits to add or which groups to skip, instead of
 * failing price checks on a balance that ran out ("made total_available fall by 0").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { TARGET_DEFAULTS, type TargetConfig } from "../../conformance/config.ts";
import { describeShortfall, shortfalls, type GroupSpend, type PlannedSpend } from "../../conformance/cost.ts";
import { TargetError } from "../../conformance/http.ts";
import { runConformance } from "../../conformance/run.ts";
import { Contract } from "../../contract/contract.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { model } from "../support/description.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";

const spend = (key: string, credits: number, atMost = false): PlannedSpend => ({
  key,
  what: "POST /v1/images/i-a",
  price: { credits, atMost },
});
const group = (name: string, ...spends: PlannedSpend[]): GroupSpend => ({ group: name, spends });

describe("the shortfall of a balance", () => {
  // The run measured on an outside server: an estimate of 62,504 credits against 20,500 held.
  const groups = [
    group("prices", spend("main", 41_000)),
    group("billing", spend("main", 19_504), spend("cooldown", 300)),
    group("lifecycle", spend("main", 2_000, true)),
  ];

  it("names the credits to add, and the fewest groups to skip, the least spending where several would do", () => {
    const [short, ...others] = shortfalls(groups, new Map([["main", 20_500]]));
    expect(others).toEqual([]);
    expect(short).toMatchObject({ key: "main", balance: 20_500, add: 42_004 });
    // Without prices 21,504 remain: lifecycle's 2,000 closes the gap, as billing's 19,504 would.
    expect(short!.skip).toEqual([
      { group: "prices", credits: 41_000 },
      { group: "lifecycle", credits: 2_000 },
    ]);
    expect(describeShortfall(short!)).toBe(
      "the main key's account holds 20,500 credits and the run could spend at most 62,504 credits with it: add 42,004 credits to it, or skip prices (41,000), lifecycle (2,000) (skipGroups, CONFORMANCE_SKIP)",
    );
  });

  it("judges each key on its own, and none whose balance is enough or unknown", () => {
    expect(shortfalls(groups, new Map([["main", 62_504]]))).toEqual([]);
    expect(shortfalls(groups, new Map([["cooldown", 299]])).map((short) => [short.key, short.add])).toEqual([
      ["cooldown", 1],
    ]);
    expect(shortfalls(groups, new Map())).toEqual([]);
  });
});

describe("a run whose account could run dry", () => {
  const contract = new Contract();
  let sandbox: RunningSandbox;
  const config = (key: string): TargetConfig => ({
    ...TARGET_DEFAULTS,
    apiKey: key,
    areas: ["images", "account"],
    models: ["I-A"],
    standardPrices: true,
    poll: { intervalMs: 50, timeoutSeconds: 5, stablePolls: 0 },
    timeoutSeconds: 60,
  });
  const balance = async (key: string): Promise<number> =>
    (
      (await (
        await fetch(`${sandbox.url}/v1/account/credits`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { total_available: number }
    ).total_available;

  beforeAll(async () => {
    sandbox = await startSandbox({
      config: fastSandboxConfig({
        accounts: {
          poor: { keys: ["poor-key"], plan: "paid", credits: { monthlyLimit: 0, extra: 30 } },
          rich: { keys: ["rich-key"], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 } },
        },
      } as object),
      port: 0,
      model,
    });
  });
  afterAll(() => sandbox?.close());

  it("does not start: it says what to add or skip, and nothing is spent", { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const run = runConformance({
      target: sandbox.url,
      config: config("poor-key"),
      contract,
      progress: (line) => lines.push(line),
    });
    await expect(run).rejects.toThrow(TargetError);
    await expect(run).rejects.toThrow(
      /^the run could spend more than an account holds, which would fail price checks on a balance run dry: the main key's account holds 30 credits and the run could spend (at most )?[\d,]+ credits with it: add [\d,]+ credits to it, or skip [a-z-]+ \([\d,]+\)/,
    );
    expect(lines).toContain("  main key: 30 credits");
    expect(await balance("poor-key")).toBe(30);
  });

  it("with a budget, sizes the generated requests and the sequence phase each by the others' estimate, and refuses a budget too small", async () => {
    // Both size their spend by what the budget leaves: each leaves the phase out, which takes the rest.
    const run = runConformance({ target: sandbox.url, config: { ...config("rich-key"), budgetCredits: 5 }, contract });
    await expect(run).rejects.toThrow(/^the run could spend (up to )?[\d,]+ credits, past budgetCredits 5: /);
  });

  it("starts where the balance pays for the estimate, saying what it read", { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const { summary, results } = await runConformance({
      target: sandbox.url,
      // The groups that spend and check charges: a balance run dry would fail them.
      config: {
        ...config("rich-key"),
        skipGroups: CHECK_GROUPS.filter((group) => !["prices", "billing", "model-prices"].includes(group)),
      },
      contract,
      progress: (line) => lines.push(line),
    });
    expect(lines).toContain("balances before the run:");
    expect(lines).toContain("  main key: 100,000 credits");
    expect(results.filter((result) => result.outcome === "fail")).toEqual([]);
    // The price checks ran: the balance paid for them.
    expect(results.some((result) => result.group === "prices" && result.outcome === "pass")).toBe(true);
    expect(summary.spent?.measured).toBeGreaterThan(0);
  });
});
