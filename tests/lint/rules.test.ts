import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { CHECKS } from "../../lint/checks/index.ts";
import { lintWithRedocly } from "../../lint/run-redocly.ts";
import { SPECTRAL_RULESET } from "../../lint/run-spectral.ts";
import { applyPatch, breakingFixtures, GOLDEN_FILE, golden, lint, type ExpectedResult } from "./support.ts";

interface RulesetRule {
  then?: { function?: string; functionOptions?: { check?: string } };
}
const rules = (parse(readFileSync(SPECTRAL_RULESET, "utf8")) as { rules: Record<string, RulesetRule | string> }).rules;
const houseRules = Object.entries(rules).filter(([code]) => code.startsWith("house-")) as Array<[string, RulesetRule]>;
const fixtures = breakingFixtures();

function sorted(results: ExpectedResult[]): ExpectedResult[] {
  return [...results].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe("the Spectral ruleset (.spectral.yaml)", () => {
  it("reports nothing at all on the golden document", async () => {
    expect(await lint(golden())).toEqual([]);
  });

  for (const fixture of fixtures) {
    it(`${fixture.name}: ${fixture.description}`, async () => {
      const results = await lint(applyPatch(golden(), fixture.patch));
      expect(sorted(results)).toEqual(sorted(fixture.expect));
    });
  }

  it("has a breaking fixture for every house rule, so no rule is one that can never fire", () => {
    const fired = new Set(fixtures.flatMap((fixture) => fixture.expect.map((result) => result.code)));
    expect(houseRules.map(([code]) => code).filter((code) => !fired.has(code))).toEqual([]);
  });

  it("runs every house check from some rule", () => {
    const used = new Set(houseRules.map(([, rule]) => rule.then?.functionOptions?.check));
    expect(Object.keys(CHECKS).filter((check) => !used.has(check))).toEqual([]);
  });

  it("tells the author how to fix every house finding", () => {
    for (const { code, message } of fixtures.flatMap((fixture) => fixture.expect)) {
      if (!code.startsWith("house-")) continue;
      expect(message, code).toMatch(/\b(add|remove|set|move|rename|use|fix|declare|list|keep|correct)\b/i);
    }
  });
});

describe("the Redocly configuration (redocly.yaml)", () => {
  const tuned = Object.keys((parse(readFileSync("redocly.yaml", "utf8")) as { rules: Record<string, unknown> }).rules);

  it("reports nothing on the golden document", () => {
    expect(lintWithRedocly(GOLDEN_FILE)).toEqual([]);
  });

  it("tunes only rules that the plain recommended ruleset breaks on the golden document", () => {
    const dir = mkdtempSync(join(tmpdir(), "redocly-"));
    try {
      writeFileSync(join(dir, "recommended.yaml"), "extends: [recommended]\n");
      const ruleIds = new Set(lintWithRedocly(GOLDEN_FILE, join(dir, "recommended.yaml")).map((problem) => problem.ruleId));
      expect([...ruleIds].sort()).toEqual([...tuned].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still rejects an example that breaks its schema", () => {
    const dir = mkdtempSync(join(tmpdir(), "redocly-"));
    try {
      const file = join(dir, "broken-example.yaml");
      const broken = applyPatch(golden(), [{ op: "replace", path: "/components/responses/ImageJobAccepted/content/application~1json/examples/accepted/value/status", value: "lost" }]);
      writeFileSync(file, stringify(broken));
      expect(lintWithRedocly(file).map((problem) => [problem.ruleId, problem.pointer])).toEqual([
        ["no-invalid-media-type-examples", "#/components/responses/ImageJobAccepted/content/application~1json/examples/accepted/value/status"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
