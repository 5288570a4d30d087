/**
 * `npm run test:e2e`: the suites whose point is whole processes or whole builds, too heavy for npm
 * test's budget (tests/**\/*.e2e.ts): the CLIs as npm runs them (exit codes, signals, Prism children),
 * the packages installed from their tarballs into fresh projects, the client and the conformance
 * suite against Prism, the lint command and the dev loop on copies of the description, and
 * `npm run dev` end to end. .ci/run runs it; npm test keeps the quick tests of every area.
 */
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    ...base.test,
    include: ["tests/**/*.e2e.ts"],
    // These suites mostly wait on child processes (npm, Prism, the sandbox, tsc): one worker more
    // than cores keeps the cores busy.
    maxWorkers: availableParallelism() + 1,
  },
});
