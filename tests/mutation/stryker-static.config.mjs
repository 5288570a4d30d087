// @ts-check
/**
 * The static mutants too (`npm run test:mutation:static -- --mutate <files>`): the whole run
 * (stryker.config.mjs) ignores them, since each runs the whole unit suite. Meant for the few files a
 * change touched; its result is not kept for a later run.
 */
import base from "../../stryker.config.mjs";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  ...base,
  ignoreStatic: false,
  incremental: false,
  jsonReporter: { fileName: "reports/mutation/mutation-static.json" },
};
