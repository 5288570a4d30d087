/**
 * The suite proves itself by mutation (support/mutation.ts): against the faultless sandbox it must
 * pass, each stateful check with a pass; the faults, each caught by its own check, are run by
 * mutation-limits.conformance-test.ts, mutation-answers.conformance-test.ts,
 * mutation-prices.conformance-test.ts, mutation-validation.conformance-test.ts and (the faults
 * generated from the rule catalogue) mutation-fields.conformance-test.ts, side by side
 * (npm run test:conformance, with this faultless run: a whole run holds one of npm test's two
 * workers about 15 s, half of it waiting on the sandbox's jobs).
 */
import { describe, expect, it } from "vitest";
import { CHECKS } from "../../conformance/checks/index.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import { isResultOf, MUST_PASS, resultsWith } from "./support/mutation.ts";

describe("the conformance suite against the faultless sandbox", () => {
  it("passes, with a pass of each stateful check", { timeout: 120_000 }, async () => {
    const results = await resultsWith([]);
    expect(
      results
        .filter((result) => result.outcome === "fail")
        .map((failure) => `[${failure.group}] ${failure.name}: ${failure.detail}`),
    ).toEqual([]);
    const passed = results.filter((result) => result.outcome === "pass");
    expect(
      MUST_PASS.filter((name) => !passed.some((result) => isResultOf(result, name))).map(
        ({ group, check }) => `[${group}] ${check}`,
      ),
    ).toEqual([]);
    // Each result of a check is one of the names it declares with its rules, and carries those rules.
    const suiteOwn = (result: CheckResult): boolean =>
      ["check finished", "the target answers every request", `group ${result.group}`].includes(result.name);
    const undeclared = results.filter((result) => {
      const check = CHECKS.find((candidate) => candidate.group === result.group);
      return check !== undefined && !suiteOwn(result) && templateOf(check, result.name) === undefined;
    });
    expect(undeclared.map((result) => `[${result.group}] ${result.name}`)).toEqual([]);
    expect(
      results.find((result) => result.group === "billing" && result.name === "a failed job is charged nothing")?.rules,
    ).toEqual(["service.charged-only-on-success", "states.failed"]);
  });
});
