/**
 * `npm run test:release`: the release against a real npm registry (Verdaccio on 127.0.0.1), too
 * slow for npm test: it builds, packs and publishes both packages three times and installs them.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.release-test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
