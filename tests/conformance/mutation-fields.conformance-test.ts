/**
 * Mutation: each fault generated from the rule catalogue (faults/fields.ts: one rule of a body
 * field, a constraint or a further model's body no longer enforced on one operation) is caught by
 * a request-validation result on that operation breaking a constraint within that rule. Each run
 * serves only that operation's model and runs only that check.
 */
import { describe, expect, it } from "vitest";
import { FIELD_FAULTS } from "./faults/fields.ts";
import type { FaultName } from "./faults/registry.ts";
import { missedFaults } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with one rule of a request body not enforced", () => {
  it("catches every one, each with a negative case on its operation within its rule", {
    timeout: 600_000,
  }, async () => {
    expect(await missedFaults(Object.keys(FIELD_FAULTS) as FaultName[])).toEqual([]);
  });
});
