// @ts-check
/**
 * Mutation testing (StrykerJS): `npm run test:mutation` mutates the code that ships (runtime/), the
 * generators, the service model's rules (behaviour/, not the sandbox's HTTP plumbing), the
 * conformance suite and every other folder of shipped or user-facing code (HOUSE_*), one small
 * change at a time, and runs the unit tests that cover each change (tests/mutation/vitest.config.ts);
 * a mutant no test fails on survives, and the report names it. CI mutates a part of it,
 * incrementally (tests/mutation/stryker-ci.config.mjs).
 */

/** The code that ships and the service model's rules (behaviour/, with the sandbox's markers; not the HTTP plumbing): what CI mutates. */
export const SHIPPED_AND_RULES = [
  "runtime/**/*.ts",
  "behaviour/{rules,jobs,ledger,cooldown,rate-windows,accounts,media,state,validation}.ts",
  "sandbox/markers.ts",
];

/**
 * The rest of the house that ships or that users read: the description's model and the contract
 * the suite reads from it, the servers' shared HTTP layer, the mock's front, the release, the
 * change report, the lint, the docs and the suite's own plumbing. CI's run takes the first list
 * (its result is in the committed file); the whole run takes both. Of the suite, CI's run has its
 * configuration and its reports so far; the rest (its runs, sessions and HTTP, whose tests start
 * sandboxes: about 22 mutants a minute on 2 cores, 2,500 of them, more than a session's hours)
 * moves to the first list in parts as each part's run with its tests of the day is committed.
 */
export const HOUSE_IN_CI = [
  "http-server/**/*.ts",
  "mock/**/*.ts",
  "contract/**/*.ts",
  "release/**/*.ts",
  "model/**/*.ts",
  "changes/**/*.ts",
  "lint/**/*.ts",
  "!lint/**/*.test.ts",
  // Re-exports under string names, the Spectral rules' ids: Stryker cannot place a mutant in an export's string name (it stops the whole run), and the ids are the rules' own (lint's tests run each by it).
  "!lint/rules/index.ts",
  "docs-src/**/*.ts",
  "conformance/{config,report,results,rules,rules-report,merge-reports,shown-text,unstated,not-shown-examples}.ts",
];
export const HOUSE_ELSEWHERE = ["conformance/**/*.ts"];

/**
 * Entry points that only read their arguments and start what they name: the modules they call are
 * mutated (a CLI's flags and errors are end-to-end tests' business).
 */
export const NOT_MUTATED = [
  "!**/cli.ts",
  "!release/pack-cli.ts",
  "!docs-src/serve.ts",
  "!docs-src/build.ts",
  "!docs-src/browser/**",
];

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  mutate: [...SHIPPED_AND_RULES, "generators/**/*.ts", ...HOUSE_IN_CI, ...HOUSE_ELSEWHERE, ...NOT_MUTATED],
  testRunner: "vitest",
  vitest: { configFile: "tests/mutation/vitest.config.ts", related: false },
  // Each mutant runs only the tests that reached its code in the first, unmutated run.
  coverageAnalysis: "perTest",
  // vitest strips types without checking them; "@ts-nocheck" lines would only make the copies of
  // generated files differ from what the generators make (a test compares them).
  disableTypeChecks: false,
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // One test process at a time: the machine's two cores are shared.
  concurrency: 1,
  // A static mutant (code run once, as its module loads: constants, tables, each check's rules and
  // summary) cannot be switched on per test, so each runs the whole unit suite (about 35 s net on 2
  // cores). They are reported as ignored; `npm run test:mutation:static -- --mutate <files>` runs
  // those of a few files (tests/mutation/stryker-static.config.mjs). What a test file's hooks run is
  // not static (tests/mutation/hook-coverage.ts).
  ignoreStatic: true,
  // A whole run's result, kept out of git: a later `npx stryker run` runs only what changed since.
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  // Each survivor with its diff (clear-text), then killed / total and the survivors per folder.
  plugins: ["@stryker-mutator/*", "./tests/mutation/folder-summary-reporter.mjs"],
  reporters: ["clear-text", "folder-summary", "progress-append-only", "json"],
  clearTextReporter: {
    allowColor: false,
    allowEmojis: false,
    reportMutants: true,
    reportTests: false,
    reportScoreTable: true,
    skipFull: false,
  },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  ignorePatterns: ["reports", "test-results", "coverage"],
  cleanTempDir: "always",
  thresholds: { high: 90, low: 80, break: null },
};
