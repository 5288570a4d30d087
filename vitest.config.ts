/**
 * Every vitest suite, one project each; an npm script picks its project (`vitest run --project
 * e2e`), and `npm test` runs `unit`:
 * - unit (`npm test`): tests/**\/*.test.ts and the lint rules' tests, within 60 s on 2 cores,
 *   files and tests in a shuffled order when npm test runs them (scripts/test-steps.ts: it prints the seed, and replays one);
 * - e2e (`npm run test:e2e`): tests/**\/*.e2e.ts, whole processes and whole builds (the CLIs as npm
 *   runs them, the packages installed from their tarballs, Prism, the lint command and the dev loop
 *   on copies of the description, `npm run dev`);
 * - dev (`npm run test:dev`): the end-to-end test of `npm run dev` alone (e2e runs it too);
 * - conformance (`npm run test:conformance`): the suite's self-tests that run it many times (every
 *   injected fault caught by its own check, the honest reference servers): minutes of sandbox runs;
 * - browser (`npm run test:browser`): the docs site in Debian's chromium (tests/**\/*.browser.ts);
 * - release (`npm run test:release`): the release against a local npm registry (Verdaccio).
 * Stryker runs the unit tests of the mutated code with tests/mutation/vitest.config.ts.
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.ts";

/** npm test's settings, shared by the projects that run the suites' tests in workers. */
const suite = {
  // Test files share their worker's modules: the description, its model and compiled schemas load
  // once per worker instead of once per file (a sixth of the suite's CPU time). No test mocks a
  // module; the ones that fake timers or Math.random restore them after each test.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 120_000,
};

/** The unit project's settings (tests/mutation/vitest.config.ts narrows them to the mutated code's tests). */
export const unitTest = {
  ...suite,
  include: ["tests/**/*.test.ts", "lint/**/*.test.ts"],
  // One worker per core: the suites left in npm test mostly compute rather than wait on child
  // processes (those are in e2e), and each worker costs its own imports, about 11 s of CPU.
  maxWorkers: availableParallelism(),
};

export default defineConfig({
  test: {
    reporters: ["default", new SummaryReporter()],
    // Each module's transform kept on disk (node_modules/.experimental-vitest-cache, keyed by the
    // module's text and the config) and reused by the next run: about 5 s of npm test's CPU once warm.
    experimental: { fsModuleCache: true },
    projects: [
      { test: { name: "unit", ...unitTest } },
      {
        test: {
          name: "e2e",
          ...suite,
          include: ["tests/**/*.e2e.ts"],
          // These suites mostly wait on child processes (npm, Prism, the sandbox, tsc): one worker
          // more than cores keeps the cores busy.
          maxWorkers: availableParallelism() + 1,
        },
      },
      {
        test: {
          name: "dev",
          ...suite,
          include: ["tests/scripts/dev-command.e2e.ts"],
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: "conformance",
          ...suite,
          include: ["tests/**/*.conformance-test.ts"],
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: "browser",
          include: ["tests/**/*.browser.ts"],
          // One browser at a time: each test file launches its own chromium, heavy on two shared cores.
          maxWorkers: 1,
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: { name: "release", include: ["tests/**/*.release-test.ts"], testTimeout: 300_000, hookTimeout: 300_000 },
      },
    ],
  },
});
