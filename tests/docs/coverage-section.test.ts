/**
 * The docs' rules page given a conformance run (`npm run docs -- --coverage REPORT`): it ends with
 * the run's rule × condition coverage and lists every rule seen in fewer conditions than apply with
 * the conditions it was not seen in, as the run's other reports do; a report that is not one, or has
 * no sequence phase, is refused naming what is missing; what the report holds is shown as text.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SequencesSummary } from "../../conformance/sequences/report.ts";
import { coverageSection, readCoverageRun, type CoverageRun } from "../../docs-src/coverage-section.ts";
import { renderMarkdown } from "../../docs-src/markdown-page.ts";
import { buildSite } from "../../docs-src/site.ts";
import { loadBundle } from "../../model/document.ts";
import { UsageError } from "../../tools/command.ts";

const dir = mkdtempSync(join(tmpdir(), "docs-coverage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sequence phase's figures: `rules` each with the conditions seen and not seen. */
function sequences(rules: SequencesSummary["coverage"]["rules"]): SequencesSummary {
  const observed = rules.reduce((total, rule) => total + rule.seen.length, 0);
  return {
    seed: 42,
    shard: { index: 1, count: 1 },
    sequences: { tour: 8, random: 3, run: 11 },
    steps: 700,
    seconds: 20,
    notSent: {},
    coverage: { observed, applicable: observed + rules.reduce((total, rule) => total + rule.unseen.length, 0), rules },
  };
}

const SHORT = sequences([
  { rule: "billing.charge-on-success", seen: ["model=V-A", "key=first"], unseen: ["key=second", "outcome=failed"] },
  { rule: "jobs.poll-owner-only", seen: [], unseen: ["account=other"] },
  { rule: "auth.bearer", seen: ["key=first", "key=second"], unseen: [] },
]);

/** A conformance.json report of `summary`, written to a file of the test's folder. */
function reportFile(name: string, report: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof report === "string" ? report : JSON.stringify(report));
  return file;
}

const run = (summary: SequencesSummary, target = "http://127.0.0.1:4020"): CoverageRun => ({
  file: "conformance.json",
  target,
  sequences: summary,
});

describe("the coverage section", () => {
  it("lists each rule seen in fewer conditions than apply, with the conditions not seen and those seen, and no other rule", () => {
    const section = coverageSection(run(SHORT));
    expect(section).toContain("4 of 7 rule × condition pairs observed");
    expect(section).toContain("2 rules were seen in fewer conditions than apply");
    expect(section).toContain(
      "| `billing.charge-on-success` | `key=second`, `outcome=failed` | `model=V-A`, `key=first` |",
    );
    expect(section).toContain("| `jobs.poll-owner-only` | `account=other` | none |");
    expect(section).not.toContain("auth.bearer");
    expect(section).toContain("(`conformance.json`, seed 42): 11 sequences, 700 steps");
  });

  it("opens with its heading and the run's figures, then tables the rules under their column names", () => {
    const section = coverageSection(run(SHORT));
    expect(
      section.startsWith(
        "## Rule × condition coverage of a run\n\nThe sequence phase of the conformance run against `http://127.0.0.1:4020` (`conformance.json`, seed 42): " +
          "11 sequences, 700 steps, 4 of 7 rule × condition pairs observed.\n\n2 rules were seen in fewer conditions than apply:\n\n" +
          "| rule | not seen with | seen with |\n| --- | --- | --- |\n",
      ),
    ).toBe(true);
    expect(section.endsWith("|\n")).toBe(true);
  });

  it("says one rule was short in the singular", () => {
    const section = coverageSection(run(sequences([{ rule: "auth.bearer", seen: [], unseen: ["key=second"] }])));
    expect(section).toContain("\n\n1 rule was seen in fewer conditions than apply:\n\n");
  });

  it("says when every rule was seen in every condition that applies", () => {
    const section = coverageSection(run(sequences([{ rule: "auth.bearer", seen: ["key=first"], unseen: [] }])));
    expect(section).toContain("1 of 1 rule × condition pairs observed");
    expect(section).toContain("It saw every rule in every condition that applies");
    expect(section).not.toContain("|");
  });

  it("shows the report's text as text: a pipe keeps its cell, markup stays inert, a backtick cannot end its code span", () => {
    const hostile = sequences([
      { rule: "a|b", seen: [], unseen: ["model=<img src=x onerror=alert(1)>", "input=`x`|y"] },
    ]);
    const { html } = renderMarkdown(
      `# Rules\n\n${coverageSection(run(hostile, "<script>alert(1)</script>"))}`,
      "docs/rules.md",
    );
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    const row = /<tr>\s*<td><code>a\|b<\/code><\/td>\s*<td>(.*?)<\/td>\s*<td>none<\/td>\s*<\/tr>/s.exec(html);
    expect(row?.[1]).toContain("<code>input=&#39;x&#39;|y</code>");
  });
});

describe("reading a run's report", () => {
  it("takes the sequence phase's coverage, names the report by its file name and its target without a password", () => {
    const file = reportFile("conformance.json", {
      summary: { target: "http://bob:p@ss-secret@127.0.0.1:4020", sequences: SHORT },
      results: [],
    });
    const read = readCoverageRun(file);
    expect(read).toEqual({
      file: "conformance.json",
      target: expect.not.stringContaining("ss-secret"),
      sequences: SHORT,
    });
    expect(read.target).toMatch(/127\.0\.0\.1:4020$/);
  });

  it.each([
    ["not JSON", "{", /^--coverage \S+: .*JSON/],
    [
      "not a report",
      { summary: null, results: [] },
      /is not a conformance\.json report \(it needs summary and results\)$/,
    ],
    [
      "a run without the sequence phase",
      { summary: { target: "t" }, results: [] },
      /summary\.sequences is absent: the run had no sequence phase/,
    ],
    [
      "coverage without its rules",
      { summary: { target: "t", sequences: { ...SHORT, coverage: { observed: 1, applicable: 2 } } }, results: [] },
      /summary\.sequences\.coverage\.rules must be a list$/,
    ],
    [
      "a sequence phase without coverage",
      { summary: { target: "t", sequences: { ...SHORT, coverage: undefined } }, results: [] },
      /summary\.sequences\.coverage\.rules must be a list$/,
    ],
    [
      "conditions that are not text",
      {
        summary: {
          target: "t",
          sequences: { ...SHORT, coverage: { ...SHORT.coverage, rules: [{ rule: "x", seen: ["a", 1], unseen: [] }] } },
        },
        results: [],
      },
      /summary\.sequences\.coverage\.rules\[0\] must have a rule id and lists seen and unseen of conditions$/,
    ],
    [
      "a rule without its conditions",
      {
        summary: {
          target: "t",
          sequences: {
            ...SHORT,
            coverage: { ...SHORT.coverage, rules: [SHORT.coverage.rules[0], { rule: "x", seen: [] }] },
          },
        },
        results: [],
      },
      /summary\.sequences\.coverage\.rules\[1\] must have a rule id and lists seen and unseen of conditions$/,
    ],
    [
      "counts that are not whole numbers",
      {
        summary: { target: "t", sequences: { ...SHORT, coverage: { ...SHORT.coverage, observed: "4" } } },
        results: [],
      },
      /summary\.sequences\.coverage must have the whole numbers observed and applicable$/,
    ],
  ])("refuses %s, naming the report and what it lacks", (name, report, message) => {
    const file = reportFile(`${name.replace(/\W+/g, "-")}.json`, report);
    expect(() => readCoverageRun(file)).toThrow(UsageError);
    expect(() => readCoverageRun(file)).toThrow(message);
    expect(() => readCoverageRun(file)).toThrow(`--coverage ${file}`);
  });

  it("refuses a report that is not there", () => {
    expect(() => readCoverageRun(join(dir, "none.json"))).toThrow(/^--coverage .*none\.json: /);
  });
});

describe("a site built with a run", () => {
  it("ends the rules page with the run's coverage, and no other page; a site built without a run has none", () => {
    const doc = loadBundle();
    const withRun = join(dir, "with");
    const without = join(dir, "without");
    buildSite(doc, withRun, run(SHORT));
    buildSite(doc, without);
    const heading = "Rule × condition coverage of a run";
    const rules = readFileSync(join(withRun, "rules.html"), "utf8");
    expect(rules).toContain(heading);
    expect(rules).toContain("<code>jobs.poll-owner-only</code>");
    expect(readFileSync(join(withRun, "rules.md"), "utf8")).toContain(coverageSection(run(SHORT)));
    for (const page of ["index.html", "limits.html", "reference.md"])
      expect(readFileSync(join(withRun, page), "utf8")).not.toContain(heading);
    expect(readFileSync(join(without, "rules.html"), "utf8")).not.toContain(heading);
  });
});
