import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.ts";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "lint/**/*.test.ts"],
    // Many suites wait on servers and child processes (Prism, the sandbox, npm, tsc), so one worker
    // more than cores keeps them busy; each worker also costs its own imports, so more is slower
    // (npm test on 2 cores: 2 workers 63 s, 3 workers 56-57 s, 4 workers 59-60 s). A number, since
    // vitest caps a percentage at the core count.
    maxWorkers: availableParallelism() + 1,
    // Test files share their worker's modules: the description, its model and compiled schemas load
    // once per worker instead of once per file (a sixth of the suite's CPU time). No test mocks a
    // module; the ones that fake timers or Math.random restore them after each test.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
