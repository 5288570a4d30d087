import { execFile } from "node:child_process";
import { resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REDOCLY = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));

/** Nothing leaves the machine: Redocly's CLI sends usage data and looks for updates unless told not to. */
export const REDOCLY_OFFLINE_ENV = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } as const;

export interface RedoclyProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  /** JSON pointer of the first location. */
  pointer: string;
  /** Line and column of the first location in the linted file, counted from 1. */
  start: { line: number; col: number } | undefined;
}

interface RedoclyReport {
  problems: Array<{
    ruleId: string;
    severity: "error" | "warn";
    message: string;
    location: Array<{ pointer?: string; start?: { line: number; col: number } }>;
  }>;
}

/**
 * Runs `redocly lint` on one file with a configuration (redocly.yaml by default) and returns its
 * problems. The CLI runs in its own process, so it lints on another core while Spectral runs in
 * this one (@redocly/cli has no programmatic API).
 */
export function lintWithRedocly(file: string, config = "redocly.yaml"): Promise<RedoclyProblem[]> {
  return new Promise((resolve, reject) => {
    // The CLI runs in the project root (where redocly.yaml is); the file is the caller's.
    const args = ["lint", resolvePath(file), "--config", config, "--format", "json", "--max-problems", "10000"];
    // Redocly exits non-zero when it finds problems; the report on stdout says what they are.
    execFile(
      REDOCLY,
      args,
      { cwd: ROOT, env: { ...process.env, ...REDOCLY_OFFLINE_ENV }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout, stderr) => {
        const start = stdout.indexOf("{");
        if (start < 0) {
          reject(new Error(`redocly lint ${file} printed no report:\n${stderr}${stdout}`));
          return;
        }
        const report = JSON.parse(stdout.slice(start)) as RedoclyReport;
        resolve(
          report.problems.map(({ ruleId, severity, message, location }) => ({
            ruleId,
            severity,
            message,
            pointer: location[0]?.pointer ?? "#/",
            start: location[0]?.start,
          })),
        );
      },
    );
  });
}
