import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const config: TargetConfig = {
  ...declared,
  skipGroups: CHECK_GROUPS.filter((group) => group !== "cooldown"),
  poll: { ...declared.poll, intervalMs: 100 },
};
const defaults = sandboxDefaults();

let sandbox: RunningSandbox;
const runs: CheckResult[][] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ config: fastSandboxConfig(defaults), port: 0 });
  for (let run = 0; run < 2; run++)
    runs.push((await runConformance({ target: sandbox.url, config, contract, apiKey: declared.apiKey! })).results);
}, 180_000);
afterAll(() => sandbox?.close());

const lines = (results: CheckResult[], outcome: CheckResult["outcome"]): string[] =>
  results
    .filter((result) => result.outcome === outcome)
    .map((result) => `${result.route} ${result.name}: ${result.detail ?? ""}`);

describe("the cooldown check run twice in a row on one account", () => {
  it("passes both times, the second after clearing the first run's failures", () => {
    expect(lines(runs[0]!, "fail")).toEqual([]);
    expect(lines(runs[1]!, "fail")).toEqual([]);
    for (const results of runs) {
      expect(
        results
          .filter((result) => result.group === "cooldown" && result.outcome === "pass")
          .map((result) => result.name),
      ).toEqual(
        expect.arrayContaining([
          "creates are accepted until 3 consecutive failures",
          "each further failure lengthens the pause by one step (2 s)",
        ]),
      );
    }
  });
});
