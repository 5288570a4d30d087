/**
 * Releases and their records: the release plan (first, patch, minor, major; what it refuses), the
 * record each release writes under releases/ and the acknowledgements it consumes, the changelog
 * rendered from the records into every place it is read, the baseline the diff shares with the
 * release, and the release command's refusals. Its refusals that ask a registry through npm are
 * release-npm.e2e.ts; publishing to a registry is tests/packages/registry.release-test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_ACKNOWLEDGEMENTS } from "../../changes/acknowledgements.ts";
import { latestRelease } from "../../changes/baseline.ts";
import { compareDescriptions } from "../../changes/compare.ts";
import { changelogText, staleChangelogs } from "../../release/changelog.ts";
import { recordRelease } from "../../release/command.ts";
import { npmError } from "../../release/npm-registry.ts";
import { bumpOf, nextVersion as nextSemver } from "../../release/next-version.ts";
import { planRelease, projectPaths } from "../../release/plan.ts";
import { readRecords, type ReleaseRecord } from "../../release/records.ts";
import { CLIENT_PACKAGE, MCP_PACKAGE, PACKAGE_NAMES, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { renderMarkdown as renderPage } from "../../docs-src/markdown-page.ts";
import { SITE_PAGES } from "../../docs-src/site-pages.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import { PLANTED } from "../changes/planted.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";
import type { LooseJson } from "../support/loose.ts";
import { releasedBefore } from "./record-fixtures.ts";
import { releaseIn } from "./run-release.ts";

// Releases keep the placeholder slugs; the planted kinds name routes by them, and the bundles
// these tests release are placeholder ones, so no slug map applies here.
withoutSlugMap();
const built = loadBundle();
const base = { ...built, paths: placeholderPaths(built.paths) as typeof built.paths };
let dir: string;
let releases: string;
let ackFile: string;

/** Writes a description as the bundle a release is made from. */
function bundle(doc: unknown): string {
  const file = join(dir, "openapi.json");
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

/** A copy of the base with the planted kinds of change. */
function planted(kinds: string[], from: unknown = base): LooseJson {
  const next = structuredClone(from) as LooseJson;
  for (const kind of kinds) PLANTED.find((candidate) => candidate.kind === kind)!.plant(next);
  return next;
}

const QUEUED = 'response-enum-value-added@schema JobStatus="queued"';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "release-records-"));
  releases = join(dir, "releases");
  ackFile = join(dir, "acknowledged.json");
  writeFileSync(ackFile, EMPTY_ACKNOWLEDGEMENTS);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the packages' next versions", () => {
  const side = (doc: unknown, source: string) => ({ source, doc: doc as typeof base });
  const bump = (kinds: string[], change?: (doc: LooseJson) => void) => {
    const next = planted(kinds);
    change?.(next);
    return bumpOf(
      compareDescriptions(side(base, "before"), side(next, "after")),
      JSON.stringify(next) === JSON.stringify(base),
    );
  };

  it("is major for a breaking change, minor for a compatible one, patch for descriptions or examples only, and nothing for the same description", () => {
    expect(bump(["response enum value added", "response field added"])).toBe("major");
    expect(bump(["response field added"])).toBe("minor");
    expect(bump(["price changed"])).toBe("minor");
    expect(bump(["path parameter renamed"])).toBe("major");
    expect(bump([], (doc) => (doc.info.description += " Clarified."))).toBe("patch");
    expect(
      bump(
        [],
        (doc) =>
          (Object.values(doc.components.examples as Record<string, { summary?: string }>)[0]!.summary = "Reworded."),
      ),
    ).toBe("patch");
    expect(bump([])).toBeUndefined();
  });

  it("counts semver up from the last version", () => {
    expect(nextSemver("1.4.2", "major")).toBe("2.0.0");
    expect(nextSemver("1.4.2", "minor")).toBe("1.5.0");
    expect(nextSemver("1.4.2", "patch")).toBe("1.4.3");
    expect(() => nextSemver("2026.6.20-beta", "patch")).toThrow(/"2026.6.20-beta" is not a release version/);
  });
});

describe("the release plan and its records", () => {
  let paths: ReturnType<typeof projectPaths>;
  beforeEach(() => {
    paths = { ...projectPaths(dir), bundleDir: dir, releasesDir: releases, acknowledgementsFile: ackFile };
  });
  /** Records the plan's pending release as the release command does, without building or publishing. */
  const record = (): ReleaseRecord => {
    const plan = planRelease(paths);
    recordRelease(paths, plan, plan.pending!);
    return plan.pending!;
  };
  /** Records the base description as released before the packages, in releases/2026-06-20/. */
  const releaseBeforePackages = () => {
    mkdirSync(join(releases, "2026-06-20"), { recursive: true });
    writeFileSync(join(releases, "2026-06-20", "openapi.json"), `${JSON.stringify(base, null, 2)}\n`);
    writeFileSync(join(releases, "2026-06-20", "release.json"), JSON.stringify(releasedBefore("2026-06-20")));
  };
  const recorded = (version: string) =>
    JSON.parse(readFileSync(join(releases, version, "release.json"), "utf8")) as ReleaseRecord;

  it("starts at 1.0.0, releases nothing for the same bundle, then bumps from the recorded version: patch, minor, major", () => {
    bundle(base);
    expect(record()).toEqual({
      version: "1.0.0",
      interfaceVersion: "2026-06-20",
      bump: "first",
      comparedWith: null,
      changes: [],
      changelog: [],
      routeTitles: {},
    });
    expect(readFileSync(join(releases, "1.0.0", "openapi.json"), "utf8")).toBe(
      readFileSync(join(dir, "openapi.json"), "utf8"),
    );
    expect(planRelease(paths).pending).toBeUndefined();
    const described = structuredClone(base) as LooseJson;
    described.info.description += " Clarified.";
    bundle(described);
    expect(record()).toMatchObject({
      version: "1.0.1",
      bump: "patch",
      comparedWith: "1.0.0",
      changes: [],
      changelog: [],
    });
    const compatible = planted(["response field added"], described);
    bundle(compatible);
    expect(record()).toMatchObject({
      version: "1.1.0",
      bump: "minor",
      comparedWith: "1.0.1",
      changes: [
        expect.objectContaining({
          id: "response-property-added@schema AccountCredits.bonus_credits",
          severity: "compatible",
        }),
      ],
    });
    bundle(planted(["response enum value added"], compatible));
    expect(() => planRelease(paths)).toThrow(
      /^one breaking change since 1\.1\.0 is not acknowledged in .*acknowledged\.json; npm run diff lists it with its id$/,
    );
    writeFileSync(ackFile, JSON.stringify({ acknowledged: [{ id: QUEUED, reason: "Jobs may now wait in a queue." }] }));
    expect(record()).toMatchObject({
      version: "2.0.0",
      bump: "major",
      comparedWith: "1.1.0",
      changes: [
        expect.objectContaining({ id: QUEUED, severity: "breaking", acknowledged: "Jobs may now wait in a queue." }),
      ],
    });
    // The acknowledgement is consumed: kept in the record of the release that shipped it, gone from the pending file.
    expect(readFileSync(ackFile, "utf8")).toBe(EMPTY_ACKNOWLEDGEMENTS);
    expect(recorded("2.0.0").changes).toContainEqual(
      expect.objectContaining({ id: QUEUED, acknowledged: "Jobs may now wait in a queue." }),
    );
    expect(readRecords(releases).map((release) => release.name)).toEqual(["1.0.0", "1.0.1", "1.1.0", "2.0.0"]);
    expect(latestRelease(releases).name).toBe("2.0.0");
    expect(planRelease(paths).pending).toBeUndefined();
  });

  it("renders one changelog from the records into the docs page and every package's CHANGELOG.md, newest first, for the client developer", () => {
    bundle(base);
    record();
    bundle(planted(["request enum value removed", "new model", "price changed"]));
    writeFileSync(
      ackFile,
      JSON.stringify({
        acknowledged: [
          {
            id: 'request-enum-value-removed@POST /v1/images/i-a request body.aspect_ratio="21:9"',
            reason: "I-A no longer renders 21:9; use 16:9.",
          },
        ],
      }),
    );
    record();
    const page = readFileSync(join(dir, "docs/changelog.md"), "utf8");
    for (const name of PACKAGE_NAMES) expect(readFileSync(paths.packageChangelogs[name]!, "utf8")).toBe(page);
    expect(page).toBe(changelogText(readRecords(releases).map((release) => release.record)));
    expect(page.indexOf("\n## 2.0.0\n")).toBeLessThan(page.indexOf("\n## 1.0.0\n"));
    expect(page).toContain(
      "**A major release:** one breaking change for code written against 1.0.0; each says what to do.",
    );
    expect(page).toContain(
      '- `POST /v1/images/i-a` — Create an image with I-A (text-to-image and editing, five sizes); request field `aspect_ratio`: no longer allows "21:9". **What to do:** stop sending "21:9"; send one of the values still allowed. **Why:** I-A no longer renders 21:9; use 16:9.',
    );
    expect(page).toContain("- New model I-L: POST /v1/images/i-l; output image 25 credits × num_images.");
    // For the client developer: no repository paths, no maintainer instructions, no ids, no "(s)", no headings past level 4.
    // (The generated-file comment, for maintainers, is not shown.)
    const shown = page.replace(/<!--.*-->\n/, "");
    for (const unwanted of [
      "releases/",
      "generated/",
      "npm run",
      "info.version",
      "acknowledged.json",
      "change(s)",
      "#####",
      "request-enum-value-removed@",
    ])
      expect(shown, unwanted).not.toContain(unwanted);
    const { title, html } = renderPage(page, "docs/changelog.md");
    expect(title).toBe("Changelog");
    expect(html).toContain(
      "<code>POST /v1/images/i-a</code> — Create an image with I-A (text-to-image and editing, five sizes); request field",
    );
    expect(
      staleChangelogs(
        paths,
        readRecords(releases).map((release) => release.record),
      ),
    ).toEqual([]);
  });

  it("takes a description released before the packages as the first release's baseline, and its acknowledgements", () => {
    releaseBeforePackages();
    bundle(planted(["response enum value added"]));
    expect(() => planRelease(paths)).toThrow(/one breaking change since 2026-06-20 is not acknowledged/);
    writeFileSync(ackFile, JSON.stringify({ acknowledged: [{ id: QUEUED, reason: "Queued jobs." }] }));
    expect(record()).toMatchObject({
      version: "1.0.0",
      bump: "first",
      comparedWith: "2026-06-20",
      changes: [expect.objectContaining({ id: QUEUED, acknowledged: "Queued jobs." })],
    });
    const page = readFileSync(join(dir, "docs/changelog.md"), "utf8");
    expect(page).toContain(
      "The first release of the packages. Since the description published as interface version `2026-06-20`:",
    );
    expect(page).toContain(
      "## Interface version 2026-06-20\n\nThe description published before the packages' first release.",
    );
  });

  it("compares with the latest release in version order, 1.10.0 after 1.9.0 and 1.2.0, a description released before the packages first", () => {
    // Semver orders versions by their numbers, not their text (https://semver.org, item 11): 1.10.0 > 1.9.0 > 1.2.0.
    const chain: Array<[name: string, comparedWith: string | null]> = [
      ["2026-06-20", null],
      ["1.2.0", "2026-06-20"],
      ["1.9.0", "1.2.0"],
      ["1.10.0", "1.9.0"],
    ];
    for (const [name, comparedWith] of chain) {
      const released = name === "2026-06-20";
      mkdirSync(join(releases, name), { recursive: true });
      writeFileSync(join(releases, name, "openapi.json"), `${JSON.stringify(base, null, 2)}\n`);
      writeFileSync(
        join(releases, name, "release.json"),
        JSON.stringify({
          version: released ? null : name,
          interfaceVersion: "2026-06-20",
          bump: released ? null : "minor",
          comparedWith,
          changes: [],
          changelog: [],
          routeTitles: {},
        }),
      );
    }
    expect(latestRelease(releases).name).toBe("1.10.0");
    expect(readRecords(releases).map((release) => release.name)).toEqual(["2026-06-20", "1.2.0", "1.9.0", "1.10.0"]);
    const described = structuredClone(base) as LooseJson;
    described.info.description += " Clarified.";
    bundle(described);
    expect(planRelease(paths).pending).toMatchObject({ version: "1.10.1", bump: "patch", comparedWith: "1.10.0" });
  });

  it("refuses an interface version older than the latest release's", () => {
    bundle(base);
    record();
    const older = structuredClone(base) as LooseJson;
    older.info.version = "2026-01-01";
    bundle(older);
    expect(() => planRelease(paths)).toThrow(
      "info.version 2026-01-01 is older than 2026-06-20, the interface version of the latest release 1.0.0",
    );
  });

  it("compares interface versions by their numbers: 2026.10.1 is newer than 2026.9.1", () => {
    const released = structuredClone(base) as LooseJson;
    released.info.version = "2026.9.1";
    bundle(released);
    record();
    const newer = structuredClone(base) as LooseJson;
    newer.info.version = "2026.10.1";
    bundle(newer);
    expect(planRelease(paths).pending).toMatchObject({ comparedWith: "1.0.0", interfaceVersion: "2026.10.1" });
  });

  it("counts the unacknowledged breaking changes, and says the diff lists them with their ids", () => {
    bundle(base);
    record();
    bundle(planted(["response enum value added", "request enum value removed"]));
    expect(() => planRelease(paths)).toThrow(
      /^2 breaking changes since 1\.0\.0 are not acknowledged in .*acknowledged\.json; npm run diff lists them with their ids$/,
    );
  });

  it("releases a bundle that is the description released before the packages as their first release", () => {
    releaseBeforePackages();
    bundle(base);
    expect(planRelease(paths).pending).toMatchObject({ version: "1.0.0", bump: "first", comparedWith: "2026-06-20" });
  });

  it("names a bundle it cannot read as the bundle", () => {
    writeFileSync(join(dir, "openapi.json"), "{ not json");
    expect(() => planRelease(paths)).toThrow(/^bundle .*openapi\.json: not readable as JSON/);
  });

  it("reads and writes a project's files where the README says: the bundle, the records, the acknowledgements, the changelogs, the tarballs", () => {
    const root = join(dir, "project");
    expect(projectPaths(root)).toEqual({
      root,
      bundleDir: join(root, "generated"),
      releasesDir: join(root, "releases"),
      acknowledgementsFile: join(root, "changes", "acknowledged.json"),
      changelogPage: join(root, "docs", "changelog.md"),
      packageChangelogs: {
        [CLIENT_PACKAGE]: join(root, "packages", "client", "CHANGELOG.md"),
        [TOOLS_PACKAGE]: join(root, "packages", "tools", "CHANGELOG.md"),
        [MCP_PACKAGE]: join(root, "packages", "mcp", "CHANGELOG.md"),
      },
      tarballDir: join(root, "packages", "dist"),
    });
  });

  it("refuses acknowledgements for the first release, which breaks nothing", () => {
    bundle(base);
    writeFileSync(ackFile, JSON.stringify({ acknowledged: [{ id: "route-removed@GET /v1/x", reason: "r" }] }));
    expect(() => planRelease(paths)).toThrow(/the first release has no earlier one to break/);
  });

  it("reads the records strictly: each error names the file and the field", () => {
    bundle(base);
    record();
    const file = join(releases, "1.0.0", "release.json");
    const good = JSON.parse(readFileSync(file, "utf8"));
    const write = (value: unknown) => writeFileSync(file, JSON.stringify(value));
    write({ ...good, extra: 1 });
    expect(() => readRecords(releases)).toThrow('releases/1.0.0/release.json: unknown key "extra"');
    write({ ...good, version: "1.0.1" });
    expect(() => readRecords(releases)).toThrow(
      "releases/1.0.0/release.json: the folder must be named after the release's version 1.0.1",
    );
    write({ ...good, bump: "huge" });
    expect(() => readRecords(releases)).toThrow(
      "releases/1.0.0/release.json: bump must be one of first, major, minor, patch",
    );
    write({ ...good, comparedWith: "0.9.0" });
    expect(() => readRecords(releases)).toThrow(
      "releases/1.0.0/release.json: comparedWith must be null, the release before it",
    );
  });
});

describe("the repository's releases", () => {
  it("the docs page is a page of the docs site, and the committed changelogs are what the records produce", () => {
    expect(SITE_PAGES).toContainEqual(
      expect.objectContaining({ kind: "markdown", source: "docs/changelog.md", file: "changelog.html" }),
    );
    expect(
      staleChangelogs(
        projectPaths(),
        readRecords(projectPaths().releasesDir).map((release) => release.record),
      ),
      "run npm run release -- --page",
    ).toEqual([]);
  });
});

describe("npm run release, refusing", () => {
  const release = (...argv: string[]) => releaseIn(dir, argv);

  it("--help prints the usage and exits 0", async () => {
    const { code, stdout, stderr } = await release("--help");
    expect([code, stderr]).toEqual([0, ""]);
    expect(stdout).toMatch(/^usage: npm run release -- \[--dry-run\]/);
  });

  it("a bad flag, registry or root is one line naming it, and exit status 2", async () => {
    expect(await release("--registry", "ftp://example")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'release: --registry must be an http(s) URL, got "ftp://example"\n',
    });
    expect(await release("--registry", "ftp://releaser:s3cret@example/")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'release: --registry must be an http(s) URL, got "ftp://***@example/"\n',
    });
    expect(await release("--root", "nowhere")).toEqual({
      code: 2,
      stdout: "",
      stderr: "release: --root nowhere: no such folder\n",
    });
    expect(await release("--tag", "x")).toEqual({
      code: 2,
      stdout: "",
      stderr: "release: Unknown option '--tag' (--help shows the options)\n",
    });
    expect(await release("--root", ".")).toEqual({
      code: 2,
      stdout: "",
      stderr: "release: generated/openapi.json: no bundle; run npm run build first\n",
    });
  });

  const project = () => {
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "openapi.json"), `${JSON.stringify(base)}\n`);
  };

  it("--dry-run on a project says what it would release and writes nothing", async () => {
    project();
    const { code, stdout } = await release("--root", ".", "--dry-run");
    expect(code).toBe(0);
    expect(stdout).toContain(
      `release: ${CLIENT_PACKAGE} (none) → 1.0.0, ${TOOLS_PACKAGE} (none) → 1.0.0, ${MCP_PACKAGE} (none) → 1.0.0 (first: the first release of the packages), interface version 2026-06-20\n`,
    );
    expect(existsSync(join(dir, "releases"))).toBe(false);
  });
});

describe("npm's error when a registry refuses a publish", () => {
  it("npm's error lines are read past its notices: the first that says what happened", () => {
    const stderr = [
      "npm notice",
      "npm notice package: x@1.0.0",
      "npm notice Tarball Contents",
      "npm error code E403",
      "npm error 403 403 Forbidden - PUT http://user:pass@127.0.0.1:4873/x - no",
      "npm error A complete log of this run can be found in: /tmp/x.log",
    ].join("\n");
    expect(npmError({ stderr, message: "Command failed" })).toBe(
      "403 403 Forbidden - PUT http://***@127.0.0.1:4873/x - no",
    );
  });
});
