/** Mutation: each fault of the limits (faults/limits.ts) is caught by the check written for its rule. */
import { describe, expect, it } from "vitest";
import { LIMIT_FAULTS } from "./faults/limits.ts";
import type { FaultName } from "./faults/registry.ts";
import { missedFaults } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with a fault of its limits", () => {
  it("catches every one, each with a failure of the check written for the rule it breaks", { timeout: 600_000 }, async () => {
    expect(await missedFaults(Object.keys(LIMIT_FAULTS) as FaultName[])).toEqual([]);
  });
});
