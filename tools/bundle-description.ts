/**
 * Bundles the modular description (openapi/openapi.yaml) with Redocly's bundler
 * (@redocly/openapi-core, in this process) into openapi.yaml and openapi.json in an output folder,
 * substituting real slugs from a slug map. A broken $ref or invalid YAML is reported at its file,
 * line and column, and so is a schema that breaks the OpenAPI 3.1 schema or the JSON Schema
 * 2020-12 meta-schema (check-schemas.ts); the outputs are written only when the whole bundle
 * succeeded.
 */
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative } from "node:path";
import { bundle, createConfig, getLineColLocation, type Config, type NormalizedProblem } from "@redocly/openapi-core";
import { stringify } from "yaml";
import { applySlugMapFile } from "../model/slug-map.ts";
import { checkSchemas } from "./check-schemas.ts";

export class BundleError extends Error {}

/** No configuration file: bundling applies no decorators, and the lint rules are `npm run lint`'s business. */
let config: Promise<Config> | undefined;

/** One problem as `file:line:col message`, the file relative to the working directory when inside it. */
function located(problem: NormalizedProblem): string {
  const location = problem.location[0];
  if (!location) return problem.message;
  const { line, col } = getLineColLocation(location).start;
  const file = relative(".", location.source.absoluteRef);
  return `${file.startsWith("..") ? location.source.absoluteRef : file}:${line}:${col} ${problem.message}`;
}

const PARSE_FAILURE = "Failed to parse: ";
const UNRESOLVED = "Can't resolve $ref: ";

/** Redocly reports a file that does not parse twice: at the file, and at each $ref to it. The file's own line is kept. */
function withoutEchoes(problems: NormalizedProblem[]): NormalizedProblem[] {
  const failures = new Set(problems.filter((problem) => problem.message.startsWith(PARSE_FAILURE)).map((problem) => problem.message.slice(PARSE_FAILURE.length)));
  return problems.filter((problem) => !(problem.message.startsWith(UNRESOLVED) && failures.has(problem.message.slice(UNRESOLVED.length))));
}

/** The bundle of `root` as the files it writes (openapi.json, openapi.yaml), and its number of paths. Throws BundleError naming each problem's place. */
export async function bundleTexts(root: string, slugMapFile: string | undefined): Promise<{ outputs: Record<string, string>; paths: number; doc: Record<string, unknown> }> {
  config ??= createConfig({});
  const result = await bundle({ ref: root, config: await config });
  const errors = withoutEchoes(result.problems.filter((problem) => problem.severity === "error"));
  if (errors.length > 0) throw new BundleError(`bundle failed for ${root}:\n${[...new Set(errors.map(located))].join("\n")}\n`);
  const bundled = result.bundle.parsed as { paths: Record<string, unknown> };
  bundled.paths = applySlugMapFile(bundled.paths, slugMapFile);
  const outputs: Record<string, string> = {
    "openapi.json": `${JSON.stringify(bundled, null, 2)}\n`,
    "openapi.yaml": stringify(bundled, { lineWidth: 0, aliasDuplicateObjects: false }),
  };
  return { outputs, paths: Object.keys(bundled.paths).length, doc: bundled };
}

/** Bundles `root` into `outDir`; returns the number of paths. Throws BundleError naming each problem's place. */
export async function bundleDescription(root: string, outDir: string, slugMapFile: string | undefined): Promise<number> {
  const { outputs, paths, doc } = await bundleTexts(root, slugMapFile);
  const mistakes = await checkSchemas(doc, root, slugMapFile);
  if (mistakes.length > 0) throw new BundleError(`bundle failed for ${root}: ${mistakes.length} schema mistake(s):\n${mistakes.join("\n")}\n`);
  // Write every output beside its target first, then rename, so a failure leaves no half-written file.
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(outDir, `${name}.tmp`), text);
  for (const name of Object.keys(outputs)) renameSync(join(outDir, `${name}.tmp`), join(outDir, name));
  return paths;
}

/**
 * Why `bundleFile` is not the current bundle of `root` (its sources changed since, or the last
 * build failed and left an older one), in one line; null when it is. Compared by content, so
 * timestamps (a fresh clone, a copy) do not matter.
 */
export async function staleBundle(bundleFile: string, root: string, slugMapFile: string | undefined): Promise<string | null> {
  const shown = (file: string): string => (relative(".", file).startsWith("..") ? file : relative(".", file));
  let outputs: Record<string, string>;
  try {
    ({ outputs } = await bundleTexts(root, slugMapFile));
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    const [, first = "", ...more] = error.message.trim().split("\n");
    return `${shown(root)} does not bundle, so ${shown(bundleFile)} is from an earlier build: ${first}${more.length ? ` (and ${more.length} more; npm run bundle lists them)` : ""}`;
  }
  // The bundle's form is its extension's, whatever it is named.
  const expected = outputs[extname(bundleFile) === ".json" ? "openapi.json" : "openapi.yaml"]!;
  if (readFileSync(bundleFile, "utf8") === expected) return null;
  const changed = readdirSync(dirname(root), { recursive: true, encoding: "utf8" })
    .map((name) => join(dirname(root), name))
    .filter((file) => statSync(file).isFile() && statSync(file).mtimeMs > statSync(bundleFile).mtimeMs);
  const which = changed.length ? `${changed.slice(0, 3).map(shown).join(", ")}${changed.length > 3 ? ` and ${changed.length - 3} more` : ""} changed after it was made` : `its sources in ${shown(dirname(root))}/ changed`;
  return `${shown(bundleFile)} is not the bundle of ${shown(root)} (${which}): run npm run build first`;
}
