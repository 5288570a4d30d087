/**
 * What every package build of packages/ shares: the packages' names, the bundled description each
 * package carries and exports, and the manifest, README and changelog written beside the build.
 * A package's version is given to its build: the release derives it from the change report
 * (release/next-version.ts) and records it under releases/.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenApiDocument } from "../../model/document.ts";

export const CLIENT_PACKAGE = "@media-service/client";
export const TOOLS_PACKAGE = "@media-service/tools";
export const MCP_PACKAGE = "@media-service/mcp";
/** Every package of packages/, in the order they are built, packed and published. */
export const PACKAGE_NAMES: readonly string[] = [CLIENT_PACKAGE, TOOLS_PACKAGE, MCP_PACKAGE];

/** The files of the bundled description, by their name in the bundle directory and in each package. */
export const DESCRIPTION_FILES: readonly string[] = ["openapi.json", "openapi.yaml"];

/** The exports map entries of the description and the manifest, which every package has. */
export const DESCRIPTION_EXPORTS = {
  "./openapi.json": "./openapi.json",
  "./openapi.yaml": "./openapi.yaml",
  "./package.json": "./package.json",
};

/** The `files` of every package's manifest: the description, the README and the changelog. */
export const COMMON_FILES = [...DESCRIPTION_FILES, "README.md", "CHANGELOG.md"];

/** What a build is given besides the bundle: the package's version and its CHANGELOG.md. */
export interface PackageRelease {
  readonly version: string;
  readonly changelog: string;
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

/** Writes the description of `bundleDir`, the manifest, the README and the changelog into the package folder `outDir`. */
export function finishPackage(
  bundleDir: string,
  outDir: string,
  manifest: { name: string; version: string },
  readme: string,
  changelog: string,
): BuiltPackage {
  for (const name of DESCRIPTION_FILES) copyFileSync(join(bundleDir, name), join(outDir, name));
  writeFileSync(join(outDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(outDir, "README.md"), readme);
  writeFileSync(join(outDir, "CHANGELOG.md"), changelog);
  return { dir: outDir, name: manifest.name, version: manifest.version };
}
