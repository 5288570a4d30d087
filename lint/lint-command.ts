/**
 * `npm run lint [bundle [root]]` (scripts/lint.ts): Spectral and Redocly on the bundled description,
 * each finding printed at the file and line of openapi/ it comes from. The exit status is non-zero
 * on any error or warning, or when a file is missing.
 *
 * Defaults: generated/openapi.yaml made from openapi/openapi.yaml; a bundle given alone is reported
 * at its own lines.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { readSlugMap, slugMapFile } from "../model/slug-map.ts";
import { fails, formatFinding, lintDescription } from "./lint-description.ts";

export interface LintOutput {
  out(line: string): void;
  err(line: string): void;
}

/** Files under the root's folder changed after the bundle was made: findings would point at old lines. */
function changedSince(folder: string, time: number): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((name) => join(folder, name))
    .filter((file) => statSync(file).isFile() && statSync(file).mtimeMs > time);
}

/** Runs the lint command on `args` and returns its exit status. */
export async function lintCommand(args: readonly string[], output: LintOutput): Promise<number> {
  const [given, givenRoot] = args;
  const bundle = given ?? "generated/openapi.yaml";
  const root = givenRoot ?? (given === undefined ? "openapi/openapi.yaml" : undefined);
  for (const [file, hint] of [[bundle, given === undefined ? ": run npm run bundle first" : ""], [root, ""]] as const) {
    if (file !== undefined && !existsSync(file)) {
      output.err(`lint: ${file} is missing${hint}.`);
      return 1;
    }
  }
  const { findings, spectralResults, redoclyProblems } = await lintDescription(bundle, root === undefined ? undefined : { root, slugMap: readSlugMap(slugMapFile()) });
  for (const finding of findings) output.out(formatFinding(finding));
  const changed = root === undefined ? [] : changedSince(dirname(root), statSync(bundle).mtimeMs);
  if (changed.length > 0) {
    output.out(`lint: ${changed.map((file) => relative(".", file)).join(", ")} changed after ${bundle} was made: run npm run bundle (or npm run build), else findings may point at old lines.`);
  }
  output.out(`lint: ${spectralResults} Spectral results, ${redoclyProblems} Redocly problems on ${bundle}${root === undefined ? "" : `, located in ${dirname(root)}/`}.`);
  return findings.some(fails) ? 1 : 0;
}
