/** Mutation: each fault of billing and of what answers say (faults/billing.ts, faults/responses.ts) is caught by the check written for its rule. */
import { describe, expect, it } from "vitest";
import { BILLING_FAULTS } from "./faults/billing.ts";
import type { FaultName } from "./faults/registry.ts";
import { RESPONSE_FAULTS } from "./faults/responses.ts";
import { missedFaults } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with a fault of billing or of its answers", () => {
  it("catches every one, each with a failure of the check written for the rule it breaks", {
    timeout: 600_000,
  }, async () => {
    expect(
      await missedFaults([...Object.keys(BILLING_FAULTS), ...Object.keys(RESPONSE_FAULTS)] as FaultName[]),
    ).toEqual([]);
  });
});
