/**
 * The packages' releases, recorded in the repository so that every version is reproducible:
 * `releases/packages.json` lists, oldest first, each release's version of every package, the
 * interface version (`info.version`) it was built from, its bump, and the description it was built
 * from, relative to releases/: `<info.version>/openapi.json` when that is the released interface
 * description, `<info.version>/packages-<n>/openapi.json` when the description changed under the
 * same interface version (descriptions, examples, a compatible addition).
 *
 *   { "releases": [ { "versions": { "@media-service/client": "1.0.0", ... }, "interfaceVersion": "2026-06-20", "bump": "first", "description": "2026-06-20/packages-1/openapi.json" } ] }
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applySlugMapFile, slugMapFile } from "../model/slug-map.ts";
import type { OpenApiDocument } from "../model/document.ts";
import { PACKAGE_NAMES } from "../packages/shared/package-build.ts";
import type { Side } from "../changes/compare.ts";
import { InputError } from "../changes/input-error.ts";
import { loadSide } from "../changes/load-side.ts";
import { isReleaseVersion, type Bump } from "./next-version.ts";
import { isObject } from "../changes/schema-shape.ts";
import { JsonSyntaxError, parseJsonText } from "../tools/json-text.ts";

export const PACKAGE_RELEASES_FILE = "packages.json";

export interface PackageReleaseRecord {
  /** Package name → the version released. */
  readonly versions: Readonly<Record<string, string>>;
  readonly interfaceVersion: string;
  readonly bump: Bump | "first";
  /** The description the packages were built from, relative to releases/, with placeholder slugs. */
  readonly description: string;
}

const KEYS = ["versions", "interfaceVersion", "bump", "description"];
const BUMPS = ["first", "major", "minor", "patch"];

/** The recorded releases of `dir` (releases/), oldest first; none when the file does not exist yet. */
export function readPackageReleases(dir: string, label = `releases/${PACKAGE_RELEASES_FILE}`): PackageReleaseRecord[] {
  const file = join(dir, PACKAGE_RELEASES_FILE);
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = parseJsonText(readFileSync(file, "utf8"), label);
  } catch (error) {
    throw new InputError(error instanceof JsonSyntaxError ? error.message : `${label}: not readable (${(error as Error).message})`);
  }
  if (!isObject(parsed) || !Array.isArray(parsed.releases) || Object.keys(parsed).length !== 1) {
    throw new InputError(`${label}: must be an object with only a "releases" array`);
  }
  return parsed.releases.map((entry: unknown, index: number) => {
    const at = `${label}: releases[${index}]`;
    if (!isObject(entry)) throw new InputError(`${at} must be an object with ${KEYS.join(", ")}`);
    const unknown = Object.keys(entry).find((key) => !KEYS.includes(key));
    if (unknown) throw new InputError(`${at} has unknown key "${unknown}" (allowed: ${KEYS.join(", ")})`);
    const { versions, interfaceVersion, bump, description } = entry;
    if (!isObject(versions) || !PACKAGE_NAMES.every((name) => typeof versions[name] === "string" && isReleaseVersion(versions[name]))) {
      throw new InputError(`${at}.versions must give every package (${PACKAGE_NAMES.join(", ")}) a version MAJOR.MINOR.PATCH`);
    }
    if (typeof interfaceVersion !== "string" || interfaceVersion === "") throw new InputError(`${at}.interfaceVersion must be the info.version the packages were built from`);
    if (typeof bump !== "string" || !BUMPS.includes(bump)) throw new InputError(`${at}.bump must be one of ${BUMPS.join(", ")}`);
    if (typeof description !== "string" || !existsSync(join(dir, description))) {
      throw new InputError(`${at}.description must name the description file the packages were built from, relative to releases/`);
    }
    return { versions: versions as Record<string, string>, interfaceVersion, bump: bump as PackageReleaseRecord["bump"], description };
  });
}

export const packageReleasesText = (records: readonly PackageReleaseRecord[]): string => `${JSON.stringify({ releases: records }, null, 2)}\n`;

/**
 * The description a release was built from, as a side of a comparison under the slug map in
 * effect (the stored file keeps the placeholder slugs, as interface releases do).
 */
export function recordedSide(dir: string, record: PackageReleaseRecord): Side {
  const loaded = loadSide(join(dir, record.description), "package release");
  const paths = applySlugMapFile(loaded.doc.paths, slugMapFile()) as OpenApiDocument["paths"];
  return { source: `releases/${record.description}`, doc: { ...loaded.doc, paths } };
}
