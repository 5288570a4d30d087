/**
 * `npm run lint`'s command (lint/lint-command.ts) with stand-ins for Spectral and Redocly: which
 * files it lints and where it locates their findings, its lines and its exit status (0 clean or
 * advice only, 1 an error or a warning or a stale bundle, 2 a missing file). The linters themselves
 * run in lint-script.e2e.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Linters, lintCommand } from "../../lint/lint-command.ts";
import type { LintFinding, Severity } from "../../lint/lint-description.ts";
import { SourceMap } from "../../lint/source-map.ts";

const dir = mkdtempSync(join(tmpdir(), "lint-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bundle = join(dir, "bundle.yaml");
writeFileSync(bundle, "openapi: 3.1.0\n");

const finding = (file: string, line: number, severity: Severity, code: string): LintFinding => ({
  location: { file, line, column: 2 },
  severity,
  code,
  message: `${code} says so`,
});

interface Run {
  status: number;
  out: string[];
  err: string[];
  /** What the stand-ins were asked to lint. */
  linted: { bundle?: string; sources?: SourceMap; workflows?: readonly string[] };
}

/** The command on `args`, its linters finding `description` and `workflows`. */
async function lint(
  args: string[],
  { description = [] as LintFinding[], workflows = [] as LintFinding[], stale = null as string | null } = {},
): Promise<Run> {
  const run: Run = { status: -1, out: [], err: [], linted: {} };
  const linters: Linters = {
    async description(file, { sources }) {
      Object.assign(run.linted, { bundle: file, sources });
      return { findings: description, spectralResults: description.length, redoclyProblems: 1 };
    },
    async workflows(files) {
      run.linted.workflows = files;
      return workflows;
    },
    workflowFiles: () => ["workflows/a.arazzo.yaml", "workflows/b.arazzo.yaml"],
  };
  run.status = await lintCommand(
    args,
    { out: (line) => run.out.push(line), err: (line) => run.err.push(line) },
    { staleBundle: async () => stale, linters },
  );
  return run;
}

describe("lintCommand", () => {
  it("lints generated/openapi.yaml located in openapi/ and the workflows by default, and says what it linted", async () => {
    const run = await lint([], { workflows: [finding(resolve("workflows/a.arazzo.yaml"), 3, "error", "redocly:x")] });
    expect(run.linted.bundle).toBe("generated/openapi.yaml");
    expect(run.linted.sources).toBeInstanceOf(SourceMap);
    expect(run.linted.workflows).toEqual(["workflows/a.arazzo.yaml", "workflows/b.arazzo.yaml"]);
    expect(run.out).toEqual([
      "workflows/a.arazzo.yaml:3:2 error redocly:x redocly:x says so",
      "lint: 0 Spectral results, 1 Redocly problems on generated/openapi.yaml, located in openapi/.",
      "lint: 1 Redocly problems in 2 Arazzo workflows (workflows/).",
    ]);
    expect(run.err).toEqual([]);
    expect(run.status).toBe(1);
  });

  it("lints a bundle given alone at its own lines, without the workflows", async () => {
    const run = await lint([bundle], { description: [finding(bundle, 7, "info", "advice")] });
    expect(run.linted).toEqual({ bundle, sources: undefined, workflows: [] });
    expect(run.out).toEqual([
      `${bundle}:7:2 info advice advice says so`,
      `lint: 1 Spectral results, 1 Redocly problems on ${bundle}.`,
    ]);
    expect(run.status).toBe(0);
  });

  it("locates a bundle's findings in the root given with it", async () => {
    const run = await lint([bundle, "openapi/openapi.yaml"]);
    expect(run.linted.sources).toBeInstanceOf(SourceMap);
    expect(run.linted.workflows).toEqual([]);
    expect(run.out).toEqual([`lint: 0 Spectral results, 1 Redocly problems on ${bundle}, located in openapi/.`]);
    expect(run.status).toBe(0);
  });

  it.each([
    ["error", 1],
    ["warn", 1],
    ["info", 0],
    ["hint", 0],
  ] as const)(
    "exits %s findings with %i: errors and warnings fail, info and hints are advice",
    async (severity, status) => {
      expect((await lint([bundle], { description: [finding(bundle, 1, severity, "rule")] })).status).toBe(status);
      expect((await lint([], { workflows: [finding(bundle, 1, severity, "rule")] })).status).toBe(status);
    },
  );

  it("fails on one failing finding among advice", async () => {
    const description = [
      finding(bundle, 1, "info", "a"),
      finding(bundle, 2, "warn", "b"),
      finding(bundle, 3, "hint", "c"),
    ];
    expect((await lint([bundle], { description })).status).toBe(1);
  });

  it("refuses a missing bundle or root in one line, exit 2, before linting", async () => {
    const missing = join(dir, "missing.yaml");
    for (const args of [[missing], [bundle, missing]]) {
      const run = await lint(args);
      expect(run.err).toEqual([`lint: ${missing} is missing.`]);
      expect([run.status, run.out, run.linted]).toEqual([2, [], {}]);
    }
  });

  it("refuses a bundle older than its root in one line, exit 1, before linting; a bundle given alone is not compared", async () => {
    const run = await lint([bundle, "openapi/openapi.yaml"], { stale: "bundle.yaml is older than its sources" });
    expect(run.err).toEqual(["lint: bundle.yaml is older than its sources"]);
    expect([run.status, run.out, run.linted]).toEqual([1, [], {}]);
    expect((await lint([bundle], { stale: "never asked" })).status).toBe(0);
  });
});
