import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.ts";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "lint/**/*.test.ts"],
    // Many suites wait on servers and child processes (Prism, the sandbox, npm, tsc): twice as many
    // workers as cores keeps both cores busy while some wait (about 2 min instead of 3.5 on 2 cores).
    maxWorkers: "200%",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
