/**
 * `npm run lint`: Spectral (.spectral.yaml: spectral:oas, OWASP and the house rules) and Redocly
 * (redocly.yaml: recommended) on the bundled description, or on the file given as the argument.
 * Exits non-zero on any error or warning.
 */
import { existsSync, readFileSync } from "node:fs";
import { lintWithRedocly } from "../lint/run-redocly.ts";
import { lintText, loadSpectral } from "../lint/run-spectral.ts";

const BUNDLE = process.argv[2] ?? "generated/openapi.yaml";
// Spectral's severities by number: 0 error and 1 warning fail the lint; 2 info and 3 hint are advice.
const SEVERITY_NAMES = ["error", "warn", "info", "hint"];
const WARNING = 1;

if (!existsSync(BUNDLE)) {
  process.stderr.write(`${BUNDLE} is missing${process.argv[2] === undefined ? ": run npm run bundle first" : ""}.\n`);
  process.exit(1);
}

const spectralResults = await lintText(await loadSpectral(), readFileSync(BUNDLE, "utf8"), BUNDLE);
for (const result of spectralResults) {
  const { line, character } = result.range.start;
  console.log(`${BUNDLE}:${line + 1}:${character + 1} ${SEVERITY_NAMES[result.severity]} spectral ${result.code} ${result.message} [${result.path.join(".")}]`);
}
const redoclyProblems = lintWithRedocly(BUNDLE);
for (const problem of redoclyProblems) {
  console.log(`${BUNDLE}${problem.pointer} ${problem.severity} redocly ${problem.ruleId} ${problem.message}`);
}

const failing = spectralResults.filter((result) => result.severity <= WARNING).length + redoclyProblems.length;
console.log(`lint: ${spectralResults.length} Spectral results, ${redoclyProblems.length} Redocly problems on ${BUNDLE}.`);
process.exit(failing > 0 ? 1 : 0);
