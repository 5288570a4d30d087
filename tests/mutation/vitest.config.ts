/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): npm test's unit tests, with its
 * settings. Kept apart from the root config's projects
 * because Stryker's vitest runner runs every project of the config it is given.
 */
import { defineConfig } from "vitest/config";
import { unitTest } from "../../vitest.config.ts";

export default defineConfig({
  test: {
    ...unitTest,
    // Every unit test: the mutated folders are most of the project, and a mutant runs only the
    // tests that reached it in the dry run.
    include: unitTest.include,
    // What a file's hooks run counts as covered by each of its tests (hook-coverage.ts).
    setupFiles: ["tests/mutation/hook-coverage.ts"],
    // Instrumented code runs many times slower (a 10 MB body's scan took past npm test's 30 s once
    // model/ was mutated too); Stryker bounds each mutant's run itself, from the dry run's times.
    testTimeout: 120_000,
    // Stryker prints its own report; vitest's closing line would only repeat per mutant.
    reporters: ["dot"],
  },
});
