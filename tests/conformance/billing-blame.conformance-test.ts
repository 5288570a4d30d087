import { describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { priceOf } from "../../conformance/cost.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const OVERCHARGE = 7;

/** The create route whose cheapest example has the lowest exact price: where the billing check's own succeeded job runs. */
const cheapestRoute = contract.operations
  .filter((op) => op.create && !op.create.priceHeld)
  .map((op) => ({
    route: op.route,
    credits: Math.min(
      ...op.requestExamples
        .map((example) => priceOf(contract, op, example.value as Record<string, unknown>))
        .map((price) => (price.credits === null || price.atMost ? Infinity : price.credits)),
    ),
  }))
  .reduce((best, next) => (next.credits < best.credits ? next : best)).route;

describe("the billing check against a target that overcharges other routes", () => {
  it("names the overcharged jobs measured alone, and passes its own route", { timeout: 120_000 }, async () => {
    const charged = new Set<string>();
    const sandbox = await startSandbox({
      config: fastSandboxConfig(defaults),
      hooks: {
        answer(answer, call, state) {
          const body = answer.body as { status?: unknown } | undefined;
          const job = call?.op.kind === "poll" ? state.jobs.get(call.params.id ?? "") : undefined;
          if (
            job &&
            body?.status === state.model.jobStatus.success &&
            `POST ${job.route.path}` !== cheapestRoute &&
            !charged.has(job.id)
          ) {
            charged.add(job.id);
            call!.account!.ledger.charge(OVERCHARGE);
          }
          return answer;
        },
      },
    });
    try {
      const config: TargetConfig = {
        ...declared,
        skipGroups: CHECK_GROUPS.filter((group) => !["billing", "lifecycle"].includes(group)),
        poll: { intervalMs: 150, timeoutSeconds: 5, stablePolls: 1 },
      };
      const { results } = await runConformance({ target: sandbox.url, config, contract });
      const billing = results.filter((result) => result.group === "billing");
      const failures = billing.filter((result) => result.outcome === "fail");
      expect(billing.find((result) => result.name === "a succeeded job is charged exactly its quote")).toMatchObject({
        outcome: "pass",
        route: cheapestRoute,
      });
      // The check's own held-price job is overcharged too, and named so; the others ran beside it.
      expect(
        failures.some((failure) => failure.name === "a job run beside the billing check is charged its quote"),
      ).toBe(true);
      for (const failure of failures) {
        expect(failure.route).not.toBe(cheapestRoute);
        expect(failure.detail).toMatch(
          new RegExp(
            `^measured alone, ${failure.route.replace(/[/.]/g, "\\$&")} "[^"]+" \\(ended succeeded\\) made ${contract.model.account.availableField} fall by \\d+; its quote is \\d+$`,
          ),
        );
      }
    } finally {
      await sandbox.close();
    }
  });
});
