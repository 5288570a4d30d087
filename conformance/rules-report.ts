/**
 * The rules of spec/rules.yaml a run did and did not check, as the console and the JUnit report
 * show them: the counts (the same in the JSON report's `summary.rules`, and, for the rules no run
 * can check, on the docs' rules page), then every rule not checked, by id, with why.
 */
import { UNCHECKED_WHY, type RuleCoverage, type UncheckedRule, type UncheckedWhy } from "./rules.ts";

/** `20 not observable, 6 no check reads it, ...`: the counts of the reasons that occur. */
function reasonCounts(coverage: RuleCoverage): string {
  return (Object.keys(UNCHECKED_WHY) as UncheckedWhy[])
    .filter((why) => coverage.uncheckedBy[why] > 0)
    .map((why) => `${coverage.uncheckedBy[why]} ${UNCHECKED_WHY[why]}`)
    .join(", ");
}

/** The console's summary line of the rules. */
export function rulesLine(coverage: RuleCoverage): string {
  const notChecked = coverage.unchecked.length;
  return `rules: ${coverage.checked} of ${coverage.total} checked${notChecked ? `; ${notChecked} not checked: ${reasonCounts(coverage)}` : ""}`;
}

/**
 * The rules not checked, one line per reason: the catalogue's reasons (not observable, no check)
 * by kind, whose words docs/rules.md gives; the run's own (a declaration, a skip) by their words,
 * so that rules one missing field holds back read together.
 */
export function uncheckedLines(coverage: RuleCoverage): string[] {
  const groups = new Map<string, string[]>();
  for (const rule of coverage.unchecked) {
    const key =
      rule.why === "not-observable" || rule.why === "no-check"
        ? `${UNCHECKED_WHY[rule.why]} (docs/rules.md says why)`
        : `${UNCHECKED_WHY[rule.why]}: ${rule.detail}`;
    groups.set(key, [...(groups.get(key) ?? []), rule.id]);
  }
  return [...groups].map(([why, ids]) => `  not checked, ${why}: ${ids.join(", ")}`);
}

/** The reason of an unchecked rule in one line: its kind and its words. */
export const uncheckedReason = (rule: UncheckedRule): string => `${UNCHECKED_WHY[rule.why]}: ${rule.detail}`;

/**
 * The JUnit test suite `rules`: one skipped test case per rule not checked, its message the reason,
 * and the counts as properties.
 */
export function rulesTestSuite(coverage: RuleCoverage, xml: (text: string) => string): string {
  const properties = [
    ["checked", coverage.checked],
    ["total", coverage.total],
    ["notChecked", coverage.unchecked.length],
    ["notObservable", coverage.notObservable],
    ["noCheck", coverage.noCheck],
    ...(Object.keys(UNCHECKED_WHY) as UncheckedWhy[]).map((why) => [`notChecked.${why}`, coverage.uncheckedBy[why]]),
  ].map(([name, value]) => `<property name="${name}" value="${value}"/>`);
  const count = coverage.unchecked.length;
  return [
    `  <testsuite name="rules" tests="${count}" failures="0" skipped="${count}">`,
    `    <properties>${properties.join("")}</properties>`,
    ...coverage.unchecked.map(
      (rule) =>
        `    <testcase classname="conformance.rules" name="${xml(rule.id)}"><skipped message="${xml(uncheckedReason(rule))}"/></testcase>`,
    ),
    "  </testsuite>",
  ].join("\n");
}
