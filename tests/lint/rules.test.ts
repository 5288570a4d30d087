/**
 * The Spectral ruleset (.spectral.yaml) on the lint fixtures: nothing on the golden document, each
 * breaking fixture exactly its findings. The Redocly configuration's are redocly-config.e2e.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as HOUSE_RULES from "../../lint/rules/index.ts";
import { SPECTRAL_RULESET } from "../../lint/run-spectral.ts";
import { applyPatch, breakingFixtures, golden, lint, loadedSpectral, sorted } from "./support.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";

// The fixtures name placeholder slugs: a slug map the project builds with does not apply to them.
withoutSlugMap();

/** The house rules .spectral.yaml defines itself, from Spectral's core functions. */
const coreFunctionRules = Object.keys(
  (parse(readFileSync(SPECTRAL_RULESET, "utf8")) as { rules: Record<string, unknown> }).rules,
).filter((code) => code.startsWith("house-"));
const houseRules = [...coreFunctionRules, ...Object.keys(HOUSE_RULES).map((name) => `house-${name}`)];
const fixtures = breakingFixtures();

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
    expect(houseRules.filter((code) => !fired.has(code))).toEqual([]);
  });

  it("loads every rule of the list, with its description, as house-<name>", async () => {
    const { ruleset } = await loadedSpectral();
    const loaded = Object.fromEntries(
      Object.entries(ruleset?.rules ?? {}).map(([code, rule]) => [code, rule.description]),
    );
    for (const [name, rule] of Object.entries(HOUSE_RULES))
      expect(loaded[`house-${name}`], name).toBe(rule.description);
  });

  it("tells the author how to fix every house finding", () => {
    for (const { code, message } of fixtures.flatMap((fixture) => fixture.expect)) {
      if (!code.startsWith("house-")) continue;
      expect(message, code).toMatch(/\b(add|remove|set|move|rename|use|fix|declare|list|keep|correct)\b/i);
    }
  });
});
