/**
 * The rules a run's report counts as checked, and the reason it gives for each rule no result
 * checked (conformance/README.md's "rules not checked"): from a small catalogue and checks of our
 * own, so each reason is reached by the results that call for it and no other.
 */
import { describe, expect, it } from "vitest";
import type { Check } from "../../conformance/check.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { GROUP_SKIPPED, ruleCoverage } from "../../conformance/rules.ts";
import type { Catalogue, Rule } from "../../spec/catalogue.ts";

const rule = (id: string, extra: Partial<Rule> = {}): Rule => ({ id, section: "s", words: "w", ...extra });
const catalogue: Catalogue = {
  rules: [
    rule("R-HIDDEN", { unchecked: "what the media depicts", observable: false }),
    rule("R-NONE", { unchecked: "no check reads it yet", declare: "retiredModel" }),
    rule("R-BARE", { unchecked: "no check reads it yet" }),
    rule("R-BILL", { openapi: ["/paths/~1v1~1things/post/responses/402"] }),
    rule("R-BOTH"),
  ],
  informative: [],
};
const check = (group: string, rules: Record<string, string[]>): Check =>
  ({ group, summary: group, rules }) as unknown as Check;
const checks = [
  check("billing", { "charged for {case}": ["R-BILL", "R-BOTH"] }),
  check("limits", { capped: ["R-BOTH"] }),
];

const result = (group: string, name: string, outcome: CheckResult["outcome"], extra: Partial<CheckResult> = {}) => ({
  group,
  route: "*",
  name,
  outcome,
  ...extra,
});
const why = (results: CheckResult[], id: string) =>
  ruleCoverage(results, checks, catalogue).unchecked.find((entry) => entry.id === id);

describe("the rules a run checked", () => {
  it("are those a passed or failed result observed, never one only a skipped result names", () => {
    const coverage = ruleCoverage(
      [
        result("billing", "charged for a", "pass", { rules: ["R-BILL"] }),
        result("limits", "capped", "skip", { rules: ["R-BOTH"], detail: "no cap declared" }),
      ],
      checks,
      catalogue,
    );
    expect(coverage.checked).toBe(1);
    expect(coverage.total).toBe(5);
    expect(coverage.unchecked.map((entry) => entry.id)).toEqual(["R-HIDDEN", "R-NONE", "R-BARE", "R-BOTH"]);
    expect(coverage.notObservable).toBe(1);
    expect(coverage.noCheck).toBe(2);
    expect(coverage.uncheckedBy).toEqual({
      "not-observable": 1,
      "no-check": 2,
      declaration: 0,
      "group-skipped": 0,
      skipped: 1,
      "not-run": 0,
    });
    expect(
      ruleCoverage([result("billing", "charged for b", "fail", { rules: ["R-BILL"] })], checks, catalogue).checked,
    ).toBe(1);
  });
});

describe("the reason given for a rule no result checked", () => {
  it("is the catalogue's for a rule no client observes, or that no check reads, with the field that would make it observable", () => {
    expect(why([], "R-HIDDEN")).toEqual({ id: "R-HIDDEN", why: "not-observable", detail: "what the media depicts" });
    expect(why([], "R-NONE")).toEqual({
      id: "R-NONE",
      why: "no-check",
      detail: "no check reads it yet (declare retiredModel)",
    });
    expect(why([], "R-BARE")).toEqual({ id: "R-BARE", why: "no-check", detail: "no check reads it yet" });
  });

  it("names the group skipGroups named, or what the declaration lacks for it", () => {
    const skipped = (detail: string) => [result("billing", "group billing", "skip", { detail })];
    expect(why(skipped(GROUP_SKIPPED), "R-BILL")).toMatchObject({
      why: "group-skipped",
      detail: "billing: skipGroups names it",
    });
    expect(why(skipped("the declaration gives no outcomeMarkers"), "R-BILL")).toMatchObject({
      why: "declaration",
      detail: "billing: the declaration gives no outcomeMarkers",
    });
    // A skip of the group under another name, or on a route, or that passed, is no skip of the group.
    for (const other of [
      result("billing", "group limits", "skip", { detail: GROUP_SKIPPED }),
      result("billing", "group billing", "skip", { detail: GROUP_SKIPPED, route: "POST /v1/things" }),
      result("billing", "group billing", "pass", { detail: GROUP_SKIPPED }),
      result("limits", "group billing", "skip", { detail: GROUP_SKIPPED }),
    ])
      expect(why([other], "R-BILL")).toMatchObject({ why: "not-run" });
  });

  it("gives the check's own reasons for skipping the results that observe it: two, each once, and how many more", () => {
    const skip = (detail: string, rules = ["R-BILL"]) => result("billing", "charged for x", "skip", { rules, detail });
    expect(why([skip("no second key"), skip("no second key")], "R-BILL")).toMatchObject({
      why: "skipped",
      detail: "billing: no second key",
    });
    expect(why([skip("a"), skip("b")], "R-BILL")).toMatchObject({ detail: "billing: a; b" });
    expect(why([skip("a"), skip("b"), skip("c"), skip("d")], "R-BILL")).toMatchObject({
      detail: "billing: a; b; and 2 more reasons",
    });
    // Skips of other rules, or in other groups, are not this rule's reasons.
    expect(
      why(
        [skip("other rule", ["R-BOTH"]), result("limits", "capped", "skip", { rules: ["R-BILL"], detail: "x" })],
        "R-BILL",
      ),
    ).toMatchObject({
      why: "not-run",
    });
  });

  it("says a check stopped, the routes its target does not implement, or else that no result observed it", () => {
    expect(
      why([result("billing", "check finished", "skip", { detail: "the run's time ran out" })], "R-BILL"),
    ).toMatchObject({
      why: "not-run",
      detail: "billing: the run's time ran out",
    });
    expect(why([result("billing", "check finished", "pass", { detail: "done" })], "R-BILL")).toMatchObject({
      detail: "billing: no result of this run observed it",
    });
    const unimplemented = result("*", "POST /v1/things", "skip", {
      route: "POST /v1/things",
      detail: "not implemented by the target",
    });
    expect(why([unimplemented], "R-BILL")).toMatchObject({
      why: "not-run",
      detail: "billing: not implemented by the target",
    });
    // A rule with no route of its own is not excused by a route the target lacks.
    expect(why([unimplemented], "R-BOTH")).toMatchObject({
      detail: "billing: no result of this run observed it; limits: no result of this run observed it",
    });
    expect(why([{ ...unimplemented, outcome: "pass" }], "R-BILL")).toMatchObject({
      detail: "billing: no result of this run observed it",
    });
  });

  it("is, for a rule several groups name, the first of declaration, group skipped, skipped and not reached, with every group's words", () => {
    const results = [
      result("limits", "capped", "skip", { rules: ["R-BOTH"], detail: "no cap declared" }),
      result("billing", "group billing", "skip", { detail: GROUP_SKIPPED }),
    ];
    expect(why(results, "R-BOTH")).toEqual({
      id: "R-BOTH",
      why: "group-skipped",
      detail: "billing: skipGroups names it; limits: no cap declared",
    });
    expect(why([results[0]!], "R-BOTH")).toMatchObject({ why: "skipped" });
    expect(
      why([...results, result("limits", "group limits", "skip", { detail: "no stateful target" })], "R-BOTH"),
    ).toMatchObject({
      why: "declaration",
    });
  });
});
