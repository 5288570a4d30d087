/**
 * `npm run lint [bundle [root]]` (scripts/lint.ts): Spectral and Redocly on the bundled description,
 * each finding printed at the file and line of openapi/ it comes from. The exit status is 1 on any
 * error or warning, or when the bundle is not the current bundle of its root (sources changed since,
 * or the last build failed): it is refused in one line, not linted; 2 when a file is missing.
 *
 * Defaults: generated/openapi.yaml made from openapi/openapi.yaml, and the Arazzo workflows of
 * workflows/ (lint-workflows.ts) at the same time; a bundle given alone is reported at its own lines.
 */
import { existsSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { readSlugMap, slugMapFile } from "../model/slug-map.ts";
import { fails, formatFinding, type LintFinding, type LintReport, lintDescription } from "./lint-description.ts";
import { lintWorkflows, workflowFiles, WORKFLOWS_DIR } from "./lint-workflows.ts";
import { SourceMap } from "./source-map.ts";

export interface LintOutput {
  out(line: string): void;
  err(line: string): void;
}

/** Why a bundle is not the current bundle of its root, in one line, or null (tools/bundle-description.ts's staleBundle, given by scripts/lint.ts). */
export type StaleBundle = (bundle: string, root: string) => Promise<string | null>;

/** What the command runs: the description's lint and the workflows' (tests give stand-ins for the CLIs they start). */
export interface Linters {
  description(bundle: string, inputs: { sources?: SourceMap }): Promise<LintReport>;
  workflows(files: readonly string[]): Promise<LintFinding[]>;
  /** The workflow files linted when no bundle is given. */
  workflowFiles(): string[];
}

const LINTERS: Linters = { description: lintDescription, workflows: lintWorkflows, workflowFiles };

/** Runs the lint command on `args` and returns its exit status. */
export async function lintCommand(
  args: readonly string[],
  output: LintOutput,
  { staleBundle, linters = LINTERS }: { staleBundle?: StaleBundle; linters?: Linters } = {},
): Promise<number> {
  const [given, givenRoot] = args;
  const bundle = given ?? "generated/openapi.yaml";
  const root = givenRoot ?? (given === undefined ? "openapi/openapi.yaml" : undefined);
  for (const [file, hint] of [
    [bundle, given === undefined ? ": run npm run bundle first" : ""],
    [root, ""],
  ] as const) {
    if (file !== undefined && !existsSync(file)) {
      output.err(`lint: ${file} is missing${hint}.`);
      return 2;
    }
  }
  // Linting an older bundle (a failed build leaves the last good one) would report its lines, not the sources'.
  const stale = root === undefined ? null : await staleBundle?.(bundle, root);
  if (stale) {
    output.err(`lint: ${stale}`);
    return 1;
  }
  const sources = root === undefined ? undefined : new SourceMap(resolve(root), readSlugMap(slugMapFile()));
  const workflows = given === undefined ? linters.workflowFiles() : [];
  const [{ findings, spectralResults, redoclyProblems }, workflowFindings] = await Promise.all([
    linters.description(bundle, { sources }),
    linters.workflows(workflows),
  ]);
  for (const finding of [...findings, ...workflowFindings]) output.out(formatFinding(finding));
  output.out(
    `lint: ${spectralResults} Spectral results, ${redoclyProblems} Redocly problems on ${bundle}${root === undefined ? "" : `, located in ${dirname(root)}/`}.`,
  );
  if (workflows.length > 0)
    // Stryker disable next-line StringLiteral: equivalent: relative("") is relative("."), and "." stands only for the command run from workflows/ itself, which npm never does
    output.out(
      `lint: ${workflowFindings.length} Redocly problems in ${workflows.length} Arazzo workflows (${relative(".", WORKFLOWS_DIR) || "."}/).`,
    );
  return [...findings, ...workflowFindings].some(fails) ? 1 : 0;
}
