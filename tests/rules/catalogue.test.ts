/**
 * The rule catalogue covers the specification: every statement (spec/catalogue.ts says what one is)
 * is named by a rule or an informative entry, and every entry's words are still the specification's.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CATALOGUE_FILE,
  coverageProblems,
  joinedStatements,
  readSpecUnits,
  SPEC_FILE,
  specUnits,
} from "../../spec/catalogue.ts";
import { CATALOGUE_SOURCE, readCatalogueSource } from "../../spec/catalogue-source.ts";

const catalogue = readCatalogueSource();
const spec = readFileSync(SPEC_FILE, "utf8");

/** The specification with `line` inserted after the line holding `after`. */
function withLineAfter(after: string, line: string): { text: string; number: number } {
  const lines = spec.split("\n");
  const index = lines.findIndex((candidate) => candidate.includes(after));
  expect(index).toBeGreaterThanOrEqual(0);
  lines.splice(index + 1, 0, line);
  return { text: lines.join("\n"), number: index + 2 };
}

describe("the rule catalogue", () => {
  it("is read from this repository's spec/ folder (the tools, from the JSON npm run generate makes of it)", () => {
    expect(CATALOGUE_SOURCE).toBe(fileURLToPath(new URL("../../spec/rules.yaml", import.meta.url)));
    expect(CATALOGUE_FILE).toBe(fileURLToPath(new URL("../../generated/rules.json", import.meta.url)));
    expect(SPEC_FILE).toBe(fileURLToPath(new URL("../../spec/media-service-spec.md", import.meta.url)));
  });

  it("covers every statement of the specification, each entry's words found once in its section", () => {
    expect(coverageProblems(readSpecUnits(), catalogue)).toEqual([]);
  });

  it("gives each rule a distinct id of lower-case words and dots", () => {
    const ids = catalogue.rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(id))).toEqual([]);
  });

  it("fails on a normative sentence added to the specification, naming its line", () => {
    const added = "Every job id is at most 64 characters long.";
    const { text, number } = withLineAfter("| Stock searches | 20 results per page maximum |", `\n${added}`);
    expect(coverageProblems(specUnits(text), catalogue)).toEqual([
      `line ${number + 1} (Limits) states something no entry of spec/rules.yaml covers: ${added}`,
    ]);
  });

  it("fails on a sentence added inside a numbered rule, and on a table row added", () => {
    const item = "3. Missing or invalid key: HTTP 401 with an Error body.";
    const number = spec.split("\n").indexOf(item) + 1;
    expect(number).toBeGreaterThan(0);
    const sentence = spec.replace(item, `${item} Keys are checked in constant time.`);
    expect(coverageProblems(specUnits(sentence), catalogue)).toEqual([
      `line ${number} (Authentication) states something no entry of spec/rules.yaml covers: Keys are checked in constant time.`,
    ]);
    const row = withLineAfter("| Stock searches | 20 results per page maximum |", "| Posts | 5 per minute |");
    expect(coverageProblems(specUnits(row.text), catalogue)).toEqual([
      `line ${row.number} (Limits) states something no entry of spec/rules.yaml covers: | Posts | 5 per minute |`,
    ]);
  });

  it("fails on a rule whose words the specification no longer has, naming the rule", () => {
    const changed = spec.replace(
      "| Requests per API key | 600 per minute (default, may be tuned) |",
      "| Requests per API key | 500 per minute (default, may be tuned) |",
    );
    const problems = coverageProblems(specUnits(changed), catalogue);
    expect(problems).toContain(
      'rule limits.rate.per-key: its words no longer occur in the specification\'s section "Limits": Requests per API key | 600 per minute (default, may be tuned)',
    );
  });

  it("splits statements as spec/catalogue.ts says: rows, sentences, not headings or table headers", () => {
    const units = specUnits(
      [
        "## Limits",
        "",
        "| Limit | Value |",
        "|---|---|",
        "| Uploads | 60 |",
        "",
        "1. One rule. 4K is a second. Another `rule`. (A third.)",
        "",
        "### Sub",
        "**Variant X** (label). Text.",
      ].join("\n"),
    );
    expect(units.map(({ line, section, text }) => [line, section, text])).toEqual([
      [5, "Limits", "| Uploads | 60 |"],
      [7, "Limits", "One rule."],
      [7, "Limits", "4K is a second."],
      [7, "Limits", "Another `rule`."],
      [7, "Limits", "(A third.)"],
      [10, "Limits / Sub / Variant X", "**Variant X** (label)."],
      [10, "Limits / Sub / Variant X", "Text."],
    ]);
  });

  it("names one statement per rule: no rule joins two sentences (I-A's free references and its 4K JPEG are two)", () => {
    expect(joinedStatements(readSpecUnits(), catalogue)).toEqual([]);
    const joined = {
      ...catalogue,
      rules: [
        {
          id: "images.i-a.joined",
          section: "Endpoints / Image creation: POST /v1/images/{slug} / Variant I-A",
          words: "Reference images are free. 4K is returned as JPEG, smaller sizes as PNG.",
        },
      ],
    };
    expect(joinedStatements(readSpecUnits(), joined)).toEqual([
      'rule images.i-a.joined joins 2 statements ("Reference images are free.", "4K is returned as JPEG, smaller sizes as PNG."): one rule per statement',
    ]);
  });

  it("lets words run in from the sentence before only to name one of two identical sentences", () => {
    const named = catalogue.rules.filter((rule) => rule.words.endsWith(". No `Retry-After`."));
    expect(named.map((rule) => rule.id).sort()).toEqual([
      "errors.queue-full-no-retry-after",
      "errors.spend-limit-no-retry-after",
    ]);
    const whole = {
      ...catalogue,
      rules: [
        {
          ...named[0]!,
          words: `Queue full: as many generations in flight as the plan's concurrency cap allows. The client polls its running jobs and submits the next as they finish; a fixed wait is the wrong response. No \`Retry-After\`.`,
        },
      ],
    };
    expect(joinedStatements(readSpecUnits(), whole)).toHaveLength(1);
  });
});
