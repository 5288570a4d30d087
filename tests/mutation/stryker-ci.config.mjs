// @ts-check
/**
 * CI's mutation run (`npm run test:mutation:ci`): the code that ships (runtime/) and the sandbox's
 * rules, incrementally from the committed result of a run over exactly this scope
 * (tests/mutation/stryker-incremental.json, written by `npm run test:mutation:baseline`). Only the
 * mutants whose file or covering tests changed since are run again: on an unchanged checkout none.
 * Stryker compares the mutated files and the test files only; a change elsewhere that a mutant's
 * fate depends on (the description, generated/) needs a new baseline. The generators and the
 * conformance checks are left to the whole run, `npm run test:mutation` (stryker.config.mjs).
 */
import base, { SHIPPED_AND_RULES } from "../../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  mutate: SHIPPED_AND_RULES,
  incremental: true,
  incrementalFile: "tests/mutation/stryker-incremental.json",
  jsonReporter: { fileName: "reports/mutation/mutation-ci.json" },
};
