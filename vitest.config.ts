import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.ts";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "lint/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
