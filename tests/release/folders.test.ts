/**
 * The release stands on the comparison and the package builds, never the other way: release/
 * imports changes/ and packages/, while nothing in changes/ or packages/ imports release/, and
 * packages/ does not import changes/ (a build is given its version and changelog).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readImportGraph } from "../structure/import-graph.ts";

const graph = readImportGraph(fileURLToPath(new URL("../../", import.meta.url)));

/** The imports from modules under `from` into modules under `into`, as `a -> b`. */
const importsInto = (from: string, into: string): string[] =>
  [...graph].flatMap(([file, imports]) =>
    file.startsWith(`${from}/`)
      ? imports.filter((target) => target.startsWith(`${into}/`)).map((target) => `${file} -> ${target}`)
      : [],
  );

describe("release/ above changes/ and packages/", () => {
  it("release/ imports both", () => {
    expect(importsInto("release", "changes").length).toBeGreaterThan(0);
    expect(importsInto("release", "packages").length).toBeGreaterThan(0);
  });

  it("nothing in changes/ or packages/ imports release/, and packages/ does not import changes/", () => {
    expect([
      ...importsInto("changes", "release"),
      ...importsInto("packages", "release"),
      ...importsInto("packages", "changes"),
    ]).toEqual([]);
  });
});
