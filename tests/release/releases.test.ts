/**
 * Releases and the docs changelog page: cutting a release (and what it refuses), a page built from
 * releases that lists the differences planted between them, as the docs site renders it; the
 * packages' next versions from the change report, the release plan and its records, and the
 * release command's refusals. Publishing to a registry is tests/packages/registry.release-test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_ACKNOWLEDGEMENTS } from "../../changes/acknowledgements.ts";
import { CHANGELOG_PAGE, changelogPage, changelogPageIsFresh } from "../../release/changelog-page.ts";
import { compareDescriptions } from "../../changes/compare.ts";
import { bumpOf, nextVersion as nextSemver } from "../../release/next-version.ts";
import { packageChangelog, packageChangelogIsFresh, releaseEntries } from "../../release/package-changelog.ts";
import { PACKAGE_RELEASES_FILE, readPackageReleases } from "../../release/package-releases.ts";
import { recordRelease, runRelease } from "../../release/command.ts";
import { planRelease, projectPaths } from "../../release/plan.ts";
import { cutRelease, listReleases, RELEASES_DIR } from "../../release/releases.ts";
import { CLIENT_PACKAGE, PACKAGE_NAMES, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { renderMarkdown as renderPage } from "../../docs-src/markdown-page.ts";
import { SITE_PAGES } from "../../docs-src/site-pages.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import { PLANTED } from "../changes/planted.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";

// Releases keep the placeholder slugs; the planted kinds name routes by them, and the bundles
// these tests release are placeholder ones, so no slug map applies here.
withoutSlugMap();
const built = loadBundle();
const base = { ...built, paths: placeholderPaths(built.paths) as typeof built.paths };
let dir: string;
let releases: string;
let ackFile: string;

/** Writes a description as the bundle a release is cut from. */
function bundle(doc: unknown): string {
  const file = join(dir, "openapi.json");
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

const cut = (doc: unknown): string | undefined => cutRelease({ bundle: bundle(doc), dir: releases, acknowledgementsFile: ackFile });

/** The next version, with the planted kinds of change. */
function nextVersion(kinds: string[]): any {
  const next = structuredClone(base) as any;
  for (const kind of kinds) PLANTED.find((candidate) => candidate.kind === kind)!.plant(next);
  next.info.version = "2026-07-01";
  return next;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "changes-releases-"));
  releases = join(dir, "releases");
  ackFile = join(dir, "acknowledged.json");
  writeFileSync(ackFile, EMPTY_ACKNOWLEDGEMENTS);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("cutting a release", () => {
  it("copies the bundle to releases/<info.version>/ and does nothing the second time", () => {
    expect(cut(base)).toBe(join(releases, "2026-06-20"));
    expect(readFileSync(join(releases, "2026-06-20", "openapi.json"), "utf8")).toBe(readFileSync(join(dir, "openapi.json"), "utf8"));
    expect(cut(base)).toBeUndefined();
    expect(listReleases(releases).map((release) => release.version)).toEqual(["2026-06-20"]);
  });

  it("refuses another description under a released version, and a version not newer than the latest", () => {
    cut(base);
    const changed = nextVersion(["response field added"]);
    changed.info.version = "2026-06-20";
    expect(() => cut(changed)).toThrow(/releases\/2026-06-20 already holds a different description; set a new info.version/);
    changed.info.version = "2026-01-01";
    expect(() => cut(changed)).toThrow(/info.version 2026-01-01 is not newer than the latest release 2026-06-20/);
  });

  it("refuses an unacknowledged breaking change, then moves the acknowledgements into the release", () => {
    cut(base);
    const next = nextVersion(["response enum value added"]);
    expect(() => cut(next)).toThrow(/1 breaking change\(s\) since 2026-06-20 are not acknowledged/);
    const acknowledged = `${JSON.stringify({ acknowledged: [{ id: 'response-enum-value-added@schema JobStatus="queued"', reason: "Queued jobs." }] })}\n`;
    writeFileSync(ackFile, acknowledged);
    expect(cut(next)).toBe(join(releases, "2026-07-01"));
    expect(readFileSync(join(releases, "2026-07-01", "acknowledged.json"), "utf8")).toBe(acknowledged);
    expect(readFileSync(ackFile, "utf8")).toBe(EMPTY_ACKNOWLEDGEMENTS);
  });

  it("refuses acknowledgements for the first release, which breaks nothing", () => {
    writeFileSync(ackFile, JSON.stringify({ acknowledged: [{ id: "route-removed@GET /v1/x", reason: "r" }] }));
    expect(() => cut(base)).toThrow(/the first release has no earlier one to break/);
    expect(existsSync(releases)).toBe(false);
  });

  it("refuses a release folder whose description has another version", () => {
    mkdirSync(join(releases, "2026-05-01"), { recursive: true });
    writeFileSync(join(releases, "2026-05-01", "openapi.json"), JSON.stringify(base));
    expect(() => changelogPage(releases)).toThrow(/releases\/2026-05-01\/openapi.json: info.version is "2026-06-20", but the release folder is 2026-05-01/);
  });
});

describe("the changelog page", () => {
  const kinds = ["response enum value added", "request enum value removed", "new model", "route removed (model retired)", "price changed", "limit changed", "not shown now stated"];

  it("lists every difference planted between two releases, newest release first, with the acknowledged reasons", () => {
    cut(base);
    writeFileSync(
      ackFile,
      JSON.stringify({
        acknowledged: PLANTED.filter((kind) => kinds.includes(kind.kind))
          .flatMap((kind) => kind.changes)
          .filter(([, severity]) => severity === "breaking")
          .map(([id]) => ({ id, reason: `accepted: ${id}` })),
      }),
    );
    cut(nextVersion(kinds));
    const page = changelogPage(releases);
    expect(page).toContain("\n## Changes from 2026-06-20 to 2026-07-01\n");
    expect(page.indexOf("2026-07-01")).toBeLessThan(page.indexOf("## 2026-06-20"));
    for (const kind of PLANTED.filter((candidate) => kinds.includes(candidate.kind))) {
      // Release notes group changes under their route, so a line shows what changed, not the location's route again.
      // A new model is told once, by its changelog line (route and price).
      for (const [id, severity, message] of kind.changes.filter(([id]) => !/^route-added@.*=/.test(id))) {
        expect(page, kind.kind).toContain(message.slice(message.indexOf(": ") + 2));
        if (severity === "breaking") expect(page, kind.kind).toContain(`*Accepted:* accepted: ${id}`);
      }
      // A retired model is told once, by its breaking change.
      for (const line of kind.changelog.filter((entry) => !entry.includes(" retired: "))) expect(page, kind.kind).toContain(`- ${line}`);
    }
    const { title, html } = renderPage(page, "docs/changelog.md");
    expect(title).toBe("Changelog");
    expect(html).toContain("<code>POST /v1/images/i-d</code> — Create an image with I-D");
    expect(html).toContain("requests.perKey: 600 → 300 requests per API key per 60 seconds");
  });

  it("is a page of the docs site, and the committed one is what releases/ produce", () => {
    expect(SITE_PAGES).toContainEqual(expect.objectContaining({ kind: "markdown", source: "docs/changelog.md", file: "changelog.html" }));
    expect(existsSync(CHANGELOG_PAGE)).toBe(true);
    expect(changelogPageIsFresh(), "docs/changelog.md is stale: run npm run release -- --page").toBe(true);
  });
});

describe("the packages' next versions", () => {
  const side = (doc: unknown, source: string) => ({ source, doc: doc as typeof base });
  const bump = (kinds: string[], change?: (doc: any) => void) => {
    const next = structuredClone(base) as any;
    for (const kind of kinds) PLANTED.find((candidate) => candidate.kind === kind)!.plant(next);
    change?.(next);
    return bumpOf(compareDescriptions(side(base, "before"), side(next, "after")), JSON.stringify(next) === JSON.stringify(base));
  };

  it("is major for a breaking change, minor for a compatible one, patch for descriptions or examples only, and nothing for the same description", () => {
    expect(bump(["response enum value added", "response field added"])).toBe("major");
    expect(bump(["response field added"])).toBe("minor");
    expect(bump(["price changed"])).toBe("minor");
    expect(bump([], (doc) => (doc.info.description += " Clarified."))).toBe("patch");
    expect(bump([], (doc) => (Object.values(doc.components.examples as Record<string, { summary?: string }>)[0]!.summary = "Reworded."))).toBe("patch");
    expect(bump([])).toBeUndefined();
  });

  it("counts semver up from the last version", () => {
    expect(nextSemver("1.4.2", "major")).toBe("2.0.0");
    expect(nextSemver("1.4.2", "minor")).toBe("1.5.0");
    expect(nextSemver("1.4.2", "patch")).toBe("1.4.3");
    expect(() => nextSemver("2026.6.20-beta", "patch")).toThrow(/"2026.6.20-beta" is not a release version/);
  });
});

describe("the release plan", () => {
  let paths: ReturnType<typeof projectPaths>;
  beforeEach(() => {
    paths = { ...projectPaths(dir), bundleDir: dir, releasesDir: releases, acknowledgementsFile: ackFile };
  });
  /** Records the plan's pending release as the release command does, without building or publishing. */
  const record = () => {
    const plan = planRelease(paths);
    recordRelease(paths, { ...plan, pending: plan.pending! });
    return plan.pending!.record;
  };

  it("starts at 1.0.0, releases nothing for the same bundle, then bumps each package from its recorded version", () => {
    bundle(base);
    expect(record()).toEqual({ versions: { [CLIENT_PACKAGE]: "1.0.0", [TOOLS_PACKAGE]: "1.0.0" }, interfaceVersion: "2026-06-20", bump: "first", description: "2026-06-20/openapi.json" });
    expect(planRelease(paths).pending).toBeUndefined();
    const described = structuredClone(base) as any;
    described.info.description += " Clarified.";
    bundle(described);
    expect(record()).toMatchObject({ versions: { [CLIENT_PACKAGE]: "1.0.1", [TOOLS_PACKAGE]: "1.0.1" }, bump: "patch", description: "2026-06-20/packages-2/openapi.json" });
    const compatible = structuredClone(described);
    PLANTED.find((kind) => kind.kind === "response field added")!.plant(compatible);
    bundle(compatible);
    expect(record()).toMatchObject({ versions: { [CLIENT_PACKAGE]: "1.1.0" }, bump: "minor", description: "2026-06-20/packages-3/openapi.json" });
    const entries = releaseEntries(releases);
    expect(entries.map((entry) => entry.record.bump)).toEqual(["minor", "patch", "first"]);
    const changelog = packageChangelog(TOOLS_PACKAGE, entries);
    expect(changelog).toMatch(/## 1\.1\.0\n\nInterface version `2026-06-20` · \*\*minor\*\*: 1 compatible change\(s\), 0 changelog entries, nothing breaking\.\n/);
    expect(changelog).toContain("- `schema AccountCredits.bonus_credits`: new optional field");
    expect(readFileSync(join(dir, "packages/tools/CHANGELOG.md"), "utf8")).toBe(changelog);
    expect(readFileSync(join(dir, "docs/changelog.md"), "utf8")).toContain("| 1.1.0 | 1.1.0 | 2026-06-20 | minor |");
  });

  it("refuses an unacknowledged breaking change since the latest release, naming the acknowledgements file", () => {
    bundle(base);
    record();
    bundle(nextVersion(["response enum value added"]));
    expect(() => planRelease(paths)).toThrow(/^1 breaking change\(s\) since 2026-06-20 are not acknowledged in .*acknowledged\.json; npm run diff lists them with their ids$/);
  });

  it("reads releases/packages.json strictly: each error names the file and the entry", () => {
    mkdirSync(releases, { recursive: true });
    const write = (value: unknown) => writeFileSync(join(releases, PACKAGE_RELEASES_FILE), JSON.stringify(value));
    write({ releases: [{ versions: { [CLIENT_PACKAGE]: "1.0.0" }, interfaceVersion: "2026-06-20", bump: "first", description: "x" }] });
    expect(() => readPackageReleases(releases)).toThrow(`releases/packages.json: releases[0].versions must give every package (${PACKAGE_NAMES.join(", ")}) a version MAJOR.MINOR.PATCH`);
    write({ releases: [{ versions: {}, extra: 1 }] });
    expect(() => readPackageReleases(releases)).toThrow('releases/packages.json: releases[0] has unknown key "extra"');
    write({ releases: [] , more: true });
    expect(() => readPackageReleases(releases)).toThrow('releases/packages.json: must be an object with only a "releases" array');
  });

  it("the committed changelogs are what the recorded releases produce", () => {
    const committed = projectPaths();
    const entries = releaseEntries(RELEASES_DIR);
    for (const name of PACKAGE_NAMES) {
      expect(packageChangelogIsFresh(committed.packageChangelogs[name]!, name, entries), `${name}'s CHANGELOG.md is stale: run npm run release -- --page`).toBe(true);
    }
  });
});

describe("npm run release, refusing", () => {
  const release = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runRelease(argv, { cwd: dir, stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
    return { code, stdout: out.join(""), stderr: err.join("") };
  };

  it("a bad flag, registry or root is one line naming it, and exit status 2", async () => {
    expect(await release("--registry", "ftp://example")).toEqual({ code: 2, stdout: "", stderr: 'release: --registry must be an http(s) URL, got "ftp://example"\n' });
    expect(await release("--root", "nowhere")).toEqual({ code: 2, stdout: "", stderr: "release: --root nowhere: no such folder\n" });
    expect(await release("--tag", "x")).toEqual({ code: 2, stdout: "", stderr: "release: Unknown option '--tag'; npm run release -- --help lists the options\n" });
    expect(await release("--root", ".")).toEqual({ code: 2, stdout: "", stderr: "release: generated/openapi.json: no bundle; run npm run build first\n" });
  });

  const project = () => {
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "openapi.json"), `${JSON.stringify(base)}\n`);
  };

  it("--dry-run on a project says what it would release and writes nothing", async () => {
    project();
    const { code, stdout } = await release("--root", ".", "--dry-run");
    expect(code).toBe(0);
    expect(stdout).toContain(`release: ${CLIENT_PACKAGE} (none) → 1.0.0, ${TOOLS_PACKAGE} (none) → 1.0.0 (first: the first release of the packages), interface version 2026-06-20\n`);
    expect(existsSync(join(dir, "releases"))).toBe(false);
  });

  it("a registry it cannot ask is one line naming it and npm's reason, before anything is built or written", async () => {
    project();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const retries = process.env.npm_config_fetch_retries;
    process.env.npm_config_fetch_retries = "0"; // npm would retry a refused connection for a minute
    try {
      const { code, stderr } = await release("--root", ".", "--registry", url);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^release: cannot ask ${url} for ${CLIENT_PACKAGE}@1\\.0\\.0: .*ECONNREFUSED.*\\n$`));
    } finally {
      if (retries === undefined) delete process.env.npm_config_fetch_retries;
      else process.env.npm_config_fetch_retries = retries;
    }
    expect(existsSync(join(dir, "releases"))).toBe(false);
    expect(existsSync(join(dir, "packages"))).toBe(false);
  });
});
