/**
 * What the lint makes of Spectral's results and of Redocly's reports (lint/lint-description.ts,
 * run-redocly.ts, lint-workflows.ts), from hand-written results and reports: where each finding is
 * located, its severity and rule, their order, the line each prints as, and a report that is not
 * there. The CLIs themselves run in lint-script.e2e.ts and redocly-config.e2e.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fails, formatFinding, type LintFinding, lintReport } from "../../lint/lint-description.ts";
import { lintWorkflows, workflowFiles, workflowFindings } from "../../lint/lint-workflows.ts";
import { type RedoclyProblem, redoclyProblems } from "../../lint/run-redocly.ts";
import { SourceMap } from "../../lint/source-map.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "lint-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A modular source of one line per key: `get` of /a is on line 5, column 5.
const source = join(dir, "openapi.yaml");
writeFileSync(source, "openapi: 3.1.0\ninfo:\n  title: t\npaths:\n  /a:\n    get:\n      summary: s\n");
const sources = new SourceMap(source);
const bundle = join(dir, "bundle.yaml");

/** A Spectral result at `path`, its range at (line, character) of the bundle, counted from 0. */
const result = (
  path: (string | number)[],
  line: number,
  character: number,
  severity = 0,
  code: string | number = "r",
) => ({
  path,
  range: { start: { line, character }, end: { line, character } },
  severity,
  code,
  message: `${code} message`,
});

const problem = (pointer: string, start?: { line: number; col: number }): RedoclyProblem => ({
  ruleId: "rule",
  severity: "warn",
  message: "problem message",
  pointer,
  start,
});

const at = (file: string, line: number, column: number) => ({ file, line, column });

describe("lintReport", () => {
  it("locates a Spectral result at its source where its path leads there, and a missing key at its parent", () => {
    const { findings } = lintReport(
      bundle,
      [result(["paths", "/a", "get"], 40, 2, 1, 12), result(["paths", "/a", "get", "description"], 41, 2)],
      [],
      sources,
    );
    expect(findings.map(({ location }) => location)).toEqual([at(source, 6, 5), at(source, 6, 5)]);
    expect(findings[0]).toMatchObject({ severity: "warn", code: "12", message: "12 message" });
  });

  it("locates a result its source lacks, or every result when no source is given, at its place in the bundle, counted from 1", () => {
    const expected = [at(resolve(bundle), 10, 4)];
    expect(
      lintReport(bundle, [result(["nowhere", "else"], 9, 3)], [], sources).findings.map((f) => f.location),
    ).toEqual(expected);
    expect(lintReport(bundle, [result(["paths", "/a", "get"], 9, 3)], []).findings.map((f) => f.location)).toEqual(
      expected,
    );
  });

  it("maps Spectral's severities 0 to 3 to error, warn, info and hint, and any other to error", () => {
    const results = [0, 1, 2, 3, 7].map((severity, line) => result([], line, 0, severity));
    expect(lintReport(bundle, results, []).findings.map((f) => f.severity)).toEqual([
      "error",
      "warn",
      "info",
      "hint",
      "error",
    ]);
  });

  it("locates a Redocly problem by its pointer in the source, else at its start in the bundle, else at the bundle's first line", () => {
    const report = lintReport(
      bundle,
      [],
      [problem("#/paths/~1a/get"), problem("#/no/where", { line: 3, col: 7 }), problem("#/no/where")],
      sources,
    );
    expect(report.findings.map(({ location }) => location)).toEqual([
      at(resolve(bundle), 1, 1),
      at(resolve(bundle), 3, 7),
      at(source, 6, 5),
    ]);
    expect(report.findings[0]).toMatchObject({ severity: "warn", code: "redocly:rule", message: "problem message" });
  });

  it("takes a problem at #/ to be at the document's root", () => {
    const [rooted] = lintReport(bundle, [], [problem("#/", { line: 9, col: 9 })], sources).findings;
    expect(rooted?.location).toEqual(sources.locate([]));
    const [inBundle] = lintReport(bundle, [], [problem("#/", { line: 9, col: 9 })]).findings;
    expect(inBundle?.location).toEqual(at(resolve(bundle), 9, 9));
  });

  it("orders the findings by file, then line, then column, and counts each tool's", () => {
    const other = join(dir, "a-first.yaml");
    const report = lintReport(
      other,
      [result([], 4, 8), result([], 4, 2), result([], 1, 9)],
      [problem("#/x", { line: 3, col: 1 })],
    );
    expect(report.findings.map(({ location }) => [location.line, location.column])).toEqual([
      [2, 10],
      [3, 1],
      [5, 3],
      [5, 9],
    ]);
    expect([report.spectralResults, report.redoclyProblems]).toEqual([3, 1]);
    // bundle.yaml before openapi.yaml, whatever the lines.
    const files = lintReport(
      bundle,
      [result(["paths", "/a", "get"], 0, 0), result(["no", "where"], 30, 0)],
      [],
      sources,
    );
    expect(files.findings.map(({ location }) => [location.file, location.line])).toEqual([
      [resolve(bundle), 31],
      [source, 6],
    ]);
  });
});

describe("redoclyProblems", () => {
  it("reads the JSON report after any line printed before it, each problem at its first location, one without at the root", () => {
    const report = {
      problems: [
        {
          ruleId: "no-empty-servers",
          severity: "error",
          message: "Servers must be present.",
          location: [{ pointer: "#/servers", start: { line: 2, col: 1 } }, { pointer: "#/other" }],
        },
        { ruleId: "struct", severity: "warn", message: "Unknown.", location: [] },
      ],
    };
    expect(redoclyProblems("x.yaml", `validating x.yaml...\n${JSON.stringify(report)}`, "")).toEqual([
      {
        ruleId: "no-empty-servers",
        severity: "error",
        message: "Servers must be present.",
        pointer: "#/servers",
        start: { line: 2, col: 1 },
      },
      { ruleId: "struct", severity: "warn", message: "Unknown.", pointer: "#/", start: undefined },
    ]);
  });

  it("reads a report that starts the output", () => {
    expect(redoclyProblems("x.yaml", JSON.stringify({ problems: [] }), "")).toEqual([]);
  });

  it("is an error giving what the CLI printed when there is no report", () => {
    expect(() => redoclyProblems("x.yaml", "out text", "err text\n")).toThrow(
      new Error("redocly lint x.yaml printed no report:\nerr text\nout text"),
    );
  });
});

describe("workflowFindings", () => {
  const issue = (severity: string, fingerprint: string, line: number) => ({
    description: `${fingerprint} described`,
    severity,
    fingerprint,
    location: { path: "workflows/a.arazzo.yaml", lines: { begin: line } },
  });

  it("reads the codeclimate report: minor and info are warnings, the rest errors, the rule before the fingerprint's pointer", () => {
    const issues = [
      issue("minor", "spec-x-#/a", 1),
      issue("info", "rule-b-#/b/c", 2),
      issue("major", "rule-c", 3),
      issue("critical", "rule-d-#/", 4),
    ];
    const findings = workflowFindings(["a"], `note\n${JSON.stringify(issues)}`, "", true);
    expect(findings.map(({ severity, code, location }) => [severity, code, location.line])).toEqual([
      ["warn", "redocly:spec-x", 1],
      ["warn", "redocly:rule-b", 2],
      ["error", "redocly:rule-c", 3],
      ["error", "redocly:rule-d", 4],
    ]);
    expect(findings[0]).toEqual({
      location: { file: join(ROOT, "workflows/a.arazzo.yaml"), line: 1, column: 1 },
      severity: "warn",
      code: "redocly:spec-x",
      message: "spec-x-#/a described",
    });
  });

  it("is no finding when a run that did not fail printed nothing, or an empty report", () => {
    expect(workflowFindings(["a"], " \n", "", false)).toEqual([]);
    expect(workflowFindings(["a"], "[]", "", true)).toEqual([]);
  });

  it("is an error giving what the CLI printed when a failed run, or any output, holds no report", () => {
    expect(() => workflowFindings(["a", "b"], "", "boom\n", true)).toThrow(
      new Error("redocly lint of 2 workflow file(s) printed no report:\nboom\n"),
    );
    expect(() => workflowFindings(["a"], "no list", "", false)).toThrow(
      new Error("redocly lint of 1 workflow file(s) printed no report:\nno list"),
    );
  });
});

describe("fails and formatFinding", () => {
  const finding = (file: string, severity: LintFinding["severity"]): LintFinding => ({
    location: { file, line: 3, column: 4 },
    severity,
    code: "rule",
    message: "the message",
  });

  it("fail on errors and warnings only", () => {
    expect((["error", "warn", "info", "hint"] as const).map((severity) => fails(finding("f", severity)))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("print file:line:column severity rule message, the file relative to the folder when under it", () => {
    expect(formatFinding(finding(join(dir, "sub", "f.yaml"), "warn"), dir)).toBe(
      "sub/f.yaml:3:4 warn rule the message",
    );
    const outside = join(tmpdir(), "elsewhere.yaml");
    expect(formatFinding(finding(outside, "error"), dir)).toBe(`${outside}:3:4 error rule the message`);
  });
});

describe("the workflow files", () => {
  it("are the folder's *.arazzo.yaml files, by name, each with its path", () => {
    const folder = join(dir, "workflows");
    mkdirSync(folder);
    for (const name of ["b.arazzo.yaml", "redocly.yaml", "a.arazzo.yaml", "notes.arazzo.yaml.bak"])
      writeFileSync(join(folder, name), "");
    expect(workflowFiles(folder)).toEqual([join(folder, "a.arazzo.yaml"), join(folder, "b.arazzo.yaml")]);
  });

  it("lint to nothing without starting Redocly when there are none", async () => {
    expect(await lintWorkflows([], join(dir, "no-such-config.yaml"))).toEqual([]);
  });
});
