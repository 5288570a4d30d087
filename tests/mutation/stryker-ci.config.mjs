// @ts-check
/**
 * CI's mutation run (`npm run test:mutation:ci`): the code that ships (runtime/), the sandbox's
 * rules and the folders of the rest of the house whose result is committed (HOUSE_IN_CI),
 * incrementally from the committed result of a run over exactly this scope
 * (tests/mutation/stryker-incremental.json, written by `npm run test:mutation:baseline`, or by runs
 * of this config in parts). Only the mutants whose file or covering tests changed since are run
 * again; on a checkout where none of those changed, scripts/mutation.ts does not start Stryker.
 * Stryker compares the mutated files and the test files only; a change elsewhere that a mutant's
 * fate depends on (the description, generated/) needs a new baseline. The generators and the
 * rest of the conformance suite (HOUSE_ELSEWHERE) are left to the whole run,
 * `npm run test:mutation` (stryker.config.mjs).
 */
import base, { HOUSE_IN_CI, NOT_MUTATED, SHIPPED_AND_RULES } from "../../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  mutate: [...SHIPPED_AND_RULES, ...HOUSE_IN_CI, ...NOT_MUTATED],
  incremental: true,
  incrementalFile: "tests/mutation/stryker-incremental.json",
  jsonReporter: { fileName: "reports/mutation/mutation-ci.json" },
};
