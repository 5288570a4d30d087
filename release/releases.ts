/**
 * The released descriptions kept in the repository: `releases/<info.version>/openapi.json`, with
 * the acknowledgements of the breaking changes that release accepted beside it
 * (`acknowledged.json`, absent when there were none). Cutting a release copies the bundle there,
 * moves changes/acknowledged.json beside it and empties it, and rewrites the changelog page.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { applyAcknowledgements, EMPTY_ACKNOWLEDGEMENTS, readAcknowledgements, type Acknowledgement, type Report } from "../changes/acknowledgements.ts";
import { compareDescriptions, type Side } from "../changes/compare.ts";
import type { OpenApiDocument } from "../model/document.ts";
import { applySlugMapFile, placeholderPaths, slugMapFile } from "../model/slug-map.ts";
import { InputError } from "../changes/input-error.ts";
import { loadSide } from "../changes/load-side.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const RELEASES_DIR = join(PROJECT_ROOT, "releases");
export const BUNDLE_FILE = join(PROJECT_ROOT, "generated", "openapi.json");
export const ACKNOWLEDGEMENTS_FILE = join(PROJECT_ROOT, "changes", "acknowledged.json");

const RELEASE_FILE = "openapi.json";
const RELEASE_ACKNOWLEDGEMENTS = "acknowledged.json";

export interface Release {
  readonly version: string;
  readonly file: string;
  /** How reports name it: `releases/2026-06-20/openapi.json`. */
  readonly label: string;
  /** The acknowledgements file of this release, where it accepted breaking changes. */
  readonly acknowledgements: string | undefined;
}

/** Interface versions are dates (`2026-06-20`); numeric comparison also orders `1.10` after `1.9`. */
export const compareVersions = (a: string, b: string): number => a.localeCompare(b, "en", { numeric: true });

/** Paths shown in reports are relative to the project, so a report reads the same on every machine. */
export const shownPath = (file: string): string => relative(PROJECT_ROOT, file) || file;

/** The releases, oldest first. */
export function listReleases(dir = RELEASES_DIR): Release[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, RELEASE_FILE)))
    .map((entry) => {
      const acknowledgements = join(dir, entry.name, RELEASE_ACKNOWLEDGEMENTS);
      return {
        version: entry.name,
        file: join(dir, entry.name, RELEASE_FILE),
        label: `${basename(dir)}/${entry.name}/${RELEASE_FILE}`,
        acknowledgements: existsSync(acknowledgements) ? acknowledgements : undefined,
      };
    })
    .sort((a, b) => compareVersions(a.version, b.version));
}

export function latestRelease(dir = RELEASES_DIR): Release {
  const latest = listReleases(dir).at(-1);
  if (!latest) throw new InputError(`${shownPath(dir)}: no release yet; cut the first with npm run release`);
  return latest;
}

/**
 * A release as a side of a comparison, under the slug map in effect (releases keep the placeholder
 * slugs: cutRelease); its folder must be named after its info.version.
 */
export function releaseSide(release: Release): Side {
  const loaded = loadSide(release.file, "release");
  const paths = applySlugMapFile(loaded.doc.paths, slugMapFile()) as OpenApiDocument["paths"];
  const side: Side = { source: release.label, doc: { ...loaded.doc, paths } };
  if (side.doc.info.version !== release.version) {
    throw new InputError(`${release.label}: info.version is ${JSON.stringify(side.doc.info.version)}, but the release folder is ${release.version}`);
  }
  return side;
}

/** Each release compared with the one before it, newest first, with the acknowledgements it recorded. */
export function releaseReports(dir = RELEASES_DIR): Report[] {
  const releases = listReleases(dir);
  const sides = releases.map(releaseSide);
  return releases.slice(1).map((release, index) => {
    const comparison = compareDescriptions(sides[index]!, sides[index + 1]!);
    if (!release.acknowledgements) return applyAcknowledgements(comparison, []);
    const label = release.label.replace(/[^/]+$/, RELEASE_ACKNOWLEDGEMENTS);
    return applyAcknowledgements(comparison, readAcknowledgements(release.acknowledgements, label), label);
  }).reverse();
}

/** Refuses a breaking change since `latest` that the acknowledgements (read from the file `label`) do not acknowledge. */
export function checkAcknowledged(latest: Release, side: Side, acknowledgements: readonly Acknowledgement[], label: string): void {
  const report = applyAcknowledgements(compareDescriptions(releaseSide(latest), side), acknowledgements, label);
  if (report.summary.unacknowledged) {
    throw new InputError(`${report.summary.unacknowledged} breaking change(s) since ${latest.version} are not acknowledged in ${label}; npm run diff lists them with their ids`);
  }
}

/** The text a release keeps of a description: its JSON with the placeholder slugs, whatever slug map built it. */
export const releasedText = (doc: OpenApiDocument): string => `${JSON.stringify({ ...doc, paths: placeholderPaths(doc.paths) }, null, 2)}\n`;

export interface CutOptions {
  readonly bundle?: string;
  readonly dir?: string;
  readonly acknowledgementsFile?: string;
}

/**
 * Copies the bundle to `releases/<info.version>/`. Refuses when that version is already released
 * with another description, when it is not newer than the latest release, or when a breaking
 * change since the latest release is not acknowledged. Returns the release folder, or undefined
 * when this exact description is already released.
 */
export function cutRelease({ bundle = BUNDLE_FILE, dir = RELEASES_DIR, acknowledgementsFile = ACKNOWLEDGEMENTS_FILE }: CutOptions = {}): string | undefined {
  const side = loadSide(bundle, "bundle");
  const text = releasedText(side.doc);
  const version = side.doc.info.version;
  const target = join(dir, version);
  if (existsSync(join(target, RELEASE_FILE))) {
    if (readFileSync(join(target, RELEASE_FILE), "utf8") === text) return undefined;
    throw new InputError(`${shownPath(target)} already holds a different description; set a new info.version in openapi/openapi.yaml, rebuild, then cut the release`);
  }
  const releases = listReleases(dir);
  const latest = releases.at(-1);
  const acknowledgements = existsSync(acknowledgementsFile) ? readAcknowledgements(acknowledgementsFile, shownPath(acknowledgementsFile)) : [];
  if (latest) {
    if (compareVersions(version, latest.version) <= 0) throw new InputError(`info.version ${version} is not newer than the latest release ${latest.version}`);
    checkAcknowledged(latest, side, acknowledgements, shownPath(acknowledgementsFile));
  } else if (acknowledgements.length) {
    throw new InputError(`${shownPath(acknowledgementsFile)}: the first release has no earlier one to break, so it acknowledges nothing`);
  }
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, RELEASE_FILE), text);
  if (acknowledgements.length) {
    writeFileSync(join(target, RELEASE_ACKNOWLEDGEMENTS), readFileSync(acknowledgementsFile, "utf8"));
    writeFileSync(acknowledgementsFile, EMPTY_ACKNOWLEDGEMENTS);
  }
  return target;
}
