/**
 * Bundles the modular description (openapi/openapi.yaml) with Redocly's bundler
 * (@redocly/openapi-core, in this process) into openapi.yaml and openapi.json in an output folder,
 * substituting real slugs from a slug map. A broken $ref or invalid YAML is reported at its file,
 * line and column; the outputs are written only when the whole bundle succeeded.
 */
import { renameSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { bundle, createConfig, getLineColLocation, type Config, type NormalizedProblem } from "@redocly/openapi-core";
import { stringify } from "yaml";
import { applySlugMapFile } from "../model/slug-map.ts";

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

/** Bundles `root` into `outDir`; returns the number of paths. Throws BundleError naming each problem's place. */
export async function bundleDescription(root: string, outDir: string, slugMapFile: string | undefined): Promise<number> {
  config ??= createConfig({});
  const result = await bundle({ ref: root, config: await config });
  const errors = result.problems.filter((problem) => problem.severity === "error");
  if (errors.length > 0) throw new BundleError(`bundle failed for ${root}:\n${[...new Set(errors.map(located))].join("\n")}\n`);
  const bundled = result.bundle.parsed as { paths: Record<string, unknown> };
  bundled.paths = applySlugMapFile(bundled.paths, slugMapFile);
  const outputs: Record<string, string> = {
    "openapi.json": `${JSON.stringify(bundled, null, 2)}\n`,
    "openapi.yaml": stringify(bundled, { lineWidth: 0, aliasDuplicateObjects: false }),
  };
  // Write every output beside its target first, then rename, so a failure leaves no half-written file.
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(outDir, `${name}.tmp`), text);
  for (const name of Object.keys(outputs)) renameSync(join(outDir, `${name}.tmp`), join(outDir, name));
  return Object.keys(bundled.paths).length;
}
