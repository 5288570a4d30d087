/**
 * What `npm run release` would release: the places it reads and writes (a project folder: the
 * repository, or a copy of its releases in a test), the checks that refuse a release, and the next
 * version of each package, derived from the change report between the description of the last
 * recorded release and the current bundle (changes/next-version.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PACKAGE_NAMES } from "../packages/shared/package-build.ts";
import { readAcknowledgements, type Acknowledgement } from "../changes/acknowledgements.ts";
import { compareDescriptions, type Side } from "../changes/compare.ts";
import { InputError } from "../changes/input-error.ts";
import { loadSide } from "../changes/load-side.ts";
import { bumpOf, FIRST_VERSION, nextVersion } from "./next-version.ts";
import type { PendingRelease } from "./package-changelog.ts";
import { readPackageReleases, recordedSide, type PackageReleaseRecord } from "./package-releases.ts";
import { checkAcknowledged, compareVersions, listReleases, PROJECT_ROOT, releasedText } from "./releases.ts";

export interface ReleasePaths {
  /** The project folder the others are in; paths are shown relative to it. */
  readonly root: string;
  /** The bundle: openapi.json and openapi.yaml. */
  readonly bundleDir: string;
  readonly releasesDir: string;
  readonly acknowledgementsFile: string;
  readonly changelogPage: string;
  /** Package name → its CHANGELOG.md. */
  readonly packageChangelogs: Readonly<Record<string, string>>;
  /** Where the packages are built and packed. */
  readonly tarballDir: string;
}

/** The folder of a package in packages/: `@media-service/client` → `client`. */
export const packageFolder = (name: string): string => name.slice(name.indexOf("/") + 1);

export function projectPaths(root = PROJECT_ROOT): ReleasePaths {
  return {
    root,
    bundleDir: join(root, "generated"),
    releasesDir: join(root, "releases"),
    acknowledgementsFile: join(root, "changes", "acknowledged.json"),
    changelogPage: join(root, "docs", "changelog.md"),
    packageChangelogs: Object.fromEntries(PACKAGE_NAMES.map((name) => [name, join(root, "packages", packageFolder(name), "CHANGELOG.md")])),
    tarballDir: join(root, "packages", "dist"),
  };
}

export const shownIn = (paths: ReleasePaths, file: string): string => relative(paths.root, file) || file;

export interface ReleasePlan {
  /** The current bundle, and the text a release keeps of it. */
  readonly side: Side;
  readonly text: string;
  /** The last recorded release, if any. */
  readonly last: PackageReleaseRecord | undefined;
  /** The release to record, or undefined when the bundle is what the last release was built from. */
  readonly pending: PendingRelease | undefined;
  /** Whether the release also cuts `releases/<info.version>/` (its info.version is not released yet). */
  readonly cutsInterfaceRelease: boolean;
}

function acknowledgementsOf(paths: ReleasePaths): Acknowledgement[] {
  const file = paths.acknowledgementsFile;
  return existsSync(file) ? readAcknowledgements(file, shownIn(paths, file)) : [];
}

/**
 * Refuses what cutting a release refuses: an info.version older than the latest release, and a
 * breaking change since the latest release that changes/acknowledged.json does not acknowledge.
 */
function checkReleasable(paths: ReleasePaths, side: Side, acknowledgements: Acknowledgement[]): void {
  const latest = listReleases(paths.releasesDir).at(-1);
  if (!latest) return;
  const version = side.doc.info.version;
  if (compareVersions(version, latest.version) < 0) throw new InputError(`info.version ${version} is older than the latest release ${latest.version} (${shownIn(paths, latest.file)})`);
  checkAcknowledged(latest, side, acknowledgements, shownIn(paths, paths.acknowledgementsFile));
}

/** The plan of a release of the bundle in `paths.bundleDir`; throws an InputError when it is refused. */
export function planRelease(paths: ReleasePaths): ReleasePlan {
  const bundle = join(paths.bundleDir, "openapi.json");
  if (!existsSync(bundle)) throw new InputError(`${shownIn(paths, bundle)}: no bundle; run npm run build first`);
  const side = loadSide(bundle, "bundle");
  const text = releasedText(side.doc);
  const acknowledgements = acknowledgementsOf(paths);
  checkReleasable(paths, side, acknowledgements);
  const records = readPackageReleases(paths.releasesDir);
  const last = records.at(-1);
  const interfaceVersion = side.doc.info.version;
  const interfaceFile = join(paths.releasesDir, interfaceVersion, "openapi.json");
  const cutsInterfaceRelease = !existsSync(interfaceFile);
  const plan = { side, text, last, cutsInterfaceRelease };
  if (last && readFileSync(join(paths.releasesDir, last.description), "utf8") === text) return { ...plan, pending: undefined };
  // Not identical to the last release, so there is a bump.
  const bump = last ? bumpOf(compareDescriptions(recordedSide(paths.releasesDir, last), side), false)! : undefined;
  const versions = Object.fromEntries(PACKAGE_NAMES.map((name) => [name, last && bump ? nextVersion(last.versions[name]!, bump) : FIRST_VERSION]));
  // The description is kept once: as the interface release when it is one, beside it otherwise.
  const description = cutsInterfaceRelease || readFileSync(interfaceFile, "utf8") === text ? `${interfaceVersion}/openapi.json` : `${interfaceVersion}/packages-${records.length + 1}/openapi.json`;
  const record: PackageReleaseRecord = { versions, interfaceVersion, bump: bump ?? "first", description };
  return { ...plan, pending: { record, side, acknowledgements } };
}
