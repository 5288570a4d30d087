/**
 * The project's conformance suite against the sandbox, started in-process: every check derived from
 * the description passes. The rate-limit burst is on, so the suite also checks a real 429 and its
 * Retry-After; the account has the description's Ultra concurrency cap, which the suite assumes.
 */
import { describe, expect, it } from "vitest";
import { TARGET_DEFAULTS } from "../../conformance/config.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { contract, model } from "./support.ts";

describe("the conformance suite against the sandbox", () => {
  it("passes every check, including a provoked 429", { timeout: 240_000 }, async () => {
    const sandbox = await startSandbox({
      model,
      config: {
        accounts: { suite: { keys: ["suite-key"], plan: "paid", credits: { monthlyLimit: 100_000_000, extra: 0 } } },
        clock: { speed: 1_000 },
        limits: { requests: { perKey: 5_000, perSourceIp: 1_000_000 } },
      },
    });
    try {
      const config = { ...TARGET_DEFAULTS, rateLimitBurst: true, poll: { intervalMs: 50, timeoutSeconds: 60, stablePolls: 1 } };
      const { results } = await runConformance({ target: sandbox.url, apiKey: "suite-key", config, contract });
      expect(results.filter((result) => result.outcome === "fail")).toEqual([]);
      expect(results.filter((result) => result.group === "rate-limits" && result.outcome === "pass").length).toBeGreaterThan(0);
      expect(results.filter((result) => result.outcome === "pass").length).toBeGreaterThan(500);
    } finally {
      await sandbox.close();
    }
  });
});
