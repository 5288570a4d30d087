/**
 * `npm run test:browser`: the docs site in Debian's chromium (tests/**\/*.browser.ts): every page
 * served and from disk, and the try-it console against a running sandbox. Kept out of `npm test`,
 * whose time budget a browser does not fit; .ci/run runs it.
 */
import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.ts";

export default defineConfig({
  test: {
    include: ["tests/**/*.browser.ts"],
    // One browser at a time: each test file launches its own chromium, heavy on two shared cores.
    maxWorkers: 1,
    isolate: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ["default", new SummaryReporter()],
  },
});
