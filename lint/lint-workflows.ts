/**
 * The lint of the Arazzo workflows (workflows/*.arazzo.yaml) with Redocly's CLI and
 * workflows/redocly.yaml, run by `npm run lint` beside the description's lint. One process for all
 * files; its report (the codeclimate format, one JSON list for every file) gives each problem's
 * file and line.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LintFinding } from "./lint-description.ts";
import { runRedocly } from "./run-redocly.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
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
  return runRedocly(
    ["lint", ...files.map((file) => resolve(file)), "--config", resolve(config), "--format", "codeclimate"],
    (stdout, stderr, failed) => workflowFindings(files, stdout, stderr, failed),
  );
}

/**
 * The findings of Redocly's codeclimate report on `stdout`, each at its file and line: "minor" and
 * "info" issues are warnings, every other severity an error; the rule is the fingerprint's part
 * before its JSON pointer. No output from a run that did not fail is no finding; any other output
 * without a report is an error that gives what the CLI printed.
 */
export function workflowFindings(
  files: readonly string[],
  stdout: string,
  stderr: string,
  failed: boolean,
): LintFinding[] {
  if (stdout.trim() === "" && !failed) return [];
  const start = stdout.indexOf("[");
  if (start < 0)
    throw new Error(`redocly lint of ${files.length} workflow file(s) printed no report:\n${stderr}${stdout}`);
  const issues = JSON.parse(stdout.slice(start)) as CodeClimateIssue[];
  return issues.map(({ description, severity, fingerprint, location }) => ({
    location: { file: resolve(ROOT, location.path), line: location.lines.begin, column: 1 },
    severity: severity === "minor" || severity === "info" ? "warn" : "error",
    code: `redocly:${fingerprint.split("-#/")[0]}`,
    message: description,
  }));
}
