/**
 * `npm run release -- [--dry-run] [--registry URL] [--no-publish] [--root DIR] [--page] [--check]`:
 * releases the bundle as the packages' next version. Returns the exit status: 0 released (or nothing
 * to release, or the changelogs fresh), 1 a stale changelog with --check, 2 refused or failed (one
 * line saying why, naming the flag or file).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { EMPTY_ACKNOWLEDGEMENTS } from "../changes/acknowledgements.ts";
import { PROJECT_ROOT } from "../changes/baseline.ts";
import { readFlags, UsageError } from "../tools/command.ts";
import { packPackages } from "../packages/pack.ts";
import { PACKAGE_NAMES, type PackageRelease } from "../packages/shared/package-build.ts";
import { changelogFiles, changelogText, staleChangelogs, writeChangelogs } from "./changelog.ts";
import { isPublished, loggedInAs, publish, redacted, registryName, registryOf, type Registry } from "./npm-registry.ts";
import { count, releaseNotes } from "./notes.ts";
import { planRelease, projectPaths, shownIn, type ReleasePaths, type ReleasePlan } from "./plan.ts";
import { folderOf, readRecords, writeRecord, type ReleaseRecord } from "./records.ts";

export const USAGE = `usage: npm run release -- [--dry-run] [--registry URL] [--no-publish] [--root DIR] [--page] [--check]

Compares generated/openapi.json with the latest release recorded in releases/ (the
baseline of npm run diff too), refuses breaking changes changes/acknowledged.json does
not acknowledge, gives the packages their next version (breaking: major, compatible:
minor, descriptions or examples only: patch), records it (releases/<version>/ with the
acknowledgements it consumes, docs/changelog.md, packages/*/CHANGELOG.md), packs the
tarballs into packages/dist/, publishes them and prints the release's notes. A bundle
already released publishes the recorded version the registry lacks, or nothing.

All or nothing: it asks the registry for the version and for npm's login there (npm whoami)
before it builds or writes anything; a publish that fails before any package is published
takes the release's files back; one that fails after says so, and running the release again
publishes the rest of the recorded version.

  --dry-run       say what would be released and print its notes; write, build and publish nothing
  --registry URL  publish there (default: npm's own configuration)
  --no-publish    record and pack, but publish nothing (CI publishes what is recorded)
  --root DIR      the project folder (default: this repository)
  --page          only rewrite docs/changelog.md and the packages' CHANGELOG.md from the records
  --check         only check that those are what the records produce (exit 1 if not)`;

export interface CommandIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const COMMAND = {
  name: "release",
  help: USAGE,
  options: {
    "dry-run": { type: "boolean" },
    registry: { type: "string" },
    "no-publish": { type: "boolean" },
    root: { type: "string" },
    page: { type: "boolean" },
    check: { type: "boolean" },
  },
} as const;

/** What each package is built with: the version, and the changelog of `records` (the pending release's included). */
export function packageReleases(version: string, records: readonly ReleaseRecord[]): Record<string, PackageRelease> {
  const changelog = changelogText(records);
  return Object.fromEntries(PACKAGE_NAMES.map((name) => [name, { version, changelog }]));
}

const versionsOf = (version: string, names = PACKAGE_NAMES): string =>
  names.map((name) => `${name}@${version}`).join(", ");

/** Why the release has its bump, for the maintainer's terminal. */
function bumpReason(record: ReleaseRecord): string {
  const breaking = record.changes.filter((change) => change.severity === "breaking").length;
  if (record.bump === "first") return "the first release of the packages";
  if (record.bump === "major") return `${count(breaking, "breaking change")} for client code`;
  if (record.bump === "minor")
    return `${count(record.changes.length, "compatible change")} and ${count(record.changelog.length, "changelog entry", "changelog entries")}, nothing breaking`;
  return "descriptions, examples or documentation only; no change for client code";
}

/** Records the pending release: its folder under releases/, the emptied acknowledgements, the changelogs; the files written. */
export function recordRelease(paths: ReleasePaths, plan: ReleasePlan, pending: ReleaseRecord): string[] {
  const written = writeRecord(paths.releasesDir, pending, plan.text);
  if (plan.acknowledgements.length) {
    writeFileSync(paths.acknowledgementsFile, EMPTY_ACKNOWLEDGEMENTS);
    written.push(paths.acknowledgementsFile);
  }
  return [...written, ...writeChangelogs(paths, [...plan.recorded.map((release) => release.record), pending])];
}

/** A publish that failed after `published` went through. */
class PublishFailed extends Error {
  constructor(
    readonly published: readonly string[],
    cause: Error,
  ) {
    super(cause.message);
  }
}

/** Publishes the tarballs, in the packages' order; a failure says which were published before it. */
async function publishAll(
  registry: Registry,
  tarballs: readonly string[],
  io: CommandIo,
  paths: ReleasePaths,
): Promise<void> {
  const published: string[] = [];
  for (const tarball of tarballs) {
    try {
      await publish(registry, tarball);
    } catch (error) {
      throw new PublishFailed(published, error as Error);
    }
    published.push(basename(tarball));
    io.stdout(`release: published ${shownIn(paths, tarball)} to ${registryName(registry)}\n`);
  }
}

/**
 * The files a release writes (its record's folder, the acknowledgements, the changelogs) as they
 * are before it, to put back when its publishing fails before anything is published: a release is
 * then all or nothing.
 */
function snapshotOf(paths: ReleasePaths, pending: ReleaseRecord): () => void {
  const folder = join(paths.releasesDir, folderOf(pending));
  const files = [paths.acknowledgementsFile, ...changelogFiles(paths)];
  const before = new Map(files.map((file) => [file, existsSync(file) ? readFileSync(file) : null]));
  const folderExisted = existsSync(folder);
  return () => {
    if (!folderExisted) rmSync(folder, { recursive: true, force: true });
    for (const [file, text] of before) {
      if (text === null) rmSync(file, { force: true });
      else writeFileSync(file, text);
    }
  };
}

/** What a failed publish leaves, and how to finish: nothing (taken back), or the rest of a recorded release. */
function publishFailure(
  error: PublishFailed,
  version: string,
  registry: Registry,
  paths: ReleasePaths,
  takeBack: () => void,
): UsageError {
  const again = `npm run release${registry.url === undefined ? "" : ` -- --registry ${redacted(registry.url)}`}`;
  if (error.published.length === 0) {
    takeBack();
    return new UsageError(
      `${error.message}; nothing was published, and the release's files are as they were (no releases/${version}/): fix that and run ${again} again`,
    );
  }
  return new UsageError(
    `${error.message}; ${error.published.join(", ")} ${error.published.length === 1 ? "is" : "are"} published, so ${version} stays recorded (${shownIn(paths, paths.releasesDir)}/${version}/): run ${again} again to publish what the registry lacks of it`,
  );
}

/** The notes of a release, as a CI job's log shows them. */
const printNotes = (io: CommandIo, record: ReleaseRecord): void =>
  io.stdout(`release: the notes of ${record.version}:\n\n${releaseNotes(record)}\n`);

/** Builds the packages of `releases` from the bundle in `bundleDir` and packs them into `outDir`: the tarballs, in the packages' order. */
export type PackPackages = typeof packPackages;

/** The bundle is the latest release's: publish its version where the registry lacks it, if anywhere. */
async function publishRecorded(
  paths: ReleasePaths,
  plan: ReleasePlan,
  registry: Registry,
  io: CommandIo,
  pack: PackPackages,
): Promise<void> {
  const last = plan.last!;
  const version = last.record.version!;
  const missing: string[] = [];
  for (const name of PACKAGE_NAMES) if (!(await isPublished(registry, name, version))) missing.push(name);
  if (!missing.length) {
    io.stdout(
      `release: nothing to release: ${shownIn(paths, join(paths.bundleDir, "openapi.json"))} is what ${versionsOf(version)} were built from, and ${registryName(registry)} has them\n`,
    );
    return;
  }
  const releases = packageReleases(
    version,
    plan.recorded.map((release) => release.record),
  );
  await loggedInAs(registry);
  const tarballs = await pack(
    paths.bundleDir,
    paths.tarballDir,
    Object.fromEntries(missing.map((name) => [name, releases[name]!])),
  );
  io.stdout(
    `release: publishing the recorded ${versionsOf(version, missing)}, which ${registryName(registry)} lacks\n`,
  );
  try {
    await publishAll(registry, tarballs, io, paths);
  } catch (error) {
    if (!(error instanceof PublishFailed)) throw error;
    throw new UsageError(
      `${error.message}; ${version} is recorded: run npm run release again to publish what the registry lacks of it`,
    );
  }
  printNotes(io, last.record);
}

/** `--page` and `--check`: the changelogs against the records. */
function changelogs(paths: ReleasePaths, io: CommandIo, write: boolean): number {
  const records = readRecords(paths.releasesDir).map((release) => release.record);
  if (write) {
    for (const file of writeChangelogs(paths, records)) io.stdout(`release: wrote ${shownIn(paths, file)}\n`);
    return 0;
  }
  const stale = staleChangelogs(paths, records);
  for (const file of stale)
    io.stderr(
      `release: ${shownIn(paths, file)} is not what the records in releases/ produce; run npm run release -- --page and commit it\n`,
    );
  return stale.length ? 1 : 0;
}

/** The command on `argv`; `pack` builds the packages (a test's stand-in skips the builds' seconds). */
export async function runRelease(
  argv: readonly string[],
  io: CommandIo,
  pack: PackPackages = packPackages,
): Promise<number> {
  try {
    const { values, help } = readFlags(COMMAND, argv);
    if (help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const root = values.root === undefined ? PROJECT_ROOT : resolve(io.cwd, values.root);
    if (!existsSync(root)) throw new UsageError(`--root ${values.root}: no such folder`);
    const paths = projectPaths(root);
    if (values.page || values.check) return changelogs(paths, io, values.page === true);
    const registry = registryOf(values.registry);
    const publishing = !values["dry-run"] && !values["no-publish"];
    const plan = planRelease(paths);
    const { pending, last } = plan;
    if (!pending) {
      if (publishing) await publishRecorded(paths, plan, registry, io, pack);
      else
        io.stdout(
          `release: nothing to release: ${shownIn(paths, join(paths.bundleDir, "openapi.json"))} is what ${versionsOf(last!.record.version!)} were built from\n`,
        );
      return 0;
    }
    const version = pending.version!;
    const moves = PACKAGE_NAMES.map((name) => `${name} ${last?.record.version ?? "(none)"} → ${version}`).join(", ");
    io.stdout(
      `release: ${moves} (${pending.bump}: ${bumpReason(pending)}), interface version ${pending.interfaceVersion}\n`,
    );
    if (values["dry-run"]) {
      printNotes(io, pending);
      return 0;
    }
    if (publishing) {
      for (const name of PACKAGE_NAMES) {
        if (await isPublished(registry, name, version)) {
          throw new UsageError(
            `${name}@${version} is already in ${registryName(registry)}, and a published version is never replaced; record the releases published since (releases/) or change the description`,
          );
        }
      }
      // A publish needs a login: asked now, so that a release that cannot publish writes nothing.
      await loggedInAs(registry);
    }
    // Build before writing anything, so a failed build leaves the repository as it was.
    const tarballs = await pack(
      paths.bundleDir,
      paths.tarballDir,
      packageReleases(version, [...plan.recorded.map((release) => release.record), pending]),
    );
    const takeBack = snapshotOf(paths, pending);
    for (const file of recordRelease(paths, plan, pending)) io.stdout(`release: wrote ${shownIn(paths, file)}\n`);
    if (plan.acknowledgements.length)
      io.stdout(
        `release: ${count(plan.acknowledgements.length, "acknowledgement")} moved from ${shownIn(paths, paths.acknowledgementsFile)} into the record of ${version}\n`,
      );
    for (const tarball of tarballs) io.stdout(`release: packed ${shownIn(paths, tarball)}\n`);
    if (publishing) {
      try {
        await publishAll(registry, tarballs, io, paths);
      } catch (error) {
        throw error instanceof PublishFailed ? publishFailure(error, version, registry, paths, takeBack) : error;
      }
    }
    printNotes(io, pending);
    return 0;
  } catch (error) {
    io.stderr(`release: ${redacted((error as Error).message.split("\n")[0]!)}\n`);
    return 2;
  }
}
