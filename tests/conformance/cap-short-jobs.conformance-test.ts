/**
 * The cap's probe keeps its power where jobs are short or uneven: against the independent honest
 * implementation (a cap of 16) with jobs of 200 to 800 ms and of 1 to 2.5 s, the concurrency check
 * reaches its verdict (a create beyond the cap is refused as queue full) and fails nothing.
 */
import { describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { runConformance } from "../../conformance/run.ts";
import { startIndependent } from "./reference/independent/server.ts";
import { INDEPENDENT_DECLARATION } from "./reference/independent/declaration.ts";
import { INDEPENDENT_CAP, KEYS } from "./reference/independent/setup.ts";

const contract = new Contract();
/** Only the cap's check, which fills the cap with jobs of its own. */
const config: TargetConfig = {
  ...INDEPENDENT_DECLARATION,
  timeoutSeconds: 120,
  skipGroups: CHECK_GROUPS.filter((group) => group !== "concurrency"),
};

describe.concurrent("the cap's probe against an honest implementation with short jobs", () => {
  for (const jobs of [
    { minMs: 200, maxMs: 800 },
    { minMs: 1000, maxMs: 2500 },
  ]) {
    it(`reaches a verdict, and fails nothing, with jobs of ${jobs.minMs} to ${jobs.maxMs} ms`, {
      timeout: 150_000,
    }, async () => {
      const server = await startIndependent({ jobs });
      try {
        const { results } = await runConformance({ target: server.url, config, contract, apiKey: KEYS.main });
        const cap = results.filter((result) => result.group === "concurrency");
        expect(cap.filter((result) => result.outcome === "fail")).toEqual([]);
        expect(
          cap.find((result) => result.name === `a create beyond the cap of ${INDEPENDENT_CAP} is refused as queue full`)
            ?.outcome,
          JSON.stringify(cap),
        ).toBe("pass");
      } finally {
        await server.close();
      }
    });
  }
});
