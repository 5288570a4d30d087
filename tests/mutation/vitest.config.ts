/**
 * The tests Stryker runs against each mutant (stryker.config.mjs): npm test's unit tests of the
 * mutated code (the client and the cost engine in runtime/, the generators and the rules page, the
 * sandbox's rules, the conformance checks), with npm test's settings. Kept apart from the root config's projects
 * because Stryker's vitest runner runs every project of the config it is given.
 */
import { defineConfig } from "vitest/config";
import { unitTest } from "../../vitest.config.ts";

export default defineConfig({
  test: {
    ...unitTest,
    include: [
      "tests/client/*.test.ts",
      "tests/costs/*.test.ts",
      "tests/behaviour/*.test.ts",
      "tests/sandbox/*.test.ts",
      "tests/conformance/*.test.ts",
      "tests/description/*.test.ts",
      "tests/fidelity/*.test.ts",
      "tests/generators/*.test.ts",
      "tests/rules/*.test.ts",
    ],
    // What a file's hooks run counts as covered by each of its tests (hook-coverage.ts).
    setupFiles: ["tests/mutation/hook-coverage.ts"],
    // Stryker prints its own report; vitest's closing line would only repeat per mutant.
    reporters: ["dot"],
  },
});
