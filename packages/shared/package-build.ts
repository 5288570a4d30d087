/**
 * What every package build of packages/ shares: the version read from the description, the bundled
 * description each package carries and exports, the manifest and README written beside the build,
 * and the command line `tsx packages/<name>/build.ts [bundleDir] [outDir]`.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../../model/document.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The files of the bundled description, by their name in the bundle directory and in each package. */
export const DESCRIPTION_FILES: readonly string[] = ["openapi.json", "openapi.yaml"];

/** The exports map entries of the description and the manifest, which every package has. */
export const DESCRIPTION_EXPORTS = { "./openapi.json": "./openapi.json", "./openapi.yaml": "./openapi.yaml", "./package.json": "./package.json" };

/** The `files` of every package's manifest: the description and the README. */
export const COMMON_FILES = [...DESCRIPTION_FILES, "README.md"];

/** npm needs semver: the description's date version `2026-06-20` becomes `2026.6.20`. */
export function packageVersion(infoVersion: string): string {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(infoVersion);
  if (date) return date.slice(1).map(Number).join(".");
  if (/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(infoVersion)) return infoVersion;
  throw new Error(`info.version ${JSON.stringify(infoVersion)} is neither a date (YYYY-MM-DD) nor semver`);
}

/** Inline code in a README. */
export const code = (text: string) => `\`${text}\``;

/** The first named request example of POST `path`, for a README's usage sample. */
export function firstExample(doc: OpenApiDocument, path: string): unknown {
  const examples = doc.paths[path]?.post?.requestBody?.content["application/json"]?.examples ?? {};
  return Object.values(examples)[0]?.value ?? {};
}

export interface BuiltPackage {
  dir: string;
  name: string;
  version: string;
}

/** Writes the description of `bundleDir`, the manifest and the README into the package folder `outDir`. */
export function finishPackage(bundleDir: string, outDir: string, manifest: { name: string; version: string }, readme: string): BuiltPackage {
  for (const name of DESCRIPTION_FILES) copyFileSync(join(bundleDir, name), join(outDir, name));
  writeFileSync(join(outDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, "README.md"), readme);
  return { dir: outDir, name: manifest.name, version: manifest.version };
}

/**
 * Runs a build script given on the command line: `[bundleDir] [outDir]`, by default generated/ and
 * the package's own `package/` folder beside the script.
 */
export async function runBuildScript(scriptUrl: string, build: (bundleDir: string, outDir: string) => Promise<BuiltPackage>): Promise<void> {
  const script = fileURLToPath(scriptUrl);
  if (!process.argv[1] || resolve(process.argv[1]) !== script) return;
  const bundleDir = resolve(process.argv[2] ?? join(ROOT, "generated"));
  const outDir = resolve(process.argv[3] ?? fileURLToPath(new URL("./package", scriptUrl)));
  const built = await build(bundleDir, outDir);
  const shown = (path: string) => relative(process.cwd(), path) || ".";
  console.log(`built ${built.name}@${built.version} from ${shown(bundleDir)} into ${shown(outDir)} (npm pack ${shown(outDir)})`);
}
