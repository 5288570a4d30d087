/** Mutation: each fault of a plan's prices and of quotes (faults/plans.ts) is caught by the check written for its rule. */
import { describe, expect, it } from "vitest";
import { PLAN_FAULTS } from "./faults/plans.ts";
import type { FaultName } from "./faults/registry.ts";
import { missedFaults } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with a fault of a plan's prices or of quotes", () => {
  it("catches every one, each with a failure of the check written for the rule it breaks", {
    timeout: 300_000,
  }, async () => {
    expect(await missedFaults(Object.keys(PLAN_FAULTS) as FaultName[])).toEqual([]);
  });
});
