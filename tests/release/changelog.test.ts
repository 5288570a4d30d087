/**
 * The changelog (release/changelog.ts): one text rendered from the records, newest first, naming
 * the packages that share each version, written to the docs page and every package's
 * CHANGELOG.md; a committed one is stale when it is missing or differs from that text.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLIENT_PACKAGE, MCP_PACKAGE, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { changelogFiles, changelogText, staleChangelogs, writeChangelogs } from "../../release/changelog.ts";
import { projectPaths } from "../../release/plan.ts";
import type { ReleaseRecord } from "../../release/records.ts";

const release = (version: string, comparedWith: string | null): ReleaseRecord => ({
  version,
  interfaceVersion: "2026-06-20",
  bump: comparedWith === null ? "first" : "patch",
  comparedWith,
  changes: [],
  changelog: [],
  routeTitles: {},
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "release-changelog-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the changelog", () => {
  it("names the packages that share each version, and says when there is no release yet", () => {
    const text = changelogText([]);
    expect(text.startsWith("# Changelog\n")).toBe(true);
    expect(text).toContain(
      `The releases of \`${CLIENT_PACKAGE}\`, \`${TOOLS_PACKAGE}\` and \`${MCP_PACKAGE}\`, newest first`,
    );
    expect(text.endsWith("\n\nNo release yet.\n")).toBe(true);
  });

  it("lists the releases newest first", () => {
    const text = changelogText([release("1.0.0", null), release("1.0.1", "1.0.0"), release("1.0.2", "1.0.1")]);
    const at = (version: string) => text.indexOf(`\n## ${version}\n`);
    expect(at("1.0.2")).toBeGreaterThan(0);
    expect(at("1.0.2")).toBeLessThan(at("1.0.1"));
    expect(at("1.0.1")).toBeLessThan(at("1.0.0"));
    expect(text).not.toContain("No release yet.");
  });

  it("is stale where a file is missing or differs from the records' text, fresh once written", () => {
    const paths = projectPaths(root);
    const records = [release("1.0.0", null)];
    expect(staleChangelogs(paths, records)).toEqual(changelogFiles(paths));
    expect(writeChangelogs(paths, records)).toEqual(changelogFiles(paths));
    expect(staleChangelogs(paths, records)).toEqual([]);
    writeFileSync(paths.changelogPage, `${changelogText(records)}edited\n`);
    expect(staleChangelogs(paths, records)).toEqual([paths.changelogPage]);
    expect(staleChangelogs(paths, [...records, release("1.0.1", "1.0.0")])).toEqual(changelogFiles(paths));
  });
});
