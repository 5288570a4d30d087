import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REDOCLY = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));

export interface RedoclyProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  /** JSON pointer of the first location. */
  pointer: string;
}

interface RedoclyReport {
  problems: Array<{ ruleId: string; severity: "error" | "warn"; message: string; location: Array<{ pointer?: string }> }>;
}

/** Runs `redocly lint` on one file with a configuration (redocly.yaml by default) and returns its problems. */
export function lintWithRedocly(file: string, config = "redocly.yaml"): RedoclyProblem[] {
  const run = spawnSync(REDOCLY, ["lint", file, "--config", config, "--format", "json", "--max-problems", "10000"], { cwd: ROOT, encoding: "utf8" });
  const start = run.stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly lint ${file} printed no report (exit ${run.status}):\n${run.stderr}${run.stdout}`);
  const report = JSON.parse(run.stdout.slice(start)) as RedoclyReport;
  return report.problems.map(({ ruleId, severity, message, location }) => ({ ruleId, severity, message, pointer: location[0]?.pointer ?? "#/" }));
}
