/**
 * `npm run lint`: Spectral (.spectral.yaml: spectral:oas, OWASP and the house rules) and Redocly
 * (redocly.yaml: recommended) on the bundled description, each finding printed at the file and
 * line of openapi/ it comes from. Exits non-zero on any error or warning.
 *
 * Usage: tsx scripts/lint.ts [bundle [root]]
 *   (defaults: generated/openapi.yaml made from openapi/openapi.yaml; a bundle given alone is
 *   reported at its own lines)
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fails, formatFinding, lintDescription } from "../lint/lint-description.ts";
import { readSlugMap, slugMapFile } from "../model/slug-map.ts";

const [given, givenRoot] = process.argv.slice(2);
const bundle = given ?? "generated/openapi.yaml";
const root = givenRoot ?? (given === undefined ? "openapi/openapi.yaml" : undefined);

for (const [file, hint] of [[bundle, given === undefined ? ": run npm run bundle first" : ""], [root, ""]] as const) {
  if (file !== undefined && !existsSync(file)) {
    process.stderr.write(`lint: ${file} is missing${hint}.\n`);
    process.exit(1);
  }
}

/** Files under the root's folder changed after the bundle was made: findings would point at old lines. */
function changedSince(folder: string, time: number): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((name) => join(folder, name))
    .filter((file) => statSync(file).isFile() && statSync(file).mtimeMs > time);
}

const { findings, spectralResults, redoclyProblems } = await lintDescription(bundle, root === undefined ? undefined : { root, slugMap: readSlugMap(slugMapFile()) });
for (const finding of findings) console.log(formatFinding(finding));
const changed = root === undefined ? [] : changedSince(dirname(root), statSync(bundle).mtimeMs);
if (changed.length > 0) {
  console.log(`lint: ${changed.map((file) => relative(".", file)).join(", ")} changed after ${bundle} was made: run npm run bundle (or npm run build), else findings may point at old lines.`);
}
console.log(`lint: ${spectralResults} Spectral results, ${redoclyProblems} Redocly problems on ${bundle}${root === undefined ? "" : `, located in ${dirname(root)}/`}.`);
process.exit(findings.some(fails) ? 1 : 0);
