/**
 * The sequence phase at its default settings, against the honest sandbox for several seeds: no
 * sequence fails, and every condition each rule applies in is observed (rule × condition coverage
 * whole); the seeds' random sequences change, the tour takes every condition. Jobs of 3 s, as the
 * default config's: the cap probe's jobs must outlast its creates also on a loaded machine.
 */
import { describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { Contract } from "../../contract/contract.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const SEEDS = [11, 2026, 90210];

describe.concurrent("the sequence phase against the honest sandbox", () => {
  for (const seed of SEEDS)
    it(`fails nothing and observes every applicable condition of every rule (seed ${seed})`, {
      timeout: 240_000,
    }, async () => {
      const sandbox = await startSandbox({ config: fastSandboxConfig(sandboxDefaults(), 3) });
      try {
        const { results, summary } = await runConformance({
          target: sandbox.url,
          contract,
          config: {
            ...declared,
            poll: { intervalMs: 150, timeoutSeconds: 5, stablePolls: 1 },
            skipGroups: CHECK_GROUPS.filter((group) => group !== "sequences"),
            generated: { seed },
          },
        });
        expect(results.filter((result) => result.outcome === "fail").map((result) => result.detail)).toEqual([]);
        const coverage = summary.sequences!.coverage;
        expect(
          coverage.rules.filter((rule) => rule.unseen.length).map((rule) => `${rule.rule}: ${rule.unseen.join(", ")}`),
        ).toEqual([]);
        expect(coverage.observed).toBe(coverage.applicable);
        expect(coverage.applicable).toBeGreaterThan(1_000);
      } finally {
        await sandbox.close();
      }
    });
});
