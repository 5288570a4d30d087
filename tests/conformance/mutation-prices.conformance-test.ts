/** Mutation: each fault of prices (faults/prices.ts) is caught by the prices check, which names the route and the job charged otherwise. */
import { describe, expect, it } from "vitest";
import { PRICE_FAULTS } from "./faults/prices.ts";
import type { FaultName } from "./faults/registry.ts";
import { missedFaults } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with a fault of its prices", () => {
  it("catches every one, each with a failure of the prices check", { timeout: 600_000 }, async () => {
    expect(await missedFaults(Object.keys(PRICE_FAULTS) as FaultName[])).toEqual([]);
  });
});
