/**
 * What `npm ci` installs and runs: no install script runs (the project's .npmrc sets ignore-scripts,
 * so @scarf/scarf's install analytics and the other scripts the lock names never run, and nothing
 * leaves the machine), Scarf's analytics stay off besides, and the dev dependencies with published
 * advisories stay on their patched versions everywhere in the lock. The first fixed versions below
 * are the advisories' own, written out by hand.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT } from "../support/packages.ts";

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
}
const lock = JSON.parse(readFileSync(join(PROJECT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(join(PROJECT, "package.json"), "utf8")) as {
  scarfSettings?: { enabled?: unknown };
};

/** The package name of a lock entry: the part after its last node_modules/. */
const nameOf = (path: string): string => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

/** Every version of `name` the lock installs, wherever it sits. */
const versionsOf = (name: string): string[] =>
  Object.entries(lock.packages).flatMap(([path, entry]) =>
    path.includes("node_modules/") && nameOf(path) === name && entry.version ? [entry.version] : [],
  );

const numbers = (version: string): number[] => version.split("-")[0]!.split(".").map(Number);
/** Whether `version` is at least `floor` (MAJOR.MINOR.PATCH). */
const atLeast = (version: string, floor: string): boolean => {
  const [a, b] = [numbers(version), numbers(floor)];
  for (let index = 0; index < 3; index++) if (a[index] !== b[index]) return a[index]! > b[index]!;
  return true;
};

/** Per package, per major line in the lock, the first version with the advisory fixed. */
const PATCHED: Record<string, Record<number, string>> = {
  cookie: { 0: "0.7.0" }, // GHSA-pxg6-pf52-xh8x: names, paths and domains out of bounds
  "on-headers": { 1: "1.1.0" }, // GHSA-76c9-3jph-rj3q: header manipulation
  "js-yaml": { 3: "3.14.2", 4: "4.1.1" }, // GHSA-mh29-5h37-fv8m: prototype pollution in merge (<<)
  validator: { 13: "13.15.20" }, // GHSA-9965-vmph-33xx: isURL filtering bypass
};

/** The packages whose install scripts the lock names, reviewed: none of them runs (ignore-scripts). */
const KNOWN_INSTALL_SCRIPTS = ["@scarf/scarf", "core-js", "esbuild"];

describe("npm ci runs no install script", () => {
  it("the project's .npmrc sets ignore-scripts=true, and no later line undoes it", () => {
    const settings = readFileSync(join(PROJECT, ".npmrc"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !/^[#;]/.test(line))
      .map((line) => line.split("=").map((part) => part.trim()));
    expect(settings.filter(([key]) => key === "ignore-scripts")).toEqual([["ignore-scripts", "true"]]);
  });

  it("Scarf's install analytics are off in package.json too", () => {
    expect(manifest.scarfSettings).toEqual({ enabled: false });
  });

  it("the install scripts in the lock are the reviewed ones; a new one must be reviewed here", () => {
    const scripted = new Set(
      Object.entries(lock.packages).flatMap(([path, entry]) => (entry.hasInstallScript ? [nameOf(path)] : [])),
    );
    expect([...scripted].sort()).toEqual(KNOWN_INSTALL_SCRIPTS);
  });
});

describe("dev dependencies with published advisories stay patched", () => {
  it.each(Object.entries(PATCHED))("%s: every copy in the lock is a fixed version", (name, floors) => {
    const versions = versionsOf(name);
    expect(versions.length, `${name} is in the lock`).toBeGreaterThan(0);
    for (const version of versions) {
      const floor = floors[numbers(version)[0]!];
      expect(floor, `${name}@${version}: a major line with no known fixed version`).toBeDefined();
      expect(atLeast(version, floor!), `${name}@${version} is below the fixed ${floor}`).toBe(true);
    }
  });

  it("the comparison of versions is the one meant", () => {
    expect([
      atLeast("4.1.1", "4.1.1"),
      atLeast("4.1.0", "4.1.1"),
      atLeast("0.6.0", "0.7.0"),
      atLeast("13.15.35", "13.15.20"),
      atLeast("3.15.2", "3.14.2"),
    ]).toEqual([true, false, false, true, true]);
  });
});
