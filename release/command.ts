/**
 * `npm run release -- [--dry-run] [--registry URL] [--no-publish] [--root DIR] [--page]`: releases
 * the bundle as the packages' next versions. Returns the exit status: 0 released (or nothing to
 * release), 2 refused or failed (one line saying why, naming the flag or file).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { packPackages } from "../packages/pack.ts";
import { CLIENT_PACKAGE, PACKAGE_NAMES, type PackageRelease } from "../packages/shared/package-build.ts";
import { writeChangelogPage } from "./changelog-page.ts";
import { InputError } from "../changes/input-error.ts";
import { bumpReason } from "./next-version.ts";
import { isPublished, publish, registryName, registryOf, type Registry } from "./npm-registry.ts";
import { changelogEntry, packageChangelog, releaseEntries, type ReleaseEntry } from "./package-changelog.ts";
import { PACKAGE_RELEASES_FILE, packageReleasesText, readPackageReleases, type PackageReleaseRecord } from "./package-releases.ts";
import { planRelease, projectPaths, shownIn, type ReleasePaths, type ReleasePlan } from "./plan.ts";
import { cutRelease, PROJECT_ROOT } from "./releases.ts";

export const USAGE = `usage: npm run release -- [--dry-run] [--registry URL] [--no-publish] [--root DIR] [--page]

Compares generated/openapi.json with the last release recorded in releases/packages.json,
refuses breaking changes changes/acknowledged.json does not acknowledge, gives each package
its next version (breaking: major, compatible: minor, descriptions or examples only: patch),
records it (releases/, docs/changelog.md, packages/*/CHANGELOG.md), packs the tarballs into
packages/dist/ and publishes them. A bundle already released publishes the recorded versions
the registry lacks, or nothing.

  --dry-run       say what would be released; write, build and publish nothing
  --registry URL  publish there (default: npm's own configuration)
  --no-publish    record and pack, but publish nothing (CI publishes what is recorded)
  --root DIR      the project folder (default: this repository)
  --page          only rewrite docs/changelog.md and the packages' CHANGELOG.md`;

export interface CommandIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

function options(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      options: {
        "dry-run": { type: "boolean" },
        registry: { type: "string" },
        "no-publish": { type: "boolean" },
        root: { type: "string" },
        page: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new InputError(`${(error as Error).message}; npm run release -- --help lists the options`);
  }
}

/** What each package of `record` is built with: its version, and its changelog of `entries` (the pending release's included). */
export function packageReleases(record: PackageReleaseRecord, entries: readonly ReleaseEntry[]): Record<string, PackageRelease> {
  return Object.fromEntries(PACKAGE_NAMES.map((name) => [name, { version: record.versions[name]!, changelog: packageChangelog(name, entries) }]));
}

const versionsOf = (record: PackageReleaseRecord, names = PACKAGE_NAMES): string => names.map((name) => `${name}@${record.versions[name]}`).join(", ");

/** Writes the changelogs of the recorded releases: the docs page and each package's CHANGELOG.md. */
function writeChangelogs(paths: ReleasePaths, entries: readonly ReleaseEntry[]): string[] {
  mkdirSync(dirname(paths.changelogPage), { recursive: true });
  writeChangelogPage(paths.releasesDir, paths.changelogPage);
  for (const name of PACKAGE_NAMES) {
    mkdirSync(dirname(paths.packageChangelogs[name]!), { recursive: true });
    writeFileSync(paths.packageChangelogs[name]!, packageChangelog(name, entries));
  }
  return [paths.changelogPage, ...PACKAGE_NAMES.map((name) => paths.packageChangelogs[name]!)];
}

/** Records the pending release: the description it was built from, releases/packages.json, the changelogs. */
export function recordRelease(paths: ReleasePaths, plan: ReleasePlan & { pending: NonNullable<ReleasePlan["pending"]> }): string[] {
  const { record } = plan.pending;
  const written: string[] = [];
  if (plan.cutsInterfaceRelease) {
    written.push(cutRelease({ bundle: join(paths.bundleDir, "openapi.json"), dir: paths.releasesDir, acknowledgementsFile: paths.acknowledgementsFile })!);
  } else if (!existsSync(join(paths.releasesDir, record.description))) {
    const file = join(paths.releasesDir, record.description);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, plan.text);
    written.push(file);
  }
  const recordsFile = join(paths.releasesDir, PACKAGE_RELEASES_FILE);
  writeFileSync(recordsFile, packageReleasesText([...readPackageReleases(paths.releasesDir), record]));
  return [...written, recordsFile, ...writeChangelogs(paths, releaseEntries(paths.releasesDir))];
}

/** Publishes the tarballs, in the packages' order. */
async function publishAll(registry: Registry, tarballs: readonly string[], io: CommandIo, paths: ReleasePaths): Promise<void> {
  for (const tarball of tarballs) {
    await publish(registry, tarball);
    io.stdout(`release: published ${shownIn(paths, tarball)} to ${registryName(registry)}\n`);
  }
}

/** The bundle is the last release's: publish its recorded versions the registry lacks, if any. */
async function publishRecorded(paths: ReleasePaths, plan: ReleasePlan, registry: Registry, io: CommandIo): Promise<void> {
  const last = plan.last!;
  const missing: string[] = [];
  for (const name of PACKAGE_NAMES) if (!(await isPublished(registry, name, last.versions[name]!))) missing.push(name);
  if (!missing.length) {
    io.stdout(`release: nothing to release: ${shownIn(paths, join(paths.bundleDir, "openapi.json"))} is what ${versionsOf(last)} were built from, and ${registryName(registry)} has them\n`);
    return;
  }
  const releases = packageReleases(last, releaseEntries(paths.releasesDir));
  const tarballs = await packPackages(paths.bundleDir, paths.tarballDir, Object.fromEntries(missing.map((name) => [name, releases[name]!])));
  io.stdout(`release: publishing the recorded ${versionsOf(last, missing)}, which ${registryName(registry)} lacks\n`);
  await publishAll(registry, tarballs, io, paths);
}

export async function runRelease(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const { values } = options(argv);
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const root = values.root === undefined ? PROJECT_ROOT : resolve(io.cwd, values.root);
    if (!existsSync(root)) throw new InputError(`--root ${values.root}: no such folder`);
    const paths = projectPaths(root);
    if (values.page) {
      for (const file of writeChangelogs(paths, releaseEntries(paths.releasesDir))) io.stdout(`release: wrote ${shownIn(paths, file)}\n`);
      return 0;
    }
    const registry = registryOf(values.registry);
    const publishing = !values["dry-run"] && !values["no-publish"];
    const plan = planRelease(paths);
    if (!plan.pending) {
      if (publishing) await publishRecorded(paths, plan, registry, io);
      else io.stdout(`release: nothing to release: ${shownIn(paths, join(paths.bundleDir, "openapi.json"))} is what ${versionsOf(plan.last!)} were built from\n`);
      return 0;
    }
    const { record } = plan.pending;
    const entries = releaseEntries(paths.releasesDir, plan.pending);
    const entry = entries[0];
    const moves = PACKAGE_NAMES.map((name) => `${name} ${plan.last?.versions[name] ?? "(none)"} → ${record.versions[name]}`).join(", ");
    io.stdout(`release: ${moves} (${record.bump}: ${bumpReason(record.bump, entry!.report)}), interface version ${record.interfaceVersion}\n`);
    if (values["dry-run"]) {
      io.stdout(`\n${changelogEntry(CLIENT_PACKAGE, entry!)}\n`);
      return 0;
    }
    if (publishing) {
      for (const name of PACKAGE_NAMES) {
        if (await isPublished(registry, name, record.versions[name]!)) {
          throw new InputError(`${name}@${record.versions[name]} is already in ${registryName(registry)}, and a published version is never replaced; record the releases published since (releases/packages.json) or change the description`);
        }
      }
    }
    // Build before writing anything, so a failed build leaves the repository as it was.
    const tarballs = await packPackages(paths.bundleDir, paths.tarballDir, packageReleases(record, entries));
    for (const file of recordRelease(paths, { ...plan, pending: plan.pending })) io.stdout(`release: wrote ${shownIn(paths, file)}\n`);
    for (const tarball of tarballs) io.stdout(`release: packed ${shownIn(paths, tarball)}\n`);
    if (publishing) await publishAll(registry, tarballs, io, paths);
    return 0;
  } catch (error) {
    io.stderr(`release: ${(error as Error).message.split("\n")[0]}\n`);
    return 2;
  }
}
