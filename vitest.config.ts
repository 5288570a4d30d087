import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.ts";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "lint/**/*.test.ts"],
    // One worker per core: the suites left in npm test mostly compute rather than wait on child
    // processes (those are in test:e2e), and each worker costs its own imports, about 11 s of CPU.
    maxWorkers: availableParallelism(),
    // Test files share their worker's modules: the description, its model and compiled schemas load
    // once per worker instead of once per file (a sixth of the suite's CPU time). No test mocks a
    // module; the ones that fake timers or Math.random restore them after each test.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
