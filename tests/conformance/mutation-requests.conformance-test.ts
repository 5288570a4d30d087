/**
 * Mutation: each fault of creates, polls, job states, the other routes and the error statuses
 * (faults/creates.ts, polls.ts, states.ts, routes.ts, errors.ts, and prices.ts's stale prices,
 * most generated per area, model, state or route) is caught by the check written for its rule.
 */
import { describe, expect, it } from "vitest";
import { CAUGHT_IN_FILES, type CaughtInFilesName } from "./faults/registry.ts";
import { missedFaults } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with a fault of a create, a poll, a state, a route or an error", () => {
  it("catches every one, each with a failure of the check written for the rule it breaks", {
    timeout: 900_000,
  }, async () => {
    expect(await missedFaults(Object.keys(CAUGHT_IN_FILES) as CaughtInFilesName[])).toEqual([]);
  });
});
