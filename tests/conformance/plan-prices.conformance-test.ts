import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const config: TargetConfig = {
  ...declared,
  skipGroups: CHECK_GROUPS.filter((group) => group !== "plan-prices"),
  poll: { ...declared.poll, intervalMs: 100 },
};
const defaults = sandboxDefaults();

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ config: fastSandboxConfig(defaults), port: 0 });
});
afterAll(() => sandbox?.close());

describe("the free pool's check run twice on one day", () => {
  it("uses the pool and says when; given that time, the next run skips the pool naming it, and passes it on", {
    timeout: 60_000,
  }, async () => {
    const first = await runConformance({ target: sandbox.url, config, contract, apiKey: declared.apiKey! });
    const pool = (outcome: typeof first) =>
      outcome.results
        .filter((result) => result.group === "plan-prices" && /pool/.test(result.name))
        .map((result) => result.outcome);
    expect(first.summary.fail).toBe(0);
    expect(pool(first)).toEqual(["pass", "pass"]);
    const used = first.summary.freePoolUsedAt;
    expect(used).toBeTypeOf("number");
    const second = await runConformance({
      target: sandbox.url,
      config,
      contract,
      apiKey: declared.apiKey!,
      earlierFreePoolUse: used!,
    });
    expect(second.summary.fail).toBe(0);
    expect(pool(second)).toEqual(["skip", "skip"]);
    expect(
      second.results.find((result) => result.group === "plan-prices" && result.outcome === "skip")?.detail,
    ).toMatch(/freePoolUsedAt/);
    expect(second.summary.freePoolUsedAt).toBe(used);
  });
});
