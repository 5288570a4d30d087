/**
 * `npm run release` (release/command.ts, release/README.md "The command"), run in the test's
 * process on a project in a temporary folder, with a stand-in for npm (fake-npm.ts): what it says
 * it would release and why (breaking: major, compatible: minor, text only: patch), that --dry-run
 * and --no-publish ask no registry, that a bundle already released publishes only what the registry
 * lacks, that a version the registry has or a registry with no login is refused before anything is
 * built or written, --page and --check; and, with a stand-in for the builds, recording and
 * publishing: all or nothing, and a failure that says how to finish. The real builds, npm and a
 * registry are the end-to-end suites' (publish-failure.e2e.ts, tests/packages/registry.release-test.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_ACKNOWLEDGEMENTS } from "../../changes/acknowledgements.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import {
  CLIENT_PACKAGE,
  MCP_PACKAGE,
  PACKAGE_NAMES,
  type PackageRelease,
  TOOLS_PACKAGE,
} from "../../packages/shared/package-build.ts";
import { changelogFiles, changelogText } from "../../release/changelog.ts";
import { type PackPackages, packageReleases, recordRelease } from "../../release/command.ts";
import { planRelease, projectPaths } from "../../release/plan.ts";
import { type ReleaseRecord, readRecords } from "../../release/records.ts";
import { PLANTED } from "../changes/planted.ts";
import type { LooseJson } from "../support/loose.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";
import { fakeNpm, type FakeNpm } from "./fake-npm.ts";
import { releaseIn } from "./run-release.ts";

// The bundles released here keep the placeholder slugs: no slug map applies.
withoutSlugMap();
const built = loadBundle();
const base = { ...built, paths: placeholderPaths(built.paths) as typeof built.paths };
const REGISTRY = "http://releaser:s3cret@127.0.0.1:4873/";
const SHOWN = "http://***@127.0.0.1:4873/";
const QUEUED = 'response-enum-value-added@schema JobStatus="queued"';
const NO_21_9 = 'request-enum-value-removed@POST /v1/images/i-a request body.aspect_ratio="21:9"';
const ALL_AT = (version: string) =>
  `${CLIENT_PACKAGE}@${version}, ${TOOLS_PACKAGE}@${version}, ${MCP_PACKAGE}@${version}`;

let dir: string;
let npm: FakeNpm;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "release-command-"));
  mkdirSync(join(dir, "generated"));
  mkdirSync(join(dir, "changes"));
  npm = fakeNpm();
});
afterEach(() => {
  npm.restore();
  rmSync(dir, { recursive: true, force: true });
});

const release = (...argv: string[]) => releaseIn(dir, ["--root", ".", ...argv]);
const paths = () => projectPaths(dir);

/** Writes the project's bundle: the base description with the planted kinds of change. */
function bundle(kinds: string[] = [], change?: (doc: LooseJson) => void): void {
  const doc = structuredClone(base) as LooseJson;
  for (const kind of kinds) PLANTED.find((candidate) => candidate.kind === kind)!.plant(doc);
  change?.(doc);
  writeFileSync(join(dir, "generated", "openapi.json"), `${JSON.stringify(doc)}\n`);
}

/** Records the bundle's release as the release command does, without building or publishing it. */
function recorded(): ReleaseRecord {
  const plan = planRelease(paths());
  recordRelease(paths(), plan, plan.pending!);
  return plan.pending!;
}

const acknowledge = (...ids: string[]) =>
  writeFileSync(
    paths().acknowledgementsFile,
    JSON.stringify({ acknowledged: ids.map((id) => ({ id, reason: "Accepted for the test." })) }),
  );

describe("what a release would be, and why", () => {
  it("the first: every package from none to 1.0.0, then its notes; --dry-run writes nothing and asks no registry", async () => {
    bundle();
    const { code, stdout, stderr } = await release("--dry-run", "--registry", REGISTRY);
    expect([code, stderr]).toEqual([0, ""]);
    expect(stdout).toBe(
      `release: ${CLIENT_PACKAGE} (none) → 1.0.0, ${TOOLS_PACKAGE} (none) → 1.0.0, ${MCP_PACKAGE} (none) → 1.0.0 (first: the first release of the packages), interface version 2026-06-20\n` +
        "release: the notes of 1.0.0:\n\n## 1.0.0\n\nInterface version `2026-06-20` (the client's `apiVersion`).\n\nThe first release of the packages.\n\n",
    );
    expect(existsSync(join(dir, "releases"))).toBe(false);
    expect(npm.calls()).toEqual([]);
  });

  it("a patch for descriptions only, a minor counting the compatible changes and changelog entries, a major counting the breaking ones", async () => {
    bundle();
    recorded();
    const dryRun = async () => {
      const { code, stdout } = await release("--dry-run");
      expect(code).toBe(0);
      return stdout.split("\n")[0];
    };
    bundle([], (doc) => (doc.info.description += " Clarified."));
    expect(await dryRun()).toBe(
      `release: ${CLIENT_PACKAGE} 1.0.0 → 1.0.1, ${TOOLS_PACKAGE} 1.0.0 → 1.0.1, ${MCP_PACKAGE} 1.0.0 → 1.0.1 (patch: descriptions, examples or documentation only; no change for client code), interface version 2026-06-20`,
    );
    bundle(["response field added", "price changed", "flat price changed"]);
    expect(planRelease(paths()).pending).toMatchObject({ changes: [{}], changelog: [{}, {}] });
    expect(await dryRun()).toMatch(
      /→ 1\.1\.0 \(minor: one compatible change and 2 changelog entries, nothing breaking\), interface version/,
    );
    bundle(["response field added", "price changed"]);
    expect(await dryRun()).toMatch(/\(minor: one compatible change and one changelog entry, nothing breaking\)/);
    bundle(["response field added"]);
    expect(await dryRun()).toMatch(/\(minor: one compatible change and 0 changelog entries, nothing breaking\)/);
    bundle(["response enum value added", "request enum value removed", "response field added"]);
    acknowledge(QUEUED, NO_21_9);
    expect(planRelease(paths()).pending!.changes).toHaveLength(3);
    expect(await dryRun()).toMatch(/→ 2\.0\.0 \(major: 2 breaking changes for client code\), interface version/);
    bundle(["response enum value added"]);
    acknowledge(QUEUED);
    expect(await dryRun()).toMatch(/\(major: one breaking change for client code\)/);
    // None of these asked a registry, nor wrote anything.
    expect(npm.calls()).toEqual([]);
    expect(JSON.parse(readFileSync(paths().acknowledgementsFile, "utf8")).acknowledged).toHaveLength(1);
    expect(existsSync(join(dir, "releases", "1.0.1"))).toBe(false);
  });
});

describe("a bundle already released", () => {
  beforeEach(() => {
    bundle();
    recorded();
  });

  it("with --dry-run or --no-publish: nothing to release, and no registry asked", async () => {
    const said = `release: nothing to release: generated/openapi.json is what ${ALL_AT("1.0.0")} were built from\n`;
    expect(await release("--dry-run", "--registry", REGISTRY)).toEqual({ code: 0, stdout: said, stderr: "" });
    expect(await release("--no-publish", "--registry", REGISTRY)).toEqual({ code: 0, stdout: said, stderr: "" });
    expect(npm.calls()).toEqual([]);
  });

  it("publishing: nothing to release where the registry has every package of the version", async () => {
    npm.answer("view", { stdout: '"1.0.0"\n' });
    expect(await release("--registry", REGISTRY)).toEqual({
      code: 0,
      stdout: `release: nothing to release: generated/openapi.json is what ${ALL_AT("1.0.0")} were built from, and ${SHOWN} has them\n`,
      stderr: "",
    });
    expect(npm.calls().map((call) => call.slice(0, 2))).toEqual(PACKAGE_NAMES.map((name) => ["view", `${name}@1.0.0`]));
  });

  it("publishing: what the registry lacks of the version, asking for a login first", async () => {
    npm.answer("view", { stdout: '"1.0.0"\n' });
    npm.answer("view", { stdout: "" }, `${TOOLS_PACKAGE}@1.0.0`);
    npm.answer("whoami", { stderr: "npm error code E401\nnpm error 401 Unauthorized", code: 1 });
    const { code, stdout, stderr } = await release("--registry", REGISTRY);
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toMatch(
      /^release: http:\/\/\*\*\*@127\.0\.0\.1:4873\/ has no login for npm here \(401 Unauthorized\)/,
    );
    expect(npm.calls().map((call) => call[0])).toEqual(["view", "view", "view", "whoami"]);
  });
});

describe("a release refused before anything is built or written", () => {
  beforeEach(() => bundle());
  const nothingWritten = () => {
    expect(existsSync(join(dir, "releases"))).toBe(false);
    expect(existsSync(join(dir, "docs"))).toBe(false);
    expect(npm.calls().some((call) => call[0] === "publish" || call[0] === "pack")).toBe(false);
  };

  it("a version the registry already has, named with the registry", async () => {
    npm.answer("view", { stdout: "" });
    npm.answer("view", { stdout: '"1.0.0"\n' }, `${TOOLS_PACKAGE}@1.0.0`);
    const { code, stdout, stderr } = await release("--registry", REGISTRY);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^release: .* \(none\) → 1\.0\.0 .*\n$/);
    expect(stderr).toBe(
      `release: ${TOOLS_PACKAGE}@1.0.0 is already in ${SHOWN}, and a published version is never replaced; record the releases published since (releases/) or change the description\n`,
    );
    nothingWritten();
  });

  it("a registry where npm has no login, after asking for every package's version", async () => {
    npm.answer("view", { stdout: "" });
    npm.answer("whoami", { stdout: JSON.stringify({ error: { code: "ENEEDAUTH", summary: "need auth" } }), code: 1 });
    const { code, stderr } = await release("--registry", REGISTRY);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^release: http:\/\/\*\*\*@127\.0\.0\.1:4873\/ has no login for npm here \(need auth\); log in with npm login/,
    );
    expect(npm.calls().map((call) => call.slice(0, 2))).toEqual([
      ...PACKAGE_NAMES.map((name) => ["view", `${name}@1.0.0`]),
      ["whoami", "--json"],
    ]);
    nothingWritten();
  });
});

describe("the changelogs against the records", () => {
  const files = () => [
    "docs/changelog.md",
    ...PACKAGE_NAMES.map((name) => `packages/${name.split("/")[1]}/CHANGELOG.md`),
  ];

  it("--check names each changelog the records do not produce, and exits 1; --page writes them; then --check passes", async () => {
    bundle();
    recorded();
    writeFileSync(join(dir, "docs", "changelog.md"), "# Changelog\n\nedited by hand\n");
    rmSync(paths().packageChangelogs[MCP_PACKAGE]!);
    const stale = await release("--check");
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe("");
    expect(stale.stderr).toBe(
      ["docs/changelog.md", `packages/${MCP_PACKAGE.split("/")[1]}/CHANGELOG.md`]
        .map(
          (file) =>
            `release: ${file} is not what the records in releases/ produce; run npm run release -- --page and commit it\n`,
        )
        .join(""),
    );
    const page = await release("--page");
    expect(page).toEqual({
      code: 0,
      stdout: files()
        .map((file) => `release: wrote ${file}\n`)
        .join(""),
      stderr: "",
    });
    const text = readFileSync(join(dir, "docs", "changelog.md"), "utf8");
    expect(text).toContain("\n## 1.0.0\n");
    for (const file of files()) expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    expect(await release("--check")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(npm.calls()).toEqual([]);
  });
});

describe("recording a release", () => {
  it("empties the acknowledgements only when the release consumed some", () => {
    bundle();
    const first = recorded();
    expect(existsSync(paths().acknowledgementsFile)).toBe(false);
    bundle(["response enum value added"]);
    acknowledge(QUEUED);
    const plan = planRelease(paths());
    const written = recordRelease(paths(), plan, plan.pending!);
    expect(written).toContain(paths().acknowledgementsFile);
    expect(readFileSync(paths().acknowledgementsFile, "utf8")).toBe(EMPTY_ACKNOWLEDGEMENTS);
    // Each package is built with the version and the changelog of every record, the new one included.
    const releases = packageReleases("2.0.0", [first, plan.pending!]);
    expect(Object.keys(releases)).toEqual(PACKAGE_NAMES);
    for (const name of PACKAGE_NAMES)
      expect(releases[name]).toEqual({ version: "2.0.0", changelog: changelogText([first, plan.pending!]) });
  });

  it("leaves the acknowledgements file alone when there were none", () => {
    bundle();
    const plan = planRelease(paths());
    expect(recordRelease(paths(), plan, plan.pending!)).not.toContain(paths().acknowledgementsFile);
    expect(existsSync(paths().acknowledgementsFile)).toBe(false);
  });
});

/**
 * Building, recording and publishing, with a stand-in for the builds (each package's tarball a
 * small file named as npm names it; what it was asked to build is kept) and npm's answers set per
 * test: a release is all or nothing, and a failure says how to finish.
 */
describe("building, recording and publishing", () => {
  const BEFORE = "# Changelog\n\nAs it was before the release.\n";
  let asked: Record<string, PackageRelease>[];
  const pack: PackPackages = async (_bundleDir, outDir, releases) => {
    asked.push(releases);
    mkdirSync(outDir, { recursive: true });
    return Object.entries(releases).map(([name, { version }]) => {
      const file = join(outDir, `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
      writeFileSync(file, name);
      return file;
    });
  };
  const tarball = (name: string, version = "1.0.0") =>
    join(dir, "packages", "dist", `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
  const shown = (name: string) => `packages/dist/${basename(tarball(name))}`;
  const publishing = (...argv: string[]) => releaseIn(dir, ["--root", ".", ...argv], pack);
  const refuse = (name: string, version = "1.0.0") =>
    npm.answer(
      "publish",
      { stderr: "npm error code E403\nnpm error 403 Forbidden - not yours\n", code: 1 },
      tarball(name, version),
    );
  const published = () => npm.calls().flatMap((call) => (call[0] === "publish" ? [call[1]] : []));

  beforeEach(() => {
    asked = [];
    bundle();
    npm.answer("view", { stdout: "" });
    npm.answer("whoami", { stdout: '"releaser"\n' });
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "docs", "changelog.md"), BEFORE);
  });

  it("asks the registry and the login first, then builds, records, packs, publishes each package in order and prints the notes", async () => {
    const { code, stdout, stderr } = await publishing("--registry", REGISTRY);
    expect([code, stderr]).toEqual([0, ""]);
    expect(npm.calls().map((call) => call[0])).toEqual([
      "view",
      "view",
      "view",
      "whoami",
      ...PACKAGE_NAMES.map(() => "publish"),
    ]);
    expect(published()).toEqual(PACKAGE_NAMES.map((name) => tarball(name)));
    const records = readRecords(paths().releasesDir).map((release) => release.record);
    expect(asked).toEqual([packageReleases("1.0.0", records)]);
    const lines = stdout.split("\n");
    expect(lines.filter((line) => /^release: (packed|published) /.test(line))).toEqual([
      ...PACKAGE_NAMES.map((name) => `release: packed ${shown(name)}`),
      ...PACKAGE_NAMES.map((name) => `release: published ${shown(name)} to ${SHOWN}`),
    ]);
    expect(lines).toContain("release: wrote docs/changelog.md");
    // The first release consumes no acknowledgement, and says of none.
    expect(stdout).not.toContain("moved from");
    expect(stdout).toMatch(/\nrelease: the notes of 1\.0\.0:\n\n## 1\.0\.0\n/);
    expect(readFileSync(join(dir, "docs", "changelog.md"), "utf8")).not.toBe(BEFORE);
  });

  it("with --no-publish records and packs, and asks no registry", async () => {
    const { code, stdout } = await publishing("--no-publish", "--registry", REGISTRY);
    expect(code).toBe(0);
    expect(npm.calls()).toEqual([]);
    expect(existsSync(join(dir, "releases", "1.0.0"))).toBe(true);
    expect(stdout).toContain(`release: packed ${shown(CLIENT_PACKAGE)}\n`);
    expect(stdout).not.toContain("published");
  });

  it("a publish refused before any package went out takes the release's files back, as they were", async () => {
    refuse(CLIENT_PACKAGE);
    const { code, stderr } = await publishing("--registry", REGISTRY);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `release: ${SHOWN} refused ${basename(tarball(CLIENT_PACKAGE))}: 403 Forbidden - not yours; nothing was published, and the release's files are as they were (no releases/1.0.0/): fix that and run npm run release -- --registry ${SHOWN} again\n`,
    );
    expect(existsSync(join(dir, "releases", "1.0.0"))).toBe(false);
    // A changelog that was there holds its text again; the ones the release made are gone.
    expect(readFileSync(join(dir, "docs", "changelog.md"), "utf8")).toBe(BEFORE);
    for (const file of changelogFiles(paths()).slice(1)) expect(existsSync(file)).toBe(false);
    expect(published()).toEqual([tarball(CLIENT_PACKAGE)]);
  });

  it("takes back the emptied acknowledgements too, and names npm's own registry without a flag", async () => {
    recorded();
    bundle(["response enum value added"]);
    acknowledge(QUEUED);
    const before = readFileSync(paths().acknowledgementsFile, "utf8");
    refuse(CLIENT_PACKAGE, "2.0.0");
    const { code, stdout, stderr } = await publishing();
    expect(code).toBe(2);
    expect(stdout).toContain(
      "release: one acknowledgement moved from changes/acknowledged.json into the record of 2.0.0\n",
    );
    expect(stderr).toMatch(/^release: the registry of npm's configuration refused /);
    expect(stderr).toMatch(/: fix that and run npm run release again\n$/);
    expect(readFileSync(paths().acknowledgementsFile, "utf8")).toBe(before);
  });

  it("a publish refused after a package went out keeps the release recorded and names what is published", async () => {
    refuse(TOOLS_PACKAGE);
    const { code, stderr } = await publishing("--registry", REGISTRY);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `release: ${SHOWN} refused ${basename(tarball(TOOLS_PACKAGE))}: 403 Forbidden - not yours; ${basename(tarball(CLIENT_PACKAGE))} is published, so 1.0.0 stays recorded (releases/1.0.0/): run npm run release -- --registry ${SHOWN} again to publish what the registry lacks of it\n`,
    );
    expect(existsSync(join(dir, "releases", "1.0.0"))).toBe(true);
    expect(readFileSync(join(dir, "docs", "changelog.md"), "utf8")).not.toBe(BEFORE);
  });

  it("names every package published before the refusal", async () => {
    refuse(MCP_PACKAGE);
    const { stderr } = await publishing("--registry", REGISTRY);
    expect(stderr).toContain(
      `; ${basename(tarball(CLIENT_PACKAGE))}, ${basename(tarball(TOOLS_PACKAGE))} are published, so 1.0.0 stays recorded`,
    );
  });

  describe("a recorded release the registry lacks part of", () => {
    beforeEach(() => {
      recorded();
      npm.answer("view", { stdout: '"1.0.0"\n' });
      npm.answer("view", { stdout: "" }, `${TOOLS_PACKAGE}@1.0.0`);
    });

    it("builds and publishes only what it lacks, then prints the notes", async () => {
      const { code, stdout, stderr } = await publishing("--registry", REGISTRY);
      expect([code, stderr]).toEqual([0, ""]);
      const records = readRecords(paths().releasesDir).map((release) => release.record);
      expect(asked).toEqual([{ [TOOLS_PACKAGE]: packageReleases("1.0.0", records)[TOOLS_PACKAGE] }]);
      expect(published()).toEqual([tarball(TOOLS_PACKAGE)]);
      expect(stdout).toMatch(
        new RegExp(
          `^release: publishing the recorded ${TOOLS_PACKAGE}@1\\.0\\.0, which ${SHOWN.replace(/[.*]/g, "\\$&")} lacks\\nrelease: published ${shown(TOOLS_PACKAGE)} to .*\\nrelease: the notes of 1\\.0\\.0:\\n`,
        ),
      );
    });

    it("a refusal keeps the record and says to run the release again", async () => {
      refuse(TOOLS_PACKAGE);
      const { code, stderr } = await publishing("--registry", REGISTRY);
      expect(code).toBe(2);
      expect(stderr).toBe(
        `release: ${SHOWN} refused ${basename(tarball(TOOLS_PACKAGE))}: 403 Forbidden - not yours; 1.0.0 is recorded: run npm run release again to publish what the registry lacks of it\n`,
      );
      expect(existsSync(join(dir, "releases", "1.0.0"))).toBe(true);
    });
  });
});
