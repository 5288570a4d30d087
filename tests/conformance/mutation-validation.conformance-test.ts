/**
 * Mutation: each near-miss fault of request validation (faults/validation.ts) is caught by the
 * generated requests' check for its kind of near miss, at NEAR_MISS_CASES; and at that count the
 * faultless sandbox fails nothing, so that no catch is a false failure.
 */
import { describe, expect, it } from "vitest";
import type { FaultName } from "./faults/registry.ts";
import { VALIDATION_FAULTS } from "./faults/validation.ts";
import { missedFaults, NEAR_MISS_CASES, resultsWith } from "./support/mutation.ts";

describe("the conformance suite against the sandbox with a near miss of request validation", () => {
  it("catches every one, each with a failure of the generated requests' check for its kind", {
    timeout: 600_000,
  }, async () => {
    expect(await missedFaults(Object.keys(VALIDATION_FAULTS) as FaultName[])).toEqual([]);
  });

  it(`fails nothing against the faultless sandbox at ${NEAR_MISS_CASES} generated cases per operation and kind`, {
    timeout: 120_000,
  }, async () => {
    const failures = (await resultsWith([], NEAR_MISS_CASES)).filter((result) => result.outcome === "fail");
    expect(failures.map((failure) => `[${failure.group}] ${failure.route} ${failure.name}: ${failure.detail}`)).toEqual(
      [],
    );
  });
});
