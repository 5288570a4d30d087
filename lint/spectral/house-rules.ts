/**
 * The house rules of lint/rules/ as a Spectral ruleset, which .spectral.yaml extends. Spectral
 * loads only JavaScript, so lint/build-functions.ts compiles this file into
 * lint/.functions/house-rules.js.
 */
import { createRulesetFunction, type RuleDefinition, type RulesetDefinition } from "@stoplight/spectral-core";
import type { OpenApiDocument } from "../../model/document.ts";
import { readSlugMap, slugMapFile } from "../../model/slug-map.ts";
import type { HouseRule } from "../finding.ts";
import * as HOUSE_RULES from "../rules/index.ts";

/**
 * Every house rule reads the whole unresolved document (`given: $`, `resolved: false`) so that a
 * finding points at the one place to fix: a shared component once, not at every $ref to it.
 */
function spectralRule({ description, check }: HouseRule): RuleDefinition {
  const run = createRulesetFunction<unknown, null>({ input: null, options: null }, (input) =>
    check(input as OpenApiDocument, { slugMap: readSlugMap(slugMapFile()) }),
  );
  return { description, message: "{{error}}", severity: "error", given: "$", resolved: false, then: { function: run } };
}

const ruleset: RulesetDefinition = {
  rules: Object.fromEntries(Object.entries(HOUSE_RULES).map(([name, rule]) => [`house-${name}`, spectralRule(rule)])),
};

export default ruleset;
