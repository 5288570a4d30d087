import { describe, expect, it } from "vitest";
import { formatConsole, junitXml, summarize } from "../../conformance/report.ts";
import type { CheckResult } from "../../conformance/results.ts";
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
    expect(xml).toMatch(/<testsuites name="conformance" tests="4" failures="1" skipped="2">/);
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

  it("counts the rules a passed or failed result observed, of the catalogue's, on the console's last line", () => {
    const total = readCatalogue().rules.length;
    const hidden = readCatalogue().rules.filter((rule) => rule.observable === false).length;
    expect(ruled.rules).toEqual({ checked: 3, total, notObservable: hidden });
    expect(formatConsole(ruled, annotated).split("\n").at(-1)).toBe(
      `rules: 3 of ${total} checked (${hidden} not observable from outside)`,
    );
  });

  it("gives each JUnit test case its rule ids as a property", () => {
    expect(junitXml(ruled, annotated)).toContain(
      '<testcase classname="conformance.billing" name="POST /v1/images/i-a: a failed job is charged nothing"><properties><property name="rules" value="service.charged-only-on-success states.failed"/></properties></testcase>',
    );
  });
});
