/**
 * What `npm run release` would release: the places it reads and writes (a project folder: the
 * repository, or a copy in a test), the checks that refuse a release, and the record of the next
 * release, from the change report between the latest recorded release (the baseline `npm run diff`
 * compares with too) and the current bundle: the packages' next version (next-version.ts), each
 * change with its class, the pending acknowledgements moved onto the breaking changes they accept.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { applyAcknowledgements, readAcknowledgements, type Acknowledgement } from "../changes/acknowledgements.ts";
import { PROJECT_ROOT } from "../changes/baseline.ts";
import { compareDescriptions, type Side } from "../changes/compare.ts";
import { UsageError } from "../tools/command.ts";
import { loadSide } from "../changes/load-side.ts";
import { PACKAGE_NAMES } from "../packages/shared/package-build.ts";
import { bumpOf, FIRST_VERSION, nextVersion } from "./next-version.ts";
import { count } from "./notes.ts";
import {
  readRecords,
  recordedSide,
  releasedText,
  reportParts,
  type RecordedRelease,
  type ReleaseRecord,
} from "./records.ts";

export interface ReleasePaths {
  /** The project folder the others are in; paths are shown relative to it. */
  readonly root: string;
  /** The bundle: openapi.json and openapi.yaml. */
  readonly bundleDir: string;
  readonly releasesDir: string;
  /** The acknowledgements pending for the next release. */
  readonly acknowledgementsFile: string;
  readonly changelogPage: string;
  /** Package name → its committed CHANGELOG.md. */
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
    packageChangelogs: Object.fromEntries(
      PACKAGE_NAMES.map((name) => [name, join(root, "packages", packageFolder(name), "CHANGELOG.md")]),
    ),
    tarballDir: join(root, "packages", "dist"),
  };
}

export const shownIn = (paths: ReleasePaths, file: string): string => relative(paths.root, file) || file;

export interface ReleasePlan {
  /** The current bundle, and the text a release keeps of it. */
  readonly side: Side;
  readonly text: string;
  /** The recorded releases, oldest first. */
  readonly recorded: readonly RecordedRelease[];
  /** The latest release of the packages, if any. */
  readonly last: RecordedRelease | undefined;
  /** The release to record, or undefined when the bundle is what the latest release was built from. */
  readonly pending: ReleaseRecord | undefined;
  /** The acknowledgements the pending release consumes. */
  readonly acknowledgements: readonly Acknowledgement[];
}

function acknowledgementsOf(paths: ReleasePaths): Acknowledgement[] {
  const file = paths.acknowledgementsFile;
  return existsSync(file) ? readAcknowledgements(file, shownIn(paths, file)) : [];
}

/** The plan of a release of the bundle in `paths.bundleDir`; throws a UsageError when it is refused. */
export function planRelease(paths: ReleasePaths): ReleasePlan {
  const bundle = join(paths.bundleDir, "openapi.json");
  if (!existsSync(bundle)) throw new UsageError(`${shownIn(paths, bundle)}: no bundle; run npm run build first`);
  const side = loadSide(bundle, "bundle");
  const text = releasedText(side.doc);
  const interfaceVersion = side.doc.info.version;
  const acknowledgements = acknowledgementsOf(paths);
  const ackLabel = shownIn(paths, paths.acknowledgementsFile);
  const recorded = readRecords(paths.releasesDir);
  const baseline = recorded.at(-1);
  const last = recorded.filter((release) => release.record.version !== null).at(-1);
  const plan = { side, text, recorded, last, acknowledgements };
  if (!baseline) {
    if (acknowledgements.length)
      throw new UsageError(`${ackLabel}: the first release has no earlier one to break, so it acknowledges nothing`);
    const first: ReleaseRecord = {
      version: FIRST_VERSION,
      interfaceVersion,
      bump: "first",
      comparedWith: null,
      changes: [],
      changelog: [],
      routeTitles: {},
    };
    return { ...plan, pending: first };
  }
  const before = recordedSide(baseline);
  if (interfaceVersion.localeCompare(before.doc.info.version, "en", { numeric: true }) < 0) {
    throw new UsageError(
      `info.version ${interfaceVersion} is older than ${baseline.record.interfaceVersion}, the interface version of the latest release ${baseline.name}`,
    );
  }
  const report = applyAcknowledgements(compareDescriptions(before, side), acknowledgements, ackLabel);
  if (report.summary.unacknowledged) {
    const are = report.summary.unacknowledged === 1 ? "is" : "are";
    throw new UsageError(
      `${count(report.summary.unacknowledged, "breaking change")} since ${baseline.name} ${are} not acknowledged in ${ackLabel}; npm run diff lists ${report.summary.unacknowledged === 1 ? "it with its id" : "them with their ids"}`,
    );
  }
  const identical = readFileSync(baseline.file, "utf8") === text;
  if (identical && last === baseline) return { ...plan, pending: undefined };
  const bump = last === undefined ? "first" : bumpOf(report, identical)!;
  const version = last === undefined || bump === "first" ? FIRST_VERSION : nextVersion(last.record.version!, bump);
  return { ...plan, pending: { version, interfaceVersion, bump, comparedWith: baseline.name, ...reportParts(report) } };
}
