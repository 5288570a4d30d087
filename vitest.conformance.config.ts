/**
 * `npm run test:conformance`: the suite's self-tests that run it many times (every injected fault,
 * each caught by its own check; the honest reference servers, with and without a declaration, one
 * of them answering in 200 to 500 ms). Minutes of sandbox runs that npm test's budget cannot hold;
 * .ci/run runs it. The faultless mutation run stays in npm test.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: { ...base.test, include: ["tests/**/*.conformance-test.ts"] },
});
