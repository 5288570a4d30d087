/**
 * `npm run test:dev`: the end-to-end test of `npm run dev` (about 15 s of child processes, too long
 * for `npm test`'s budget), with the suite's other settings; `npm run test:e2e` runs it too.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.ts";

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: { ...base.test, include: ["tests/scripts/dev-command.e2e.ts"] },
});
