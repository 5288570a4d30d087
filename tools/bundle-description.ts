/**
 * Bundles the modular description (openapi/openapi.yaml) with Redocly's bundler
 * (@redocly/openapi-core, in this process) into openapi.yaml and openapi.json in an output folder,
 * applying the deployment's Overlays and the real slugs of a slug map (rendered into an Overlay:
 * tools/overlays.ts, tools/slug-overlay.ts). A broken $ref or invalid YAML is reported at its file,
 * line and column, and so is a schema that breaks the OpenAPI 3.1 schema or the JSON Schema
 * 2020-12 meta-schema (check-schemas.ts); the outputs are written only when the whole bundle
 * succeeded.
 */
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { bundle, createConfig, getLineColLocation, type Config, type NormalizedProblem } from "@redocly/openapi-core";
import { stringify } from "yaml";
import { SourceMap } from "../lint/source-map.ts";
import type { OpenApiDocument } from "../model/document.ts";
import { readServiceModel, type ServiceModel } from "../model/service-model.ts";
import { readSlugMap, slugMapFile, type SlugMap } from "../model/slug-map.ts";
import { checkSchemas } from "./check-schemas.ts";
import { applyOverlay, OverlayError, overlayFiles, readOverlay } from "./overlays.ts";
import { slugMapOverlay } from "./slug-overlay.ts";

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
  const failures = new Set(
    problems
      .filter((problem) => problem.message.startsWith(PARSE_FAILURE))
      .map((problem) => problem.message.slice(PARSE_FAILURE.length)),
  );
  return problems.filter(
    (problem) => !(problem.message.startsWith(UNRESOLVED) && failures.has(problem.message.slice(UNRESOLVED.length))),
  );
}

/** What a build reads besides openapi/: the slug map and the deployment's overlays, as the environment names them. */
export interface BuildInputs {
  slugMapFile: string | undefined;
  overlayFiles: readonly string[];
}

export function buildInputs(env: NodeJS.ProcessEnv = process.env): BuildInputs {
  return { slugMapFile: slugMapFile(env), overlayFiles: overlayFiles(env) };
}

/**
 * One build of the description, held in memory and handed to every step that reads it (the
 * generators, the lint, the docs), so none reads back what the build wrote: the bundled document,
 * the files it is written as, the slug map it applied (read once), and the map from the bundle's
 * paths to the files and lines of openapi/.
 */
export interface DescriptionBuild {
  root: string;
  doc: OpenApiDocument;
  outputs: { "openapi.json": string; "openapi.yaml": string };
  slugMap: SlugMap;
  sources: SourceMap;
  /** The service model, read once per build (readServiceModel keeps it per document). */
  readonly model: ServiceModel;
}

/** The bundle of `root` with the deployment's overlays and the slug map applied, unchecked. Throws BundleError naming each problem's place. */
async function bundled(
  root: string,
  { slugMapFile, overlayFiles }: BuildInputs,
): Promise<{ doc: OpenApiDocument; slugMap: SlugMap }> {
  config ??= createConfig({});
  const result = await bundle({ ref: root, config: await config });
  const errors = withoutEchoes(result.problems.filter((problem) => problem.severity === "error"));
  if (errors.length > 0)
    throw new BundleError(`bundle failed for ${root}:\n${[...new Set(errors.map(located))].join("\n")}\n`);
  let doc = result.bundle.parsed as OpenApiDocument;
  // The deployment's overlays are written against the description as openapi/ has it (placeholder slugs); the slugs come last.
  for (const file of overlayFiles) doc = await applyOverlay(doc, readOverlay(file));
  const slugMap = readSlugMap(slugMapFile);
  const { overlay, renamed } = slugMapOverlay(doc.paths, slugMap, `slug map ${slugMapFile}`);
  if (renamed.size > 0) doc = await applyOverlay(doc, overlay, renamed);
  return { doc, slugMap };
}

function written(doc: OpenApiDocument): DescriptionBuild["outputs"] {
  return {
    "openapi.json": `${JSON.stringify(doc, null, 2)}\n`,
    "openapi.yaml": stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }),
  };
}

/** Builds `root` in memory and checks its schemas; throws BundleError naming each problem's place. */
export async function buildDescription(root: string, inputs: BuildInputs = buildInputs()): Promise<DescriptionBuild> {
  const { doc, slugMap } = await bundled(root, inputs);
  const sources = new SourceMap(resolve(root), slugMap);
  const mistakes = await checkSchemas(doc, root, sources);
  if (mistakes.length > 0)
    throw new BundleError(`bundle failed for ${root}: ${mistakes.length} schema mistake(s):\n${mistakes.join("\n")}\n`);
  return {
    root,
    doc,
    outputs: written(doc),
    slugMap,
    sources,
    get model() {
      return readServiceModel(doc);
    },
  };
}

/** Writes a build's files into `outDir`: each beside its target first, then renamed, so a failure leaves no half-written file. */
export function writeBundle(build: DescriptionBuild, outDir: string): void {
  for (const [name, text] of Object.entries(build.outputs)) writeFileSync(join(outDir, `${name}.tmp`), text);
  for (const name of Object.keys(build.outputs)) renameSync(join(outDir, `${name}.tmp`), join(outDir, name));
}

/** Bundles `root` into `outDir`; returns the number of paths. Throws BundleError naming each problem's place. */
export async function bundleDescription(
  root: string,
  outDir: string,
  slugMapFile: string | undefined,
  overlays: readonly string[] = overlayFiles(),
): Promise<number> {
  const build = await buildDescription(root, { slugMapFile, overlayFiles: overlays });
  writeBundle(build, outDir);
  return Object.keys(build.doc.paths).length;
}

/**
 * Why `bundleFile` is not the current bundle of `root` (its sources changed since, or the last
 * build failed and left an older one), in one line; null when it is. Compared by content, so
 * timestamps (a fresh clone, a copy) do not matter.
 */
export async function staleBundle(
  bundleFile: string,
  root: string,
  slugMapFile: string | undefined,
  overlays: readonly string[] = overlayFiles(),
): Promise<string | null> {
  const shown = (file: string): string => (relative(".", file).startsWith("..") ? file : relative(".", file));
  let outputs: DescriptionBuild["outputs"];
  try {
    outputs = written((await bundled(root, { slugMapFile, overlayFiles: overlays })).doc);
  } catch (error) {
    if (!(error instanceof BundleError || error instanceof OverlayError)) throw error;
    const [, first = "", ...more] = error.message.trim().split("\n");
    return `${shown(root)} does not bundle, so ${shown(bundleFile)} is from an earlier build: ${first}${more.length ? ` (and ${more.length} more; npm run bundle lists them)` : ""}`;
  }
  // The bundle's form is its extension's, whatever it is named.
  const expected = outputs[extname(bundleFile) === ".json" ? "openapi.json" : "openapi.yaml"]!;
  if (readFileSync(bundleFile, "utf8") === expected) return null;
  const changed = readdirSync(dirname(root), { recursive: true, encoding: "utf8" })
    .map((name) => join(dirname(root), name))
    .filter((file) => statSync(file).isFile() && statSync(file).mtimeMs > statSync(bundleFile).mtimeMs);
  const which = changed.length
    ? `${changed.slice(0, 3).map(shown).join(", ")}${changed.length > 3 ? ` and ${changed.length - 3} more` : ""} changed after it was made`
    : `its sources in ${shown(dirname(root))}/ changed`;
  return `${shown(bundleFile)} is not the bundle of ${shown(root)} (${which}): run npm run build first`;
}
