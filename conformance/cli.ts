/**
 * `npm run conformance`: against the mock (no CONFORMANCE_TARGET) or an implementation.
 * Environment: CONFORMANCE_TARGET, CONFORMANCE_API_KEY, CONFORMANCE_CONFIG (the target's JSON
 * declaration), CONFORMANCE_AREAS / CONFORMANCE_MODELS / CONFORMANCE_SKIP (comma lists),
 * CONFORMANCE_PROXY=off, CONFORMANCE_REPORT_DIR (default conformance/reports/, gitignored), CONFORMANCE_REPORT_JSON,
 * CONFORMANCE_REPORT_JUNIT. Exits 1 when any contract check fails.
 */
import { join } from "node:path";
import { DeclarationError } from "./config.ts";
import { formatConsole, writeReports } from "./report.ts";
import { runConformance } from "./run.ts";

const env = process.env;
const reportDir = env.CONFORMANCE_REPORT_DIR ?? "conformance/reports";
const paths = {
  json: env.CONFORMANCE_REPORT_JSON ?? join(reportDir, "conformance.json"),
  junit: env.CONFORMANCE_REPORT_JUNIT ?? join(reportDir, "conformance.junit.xml"),
};

try {
  const { summary, results } = await runConformance(
    {
      ...(env.CONFORMANCE_TARGET ? { target: env.CONFORMANCE_TARGET.replace(/\/$/, "") } : {}),
      ...(env.CONFORMANCE_API_KEY ? { apiKey: env.CONFORMANCE_API_KEY } : {}),
      proxy: env.CONFORMANCE_PROXY !== "off",
    },
    env,
  );
  console.log(formatConsole(summary, results));
  writeReports(paths, summary, results);
  console.log(`reports: ${paths.json}, ${paths.junit}`);
  process.exitCode = summary.fail > 0 ? 1 : 0;
} catch (error) {
  const shown = error instanceof DeclarationError ? error.message : ((error as Error).stack ?? String(error));
  console.error(`conformance run failed: ${shown}`);
  process.exitCode = 2;
}
