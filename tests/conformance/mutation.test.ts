/**
 * The suite proves itself by mutation (support/mutation.ts): against the faultless sandbox it must
 * pass, each stateful check with a pass; the faults, each caught by its own check, are run by
 * mutation-limits.conformance-test.ts, mutation-answers.conformance-test.ts and
 * mutation-validation.conformance-test.ts, side by side
 * (npm run test:conformance).
 */
import { describe, expect, it } from "vitest";
import { FAULTS } from "./faults/registry.ts";
import { CAUGHT_BY, isResultOf, MUST_PASS, resultsWith } from "./support/mutation.ts";

describe("the conformance suite against the faultless sandbox", () => {
  it("passes, with a pass of each stateful check", { timeout: 120_000 }, async () => {
    const results = await resultsWith([]);
    expect(results.filter((result) => result.outcome === "fail").map((failure) => `[${failure.group}] ${failure.name}: ${failure.detail}`)).toEqual([]);
    const passed = results.filter((result) => result.outcome === "pass");
    expect(MUST_PASS.filter((name) => !passed.some((result) => isResultOf(result, name))).map(({ group, check }) => `[${group}] ${check}`)).toEqual([]);
  });

  it("has at least 40 kinds of fault, and knows which check must catch each", () => {
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULTS).sort());
  });
});
