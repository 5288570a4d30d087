/**
 * The lint of the Arazzo workflows (workflows/*.arazzo.yaml) with Redocly's CLI and
 * workflows/redocly.yaml, run by `npm run lint` beside the description's lint. One process for all
 * files; its report (the codeclimate format, one JSON list for every file) gives each problem's
 * file and line.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LintFinding } from "./lint-description.ts";
import { REDOCLY_OFFLINE_ENV } from "./run-redocly.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REDOCLY = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));
export const WORKFLOWS_DIR = join(ROOT, "workflows");

/** The workflow files of a folder (workflows/ by default), by name. */
export function workflowFiles(dir = WORKFLOWS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".arazzo.yaml"))
    .sort()
    .map((name) => join(dir, name));
}

interface CodeClimateIssue {
  description: string;
  severity: string;
  fingerprint: string;
  location: { path: string; lines: { begin: number } };
}

/** Lints the files; each finding at its file and line (the report gives no column). */
export function lintWorkflows(
  files: readonly string[],
  config = join(WORKFLOWS_DIR, "redocly.yaml"),
): Promise<LintFinding[]> {
  if (files.length === 0) return Promise.resolve([]);
  const args = ["lint", ...files.map((file) => resolve(file)), "--config", resolve(config), "--format", "codeclimate"];
  return new Promise((done, fail) => {
    execFile(
      REDOCLY,
      args,
      { cwd: ROOT, env: { ...process.env, ...REDOCLY_OFFLINE_ENV }, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // No problem, no report: the CLI prints nothing to stdout and exits 0.
        if (stdout.trim() === "" && !error) return done([]);
        const start = stdout.indexOf("[");
        if (start < 0)
          return fail(
            new Error(`redocly lint of ${files.length} workflow file(s) printed no report:\n${stderr}${stdout}`),
          );
        const issues = JSON.parse(stdout.slice(start)) as CodeClimateIssue[];
        done(
          issues.map(({ description, severity, fingerprint, location }) => ({
            location: { file: resolve(ROOT, location.path), line: location.lines.begin, column: 1 },
            severity: severity === "minor" || severity === "info" ? "warn" : "error",
            code: `redocly:${fingerprint.split("-#/")[0]}`,
            message: description,
          })),
        );
      },
    );
  });
}
