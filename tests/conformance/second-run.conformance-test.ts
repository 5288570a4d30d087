/**
 * A second run against the same target, right after the first: the cooldown key's account then
 * holds the first run's failures (within the hour), which the specification counts with the second
 * run's own. An honest target must not fail: the check clears them with a success and starts again.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { TARGET_DEFAULTS, readTargetConfig, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";

const contract = new Contract();
const declared = readTargetConfig(
  { CONFORMANCE_CONFIG: "conformance/targets/sandbox.json" },
  TARGET_DEFAULTS,
  contract,
  CHECK_GROUPS,
);
const config: TargetConfig = {
  ...declared,
  skipGroups: CHECK_GROUPS.filter((group) => group !== "cooldown"),
  poll: { ...declared.poll, intervalMs: 100 },
};
const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object; limits?: object };

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
