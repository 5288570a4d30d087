/**
 * The next version of a package, from what changed since its last release: semver, whose major
 * number tells client code whether it can upgrade without change. Any breaking change is a major
 * release; any compatible change (a route, field or value added, a price, limit or model changed:
 * what the client's types and tables hold) a minor one; a description that differs in nothing the
 * change report sees (descriptions, examples, documentation) a patch; an identical one nothing.
 */
import type { Comparison } from "../changes/compare.ts";

export type Bump = "major" | "minor" | "patch";

/** The version of a package's first release. */
export const FIRST_VERSION = "1.0.0";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** The bump a comparison calls for; `identical` says whether both descriptions are the same text. */
export function bumpOf(comparison: Comparison, identical: boolean): Bump | undefined {
  if (comparison.changes.some((change) => change.severity === "breaking")) return "major";
  if (comparison.changes.length > 0 || comparison.changelog.length > 0) return "minor";
  return identical ? undefined : "patch";
}

/** Whether `version` is a release version this project gives (`1.2.3`, no pre-release). */
export const isReleaseVersion = (version: string): boolean => SEMVER.test(version);

export function nextVersion(version: string, bump: Bump): string {
  const parts = SEMVER.exec(version);
  if (!parts) throw new Error(`${JSON.stringify(version)} is not a release version (MAJOR.MINOR.PATCH)`);
  const [major, minor, patch] = parts.slice(1).map(Number) as [number, number, number];
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}
