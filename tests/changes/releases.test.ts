/**
 * Releases and the docs changelog page: cutting a release (and what it refuses), and a page built
 * from releases that lists the differences planted between them, as the docs site renders it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_ACKNOWLEDGEMENTS } from "../../changes/acknowledgements.ts";
import { CHANGELOG_PAGE, changelogPage, changelogPageIsFresh } from "../../changes/changelog-page.ts";
import { cutRelease, listReleases } from "../../changes/releases.ts";
import { renderMarkdown as renderPage } from "../../docs-src/markdown-page.ts";
import { SITE_PAGES } from "../../docs-src/site-pages.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import { PLANTED } from "./planted.ts";
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
