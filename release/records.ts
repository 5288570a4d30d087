/**
 * The release records: one folder per release of the packages under releases/, named by its version
 * (`releases/1.2.0/`), holding the description it was built from (`openapi.json`, placeholder slugs)
 * and its record (`release.json`): the version, the interface version, the bump, the release it was
 * compared against, and each change with its class and, for an accepted breaking change, the reason.
 * Every changelog (the packages' CHANGELOG.md, the docs page, the notes a release prints) is rendered
 * from these records, never recomputed, so a release reads the same wherever it is read. A folder
 * named by an interface version with no package version (`releases/2026-06-20/`) is a description
 * released before the packages: the baseline of their first release.
 *
 *   { "version": "2.0.0", "interfaceVersion": "2026-07-01", "bump": "major", "comparedWith": "1.1.0",
 *     "changes": [{ "id": "...", "severity": "breaking", "message": "...", "acknowledged": "why", ... }],
 *     "changelog": [{ "topic": "prices", "subject": "I-A", "line": "..." }], "routeTitles": { ... } }
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Report, ReportedChange } from "../changes/acknowledgements.ts";
import {
  RELEASE_RECORD,
  RELEASED_DESCRIPTION,
  releaseFolders,
  releaseSide,
  type ReleaseFolder,
} from "../changes/baseline.ts";
import type { RouteTitle, Side } from "../changes/compare.ts";
import type { ChangelogEntry } from "../changes/domain-changelog.ts";
import { UsageError } from "../tools/command.ts";
import { isObject } from "../changes/schema-shape.ts";
import type { OpenApiDocument } from "../model/document.ts";
import { placeholderPaths } from "../model/slug-map.ts";
import { JsonSyntaxError, parseJsonText } from "../tools/json-text.ts";
import { isReleaseVersion, type Bump } from "./next-version.ts";

export interface ReleaseRecord {
  /** The packages' version; null for a description released before the packages. */
  readonly version: string | null;
  readonly interfaceVersion: string;
  /** `first` for the packages' first release; null for a description released before the packages. */
  readonly bump: Bump | "first" | null;
  /** The folder of the release this one was compared against; null when there was none. */
  readonly comparedWith: string | null;
  /** What changed since `comparedWith`: breaking changes first, each with the reason it was accepted. */
  readonly changes: readonly ReportedChange[];
  readonly changelog: readonly ChangelogEntry[];
  /** The area and title of each route the changes name, as the reference docs name them. */
  readonly routeTitles: Readonly<Record<string, RouteTitle>>;
}

export interface RecordedRelease extends ReleaseFolder {
  readonly record: ReleaseRecord;
}

const KEYS = ["version", "interfaceVersion", "bump", "comparedWith", "changes", "changelog", "routeTitles"];
const BUMPS = ["first", "major", "minor", "patch"];
const CHANGE_TEXTS = ["id", "rule", "severity", "location", "message"];

/** The folder a record lives in: its version, or the interface version of a release before the packages. */
export const folderOf = (record: Pick<ReleaseRecord, "version" | "interfaceVersion">): string =>
  record.version ?? record.interfaceVersion;

function checkRecord(parsed: unknown, at: string, folder: string): ReleaseRecord {
  if (!isObject(parsed)) throw new UsageError(`${at}: must be an object with ${KEYS.join(", ")}`);
  const unknown = Object.keys(parsed).find((key) => !KEYS.includes(key));
  if (unknown) throw new UsageError(`${at}: unknown key "${unknown}" (allowed: ${KEYS.join(", ")})`);
  const { version, interfaceVersion, bump, comparedWith, changes, changelog, routeTitles } = parsed;
  if (version !== null && !(typeof version === "string" && isReleaseVersion(version)))
    throw new UsageError(
      `${at}: version must be MAJOR.MINOR.PATCH, or null for a description released before the packages`,
    );
  if (typeof interfaceVersion !== "string" || interfaceVersion === "")
    throw new UsageError(`${at}: interfaceVersion must be the info.version of the description`);
  if (folder !== (version ?? interfaceVersion))
    throw new UsageError(`${at}: the folder must be named after the release's version ${version ?? interfaceVersion}`);
  if (version === null ? bump !== null : !(typeof bump === "string" && BUMPS.includes(bump)))
    throw new UsageError(`${at}: bump must be one of ${BUMPS.join(", ")} (null only without a version)`);
  if (comparedWith !== null && typeof comparedWith !== "string")
    throw new UsageError(`${at}: comparedWith must name the folder of the release compared against, or be null`);
  if (
    !Array.isArray(changes) ||
    !changes.every(
      (change) =>
        isObject(change) &&
        CHANGE_TEXTS.every((key) => typeof change[key] === "string") &&
        Array.isArray(change.routes),
    )
  ) {
    throw new UsageError(`${at}: changes must be a list of changes, each with ${CHANGE_TEXTS.join(", ")} and routes`);
  }
  if (
    !Array.isArray(changelog) ||
    !changelog.every((entry) => isObject(entry) && typeof entry.line === "string" && typeof entry.topic === "string")
  ) {
    throw new UsageError(`${at}: changelog must be a list of entries, each with a topic and a line`);
  }
  if (!isObject(routeTitles)) throw new UsageError(`${at}: routeTitles must be an object`);
  return parsed as unknown as ReleaseRecord;
}

/** The recorded releases of `dir` (releases/), oldest first, each checked; errors name the file. */
export function readRecords(dir: string): RecordedRelease[] {
  const releases = releaseFolders(dir).map((folder) => {
    const at = `releases/${folder.name}/${RELEASE_RECORD}`;
    let parsed: unknown;
    try {
      parsed = parseJsonText(readFileSync(join(folder.dir, RELEASE_RECORD), "utf8"), at);
    } catch (error) {
      throw new UsageError(
        error instanceof JsonSyntaxError ? error.message : `${at}: not readable (${(error as Error).message})`,
      );
    }
    return { ...folder, record: checkRecord(parsed, at, folder.name) };
  });
  releases.forEach(({ name, record }, index) => {
    const previous = releases[index - 1]?.name ?? null;
    if (record.comparedWith !== previous)
      throw new UsageError(
        `releases/${name}/${RELEASE_RECORD}: comparedWith must be ${JSON.stringify(previous)}, the release before it`,
      );
  });
  return releases;
}

/** A recorded release's description as a side of a comparison; its info.version must be the recorded one. */
export function recordedSide(release: RecordedRelease): Side {
  const side = releaseSide(release);
  if (side.doc.info.version !== release.record.interfaceVersion) {
    throw new UsageError(
      `${release.label}: info.version is ${JSON.stringify(side.doc.info.version)}, but its record says ${release.record.interfaceVersion}`,
    );
  }
  return side;
}

/** What a record keeps of a report: the changes, the changelog, and the titles of the routes they name. */
export function reportParts(report: Report): Pick<ReleaseRecord, "changes" | "changelog" | "routeTitles"> {
  const named = new Set(report.changes.flatMap((change) => change.routes));
  const titles = Object.entries(report.routeTitles ?? {}).filter(([route]) => named.has(route));
  return { changes: report.changes, changelog: report.changelog, routeTitles: Object.fromEntries(titles) };
}

/** The text a release keeps of a description: its JSON with the placeholder slugs, whatever slug map built it. */
export const releasedText = (doc: OpenApiDocument): string =>
  `${JSON.stringify({ ...doc, paths: placeholderPaths(doc.paths) }, null, 2)}\n`;

export const recordText = (record: ReleaseRecord): string => `${JSON.stringify(record, null, 2)}\n`;

/** Writes a release's folder: its description and its record; the files written. */
export function writeRecord(dir: string, record: ReleaseRecord, description: string): string[] {
  const folder = join(dir, folderOf(record));
  mkdirSync(folder, { recursive: true });
  const files = [join(folder, RELEASED_DESCRIPTION), join(folder, RELEASE_RECORD)];
  writeFileSync(files[0]!, description);
  writeFileSync(files[1]!, recordText(record));
  return files;
}
