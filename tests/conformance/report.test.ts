import { describe, expect, it } from "vitest";
import { formatConsole, junitXml, summarize, writeReports } from "../../conformance/report.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKS } from "../../conformance/checks/index.ts";
import type { Summary } from "../../conformance/report.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { checksByRule, GROUP_SKIPPED } from "../../conformance/rules.ts";
import { readCatalogue } from "../../spec/catalogue.ts";

const results: CheckResult[] = [
  { group: "auth", route: "POST /v1/images/i-a", name: "401 for no Authorization header", outcome: "pass" },
  {
    group: "operations",
    route: "POST /v1/images/i-a",
    name: 'valid request "a<b>" accepted',
    outcome: "fail",
    detail: 'body "x" & <y>\u0001\ud800 \uffff end',
    curl: "curl -sS -i -X POST 'http://127.0.0.1:1/v1/images/i-a'",
  },
  {
    group: "auth",
    route: "POST /v1/images/i-a",
    name: "401 for unknown bearer key",
    outcome: "skip",
    detail: "the target accepts any key",
  },
  {
    group: "auth",
    route: "POST /v1/images/i-b",
    name: "401 for unknown bearer key",
    outcome: "skip",
    detail: "the target accepts any key",
  },
];
const spent = { byQuote: { credits: 38, atMost: true, requests: 2, unpriced: ["POST /v1/images/i-d"] }, measured: 40 };
const summary = summarize("a target", results, {
  seconds: 12.5,
  requests: { main: 120, "free plan": 3 },
  stopped: "interrupted by SIGINT",
  spent,
});

describe("the JUnit XML report", () => {
  const xml = junitXml(summary, results);

  it("has one testsuite per group with its counts, and a failure and skipped element with messages", () => {
    // Beside the results, one skipped case per rule not checked (here every rule: none was observed).
    const rules = readCatalogue().rules.length;
    expect(xml).toContain(`<testsuites name="conformance" tests="${4 + rules}" failures="1" skipped="${2 + rules}">`);
    expect(xml).toMatch(/<testsuite name="auth" tests="3" failures="0" skipped="2">/);
    expect(xml).toMatch(
      /<testcase classname="conformance.auth" name="POST \/v1\/images\/i-a: 401 for unknown bearer key"><skipped message="the target accepts any key"\/><\/testcase>/,
    );
    expect(xml).toContain('<failure message="body &quot;x&quot; &amp; &lt;y&gt; ');
    expect(xml).toContain("reproduce: curl -sS -i -X POST 'http://127.0.0.1:1/v1/images/i-a'</failure>");
  });

  it("escapes markup and drops the characters XML 1.0 cannot hold", () => {
    expect(xml).toContain('name="POST /v1/images/i-a: valid request &quot;a&lt;b&gt;&quot; accepted"');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udfff]/);
  });
});

describe("the console report", () => {
  it("prints each failure with route, rule and curl, each skip reason once with its count, the time, the requests, why it stopped and the credits spent", () => {
    const text = formatConsole(summary, results);
    expect(text).toContain('FAIL [operations] POST /v1/images/i-a: valid request "a<b>" accepted');
    expect(text).toContain("  reproduce:   curl -sS -i -X POST 'http://127.0.0.1:1/v1/images/i-a'");
    expect(text).toContain(
      "SKIP [auth] the target accepts any key (2 checks: POST /v1/images/i-a, POST /v1/images/i-b)",
    );
    expect(text).toContain("conformance of a target: 1 passed, 1 failed, 2 skipped, in 12.5 s");
    expect(text).toContain("requests sent: 120 with the main key, 3 with the free plan key");
    expect(text).toContain("stopped early: interrupted by SIGINT");
    expect(text).toContain(
      "credits spent: the quotes of 2 charged requests come to at most 38, plus 1 request whose price the description does not show; the balance fell by 40 (prices held for unfinished jobs included)",
    );
  });

  it("names the first four routes of a skip reason and counts the rest", () => {
    const many: CheckResult[] = ["a", "b", "c", "d", "e", "f"].map((slug) => ({
      group: "generated-requests",
      route: `POST /v1/images/i-${slug}`,
      name: "near misses",
      outcome: "skip",
      detail: "no rule to break",
    }));
    const text = formatConsole(summarize("a target", many, { seconds: 1, requests: {} }), many);
    expect(text).toContain(
      "SKIP [generated-requests] no rule to break (6 checks: POST /v1/images/i-a, POST /v1/images/i-b, POST /v1/images/i-c, POST /v1/images/i-d and 2 more)",
    );
  });
});

describe("the rules a report names", () => {
  const annotated: CheckResult[] = [
    {
      group: "billing",
      route: "POST /v1/images/i-a",
      name: "a failed job is charged nothing",
      outcome: "pass",
      rules: ["service.charged-only-on-success", "states.failed"],
    },
    {
      group: "billing",
      route: "POST /v1/images/i-a",
      name: "a timed-out job is charged nothing",
      outcome: "fail",
      detail: "fell by 5",
      rules: ["service.charged-only-on-success", "states.timeout"],
    },
    {
      group: "cooldown",
      route: "*",
      name: "creates are accepted until 3 consecutive failures",
      outcome: "skip",
      detail: "not declared",
      rules: ["limits.cooldown"],
    },
  ];
  const ruled = summarize("a target", annotated, { seconds: 1, requests: { main: 3 } });

  it("counts the rules a passed or failed result observed, of the catalogue's", () => {
    const catalogue = readCatalogue();
    const hidden = catalogue.rules.filter((rule) => rule.observable === false).length;
    expect(ruled.rules).toMatchObject({ checked: 3, total: catalogue.rules.length, notObservable: hidden });
    expect(ruled.rules?.unchecked).toHaveLength(catalogue.rules.length - 3);
    expect(formatConsole(ruled, annotated)).toContain(
      `rules: 3 of ${catalogue.rules.length} checked; ${catalogue.rules.length - 3} not checked: ${hidden} not observable, `,
    );
  });

  it("gives each JUnit test case its rule ids as a property", () => {
    expect(junitXml(ruled, annotated)).toContain(
      '<testcase classname="conformance.billing" name="POST /v1/images/i-a: a failed job is charged nothing"><properties><property name="rules" value="service.charged-only-on-success states.failed"/></properties></testcase>',
    );
  });
});

describe("the rules a run did not check, named in every report", () => {
  const catalogue = readCatalogue();
  const byRule = checksByRule(CHECKS, catalogue);
  /** A rule that only `group` names, besides the sequences (which name every refusal's rules). */
  const onlyOf = (group: string): string =>
    catalogue.rules.find((rule) => {
      const groups = new Set(
        (byRule.get(rule.id) ?? []).map((check) => check.split(":")[0]).filter((name) => name !== "sequences"),
      );
      return groups.size === 1 && groups.has(group);
    })!.id;
  const perIp = onlyOf("source-ip-limit");
  const retired = onlyOf("retired-model");
  const media = onlyOf("media-limits");
  const results: CheckResult[] = [
    {
      group: "source-ip-limit",
      route: "*",
      name: "group source-ip-limit",
      outcome: "skip",
      detail: "the declaration gives no sourceIpBurst",
    },
    { group: "retired-model", route: "*", name: "group retired-model", outcome: "skip", detail: GROUP_SKIPPED },
    { group: "media-limits", route: "POST /v1/x", name: "n", outcome: "skip", detail: "no input fits", rules: [media] },
    { group: "auth", route: "POST /v1/x", name: "n", outcome: "pass", rules: ["errors.401"] },
  ];
  const summary = summarize("a target", results, { seconds: 1, requests: {} });
  const why = (id: string) => summary.rules?.unchecked.find((rule) => rule.id === id);

  it("says why each was not checked: not observable, no check, a declaration, a group skipped, skipped, not reached", () => {
    expect(why("errors.401")).toBeUndefined();
    expect(why("versioning.version-string")).toEqual({
      id: "versioning.version-string",
      why: "not-observable",
      detail: "no response carries the interface version (none is shown)",
    });
    expect(why("images.i-a.4k-jpeg")?.why).toBe("no-check");
    expect(why(perIp)).toEqual({
      id: perIp,
      why: "declaration",
      detail: "source-ip-limit: the declaration gives no sourceIpBurst",
    });
    expect(why(retired)).toEqual({
      id: retired,
      why: "group-skipped",
      detail: "retired-model: skipGroups names it; sequences: no result of this run observed it",
    });
    expect(why(media)).toEqual({ id: media, why: "skipped", detail: "media-limits: no input fits" });
    expect(why("resources.job-status.values")).toMatchObject({
      why: "not-run",
      detail: expect.stringContaining("no result of this run observed it"),
    });
  });

  it("gives the same counts and the same ids on the console, in the JSON and in the JUnit report", () => {
    const coverage = summary.rules!;
    const notChecked = coverage.unchecked.length;
    expect(notChecked).toBe(catalogue.rules.length - 1);
    expect(Object.values(coverage.uncheckedBy).reduce((sum, count) => sum + count, 0)).toBe(notChecked);
    const dir = mkdtempSync(join(tmpdir(), "rules-report-"));
    try {
      const paths = { json: join(dir, "c.json"), junit: join(dir, "c.junit.xml") };
      writeReports(paths, summary, results);
      const json = JSON.parse(readFileSync(paths.json, "utf8")) as { summary: Summary };
      const junit = readFileSync(paths.junit, "utf8");
      const text = formatConsole(summary, results);
      expect(json.summary.rules).toEqual(coverage);
      const counts = `${coverage.uncheckedBy["not-observable"]} not observable, ${coverage.uncheckedBy["no-check"]} observable without a check, ${coverage.uncheckedBy.declaration} needing a declaration, ${coverage.uncheckedBy["group-skipped"]} in a skipped group, ${coverage.uncheckedBy.skipped} skipped by their check, ${coverage.uncheckedBy["not-run"]} not reached`;
      expect(text).toContain(`rules: 1 of ${catalogue.rules.length} checked; ${notChecked} not checked: ${counts}`);
      expect(junit).toContain(`<testsuite name="rules" tests="${notChecked}" failures="0" skipped="${notChecked}">`);
      for (const [name, value] of [
        ["checked", 1],
        ["total", catalogue.rules.length],
        ["notChecked", notChecked],
        ["notObservable", coverage.notObservable],
        ["noCheck", coverage.noCheck],
        ["notChecked.declaration", coverage.uncheckedBy.declaration],
      ] as const)
        expect(junit).toContain(`<property name="${name}" value="${value}"/>`);
      expect(junit).toContain(
        `<testsuites name="conformance" tests="${results.length + notChecked}" failures="0" skipped="${summary.skip + notChecked}">`,
      );
      // Every rule not checked is named in all three.
      for (const rule of coverage.unchecked) {
        expect(junit).toContain(`<testcase classname="conformance.rules" name="${rule.id}"><skipped message=`);
        expect(text).toMatch(new RegExp(`not checked, [^\\n]*\\b${rule.id.replace(/\./g, "\\.")}\\b`));
      }
      expect(junit).toContain(
        `name="${perIp}"><skipped message="needing a declaration: source-ip-limit: the declaration gives no sourceIpBurst"/>`,
      );
      expect(text).toContain(
        `  not checked, needing a declaration: source-ip-limit: the declaration gives no sourceIpBurst: ${perIp}`,
      );
      expect(text).toContain("  not checked, not observable (docs/rules.md says why): service.promotions-web-only,");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
