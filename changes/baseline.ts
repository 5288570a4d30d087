/**
 * The baseline of the default comparison, the same for `npm run diff`, `npm run diff:check` and
 * `npm run release`: the description of the latest release recorded under releases/ (release/
 * records them, one folder per release: `releases/<version>/openapi.json` beside its record), compared
 * with the bundle and acknowledged by the file of the breaking changes pending for the next release.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../model/document.ts";
import { applySlugMapFile, slugMapFile } from "../model/slug-map.ts";
import type { Side } from "./compare.ts";
import { UsageError } from "../tools/command.ts";
import { loadSide } from "./load-side.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const RELEASES_DIR = join(PROJECT_ROOT, "releases");
export const BUNDLE_FILE = join(PROJECT_ROOT, "generated", "openapi.json");
/** The acknowledgements of the breaking changes since the baseline; the release that ships them moves them into its record. */
export const ACKNOWLEDGEMENTS_FILE = join(PROJECT_ROOT, "changes", "acknowledged.json");

/** The description a release folder keeps (with the placeholder slugs), beside its record. */
export const RELEASED_DESCRIPTION = "openapi.json";
export const RELEASE_RECORD = "release.json";

/** Paths shown in reports are relative to the project, so a report reads the same on every machine. */
export const shownPath = (file: string): string => relative(PROJECT_ROOT, file) || file;

export interface ReleaseFolder {
  /** The packages' version (`1.2.0`), or for the description released before the packages, its interface version. */
  readonly name: string;
  readonly dir: string;
  /** The released description. */
  readonly file: string;
  /** How a maintainer's report names it: `releases/1.2.0/openapi.json`. */
  readonly label: string;
}

const SEMVER = /^\d+\.\d+\.\d+$/;

/**
 * Release order: a folder named by an interface version (a date; releases made before the packages)
 * comes before every package version; package versions in semver order (`1.10.0` after `1.9.0`).
 */
export const compareReleaseNames = (a: string, b: string): number =>
  Number(SEMVER.test(a)) - Number(SEMVER.test(b)) || a.localeCompare(b, "en", { numeric: true });

/** The release folders of `dir` (each with a record and its description), oldest first. */
export function releaseFolders(dir = RELEASES_DIR): ReleaseFolder[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, RELEASE_RECORD)))
    .map((entry) => entry.name)
    .sort(compareReleaseNames)
    .map((name) => ({
      name,
      dir: join(dir, name),
      file: join(dir, name, RELEASED_DESCRIPTION),
      label: `releases/${name}/${RELEASED_DESCRIPTION}`,
    }));
}

export function latestRelease(dir = RELEASES_DIR): ReleaseFolder {
  const latest = releaseFolders(dir).at(-1);
  if (!latest) throw new UsageError(`${shownPath(dir)}: no release yet; record the first with npm run release`);
  return latest;
}

/** A release as a side of a comparison, under the slug map in effect (a release keeps the placeholder slugs). */
export function releaseSide(release: ReleaseFolder): Side {
  const loaded = loadSide(release.file, "release");
  const paths = applySlugMapFile(loaded.doc.paths, slugMapFile()) as OpenApiDocument["paths"];
  return { source: release.label, doc: { ...loaded.doc, paths } };
}
