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
 * Runs Redocly's CLI with `args` in the project root (where redocly.yaml is), offline, and returns
 * what `read` makes of its output. The CLI runs in its own process, so it lints on another core
 * while Spectral runs in this one (@redocly/cli has no programmatic API).
 */
export function runRedocly<T>(
  args: readonly string[],
  read: (stdout: string, stderr: string, failed: boolean) => T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      REDOCLY,
      args,
      { cwd: ROOT, env: { ...process.env, ...REDOCLY_OFFLINE_ENV }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        try {
          resolve(read(stdout, stderr, error !== null));
        } catch (reason) {
          reject(reason);
        }
      },
    );
  });
}

/** `redocly lint` of one file with a configuration (redocly.yaml by default): its problems. */
export function lintWithRedocly(file: string, config = "redocly.yaml"): Promise<RedoclyProblem[]> {
  // Redocly exits non-zero when it finds problems; the report on stdout says what they are.
  return runRedocly(
    ["lint", resolvePath(file), "--config", config, "--format", "json", "--max-problems", "10000"],
    (stdout, stderr) => redoclyProblems(file, stdout, stderr),
  );
}

/**
 * The problems of Redocly's JSON report on `stdout` (after any line the CLI prints before it), each
 * at its first location; a problem with no location is at the document's root. No report is an
 * error that gives what the CLI printed instead.
 */
export function redoclyProblems(file: string, stdout: string, stderr: string): RedoclyProblem[] {
  const start = stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly lint ${file} printed no report:\n${stderr}${stdout}`);
  const report = JSON.parse(stdout.slice(start)) as RedoclyReport;
  return report.problems.map(({ ruleId, severity, message, location }) => ({
    ruleId,
    severity,
    message,
    pointer: location[0]?.pointer ?? "#/",
    start: location[0]?.start,
  }));
}
