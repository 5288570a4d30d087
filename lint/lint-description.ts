/**
 * The whole lint of a bundled description: Spectral in this process and Redocly in its own, at
 * the same time. Each finding is located in the modular source file that holds it, where a source
 * root is given and the finding's path leads into it; else in the bundle.
 */
import { readFileSync } from "node:fs";
import type { ISpectralDiagnostic, Spectral } from "@stoplight/spectral-core";
import { relative, resolve } from "node:path";
import type { JsonPath } from "./finding.ts";
import { pointerPath } from "./refs.ts";
import { lintWithRedocly, type RedoclyProblem } from "./run-redocly.ts";
import { lintText, loadSpectral } from "./run-spectral.ts";
import type { SourceMap, SourceLocation } from "./source-map.ts";

export type Severity = "error" | "warn" | "info" | "hint";

export interface LintFinding {
  location: SourceLocation;
  severity: Severity;
  /** The rule: Spectral's code, or `redocly:<ruleId>`. */
  code: string;
  message: string;
}

export interface LintReport {
  findings: LintFinding[];
  spectralResults: number;
  redoclyProblems: number;
}

/** What to lint besides the bundle's file: its text where the caller holds it, and where its paths are in openapi/. */
export interface LintInputs {
  /** The bundle's text, as written to `bundle` (a build in memory); else the file is read. */
  text?: string;
  /** The modular source of the bundle; without it, findings are at the bundle's own lines. */
  sources?: SourceMap;
  /** A loaded Spectral to reuse (the dev loop lints on every save); else one is loaded. */
  spectral?: Promise<Spectral>;
}

// Spectral's severities by number.
const SPECTRAL_SEVERITIES: readonly Severity[] = ["error", "warn", "info", "hint"];

/** Errors and warnings fail the lint; info and hints are advice. */
export function fails(finding: LintFinding): boolean {
  return finding.severity === "error" || finding.severity === "warn";
}

/** `file:line:column severity code message`, as editors and terminals link it; the file relative to `cwd` when under it. */
export function formatFinding({ location, severity, code, message }: LintFinding, cwd = process.cwd()): string {
  const near = relative(cwd, location.file);
  return `${near.startsWith("..") ? location.file : near}:${location.line}:${location.column} ${severity} ${code} ${message}`;
}

function compareLocations(a: LintFinding, b: LintFinding): number {
  return (
    a.location.file.localeCompare(b.location.file) ||
    a.location.line - b.location.line ||
    a.location.column - b.location.column
  );
}

/** The place of a path, or of its parent where a rule names a key that is missing (Redocly's "should contain"). */
function nearest(map: SourceMap, path: JsonPath): SourceLocation | undefined {
  // The root's parent is the root: [] sliced is [].
  return map.locate(path) ?? map.locate(path.slice(0, -1));
}

/** Lints `bundle`: Spectral the text in memory where given, Redocly's CLI (which has no in-memory entry) the file. */
export async function lintDescription(
  bundle: string,
  { text, sources, spectral = loadSpectral() }: LintInputs = {},
): Promise<LintReport> {
  // Redocly's CLI starts in its own process at once and lints on the other core while Spectral loads and runs here.
  const [results, problems] = await Promise.all([
    spectral.then((spectral) => lintText(spectral, text ?? readFileSync(bundle, "utf8"), bundle)),
    lintWithRedocly(bundle),
  ]);
  return lintReport(bundle, results, problems, sources);
}

/**
 * Spectral's results and Redocly's problems as one list of findings, by file, line and column.
 * Each is located in `sources` where its path leads there (a key a rule says is missing, at its
 * parent); else at its own place in the bundle (Spectral's range counts from 0, Redocly's from 1);
 * else at the bundle's first line.
 */
export function lintReport(
  bundle: string,
  results: readonly Pick<ISpectralDiagnostic, "path" | "range" | "severity" | "code" | "message">[],
  problems: readonly RedoclyProblem[],
  sources?: SourceMap,
): LintReport {
  const file = resolve(bundle);
  const locate = (path: JsonPath, fallback: () => SourceLocation | undefined): SourceLocation =>
    (sources && nearest(sources, path)) ?? fallback() ?? { file, line: 1, column: 1 };
  const findings = results.map(
    ({ path, range, severity, code, message }): LintFinding => ({
      location: locate(path, () => ({ file, line: range.start.line + 1, column: range.start.character + 1 })),
      severity: SPECTRAL_SEVERITIES[severity] ?? "error",
      code: String(code),
      message,
    }),
  );
  for (const { pointer, start, severity, ruleId, message } of problems) {
    // Stryker disable next-line ConditionalExpression,StringLiteral,ArrayDeclaration: equivalent: pointerPath("#/") names a root key "", which no description has, so the finding lands on the root as with []
    const path = pointer === "#/" ? [] : pointerPath(pointer);
    findings.push({
      location: locate(path, () => start && { file, line: start.line, column: start.col }),
      severity,
      code: `redocly:${ruleId}`,
      message,
    });
  }
  return {
    findings: findings.sort(compareLocations),
    spectralResults: results.length,
    redoclyProblems: problems.length,
  };
}
