/**
 * The house's structure, read from the imports: no import circle among the project's own modules,
 * and nothing in runtime/ (the code every client bundle ships) importing anything outside it.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { DIAGRAM_END, DIAGRAM_START, drawFloors, floorViolations, type Floor } from "./floors.ts";
import { dynamicImportLines } from "./dynamic-imports.ts";
import { findCycles, importsLeaving, readImportGraph, type ImportGraph } from "./import-graph.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe("the cycle finder", () => {
  it("finds a circle of two and one of three, each once, as a path back to its start", () => {
    const graph = graphOf({ a: ["b"], b: ["a", "c"], c: ["d"], d: ["e"], e: ["c"], f: ["a"] });
    expect(findCycles(graph)).toEqual(
      expect.arrayContaining([
        ["a", "b", "a"],
        ["c", "d", "e", "c"],
      ]),
    );
    expect(findCycles(graph)).toHaveLength(2);
  });

  it("finds a module that imports itself, and nothing in a graph without circles", () => {
    expect(findCycles(graphOf({ a: ["a"] }))).toEqual([["a", "a"]]);
    expect(findCycles(graphOf({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("names the imports that leave a folder", () => {
    expect(
      importsLeaving(
        graphOf({ "runtime/x.ts": ["runtime/y.ts", "model/z.ts"], "model/z.ts": ["runtime/x.ts"] }),
        "runtime",
      ),
    ).toEqual(["runtime/x.ts -> model/z.ts"]);
  });
});

describe("the floor check", () => {
  const floors: Floor[] = [
    { name: "top", folders: ["a"], holds: "" },
    { name: "middle", folders: ["b", "c"], holds: "" },
    { name: "ground", folders: ["d"], holds: "" },
  ];

  it("lets imports run down and within a folder, and names one that runs up or across a floor", () => {
    const graph = graphOf({
      "a/x.ts": ["b/y.ts", "d/z.ts", "a/w.ts"],
      "a/w.ts": [],
      "b/y.ts": ["a/x.ts", "c/v.ts"],
      "c/v.ts": ["d/z.ts"],
      "d/z.ts": [],
    });
    expect(floorViolations(graph, floors)).toEqual([
      "b/y.ts -> a/x.ts runs up from b/ (floor 1) to a/ (floor 2)",
      "b/y.ts -> c/v.ts runs across from b/ (floor 1) to c/ (floor 1)",
    ]);
  });

  it("refuses a folder that stands on no floor, and lets tests import any floor", () => {
    const graph = graphOf({
      "e/new.ts": ["d/z.ts"],
      "tests/t.test.ts": ["a/x.ts"],
      "d/z.test.ts": ["a/x.ts"],
      "a/x.ts": [],
      "d/z.ts": [],
    });
    expect(floorViolations(graph, floors)).toEqual([
      expect.stringMatching(/^e\/new\.ts: its folder e\/ stands on no floor/),
    ]);
  });

  it("draws the floors top first, each with its number, folders and what it holds", () => {
    expect(
      drawFloors([
        { name: "top", folders: ["a", "bb"], holds: "entry points" },
        { name: "g", folders: ["c"], holds: "ground" },
      ]).split("\n"),
    ).toEqual(["```text", " 1  top  a/  bb/  entry points", " 0  g    c/       ground", "```"]);
  });
});

describe("the dynamic import finder", () => {
  it("finds each import() call by its line, and no static import, type import, template or comment", () => {
    const source = [
      'import { a } from "./a.ts";',
      'const b = await import("./b.ts");',
      "// await import('./c.ts')",
      'const text = `await import("./d.ts")`;',
      "type E = typeof import('./e.ts');",
      "export const load = (name: string) => import(name);",
    ].join("\n");
    expect(dynamicImportLines(source)).toEqual([2, 6]);
  });
});

describe("the project's imports", () => {
  const graph = readImportGraph(ROOT);

  it("reads every folder of shipped and build-time code, generated/ included", () => {
    for (const file of [
      "generated/client.ts",
      "runtime/client/media-client.ts",
      "model/service-model.ts",
      "tests/structure/imports.test.ts",
    ])
      expect(graph.has(file), file).toBe(true);
    expect(graph.get("generated/client.ts")).toContain("runtime/client/media-client.ts");
  });

  it("form no circle", () => {
    expect(findCycles(graph).map((cycle) => cycle.join(" -> "))).toEqual([]);
  });

  it("run down the floors only", () => {
    expect(floorViolations(graph)).toEqual([]);
  });

  it("are drawn in the README from the same floors", () => {
    const readme = readFileSync(`${ROOT}README.md`, "utf8");
    const block = readme
      .slice(readme.indexOf(DIAGRAM_START) + DIAGRAM_START.length, readme.indexOf(DIAGRAM_END))
      .trim();
    expect(block, "npx tsx tests/structure/draw-floors.ts redraws it").toBe(drawFloors());
  });

  it("leave runtime/ for nothing outside it", () => {
    expect(importsLeaving(graph, "runtime")).toEqual([]);
  });

  // Test files share their worker's modules: a module first loaded by an import() inside a test
  // would have what it runs as it loads credited by Stryker to that test alone (tests/README.md).
  it("are static in every folder Stryker mutates", async () => {
    const { default: config } = (await import(new URL("../../stryker.config.mjs", import.meta.url).href)) as {
      default: { mutate: string[] };
    };
    const folders = config.mutate.filter((glob) => !glob.startsWith("!")).map((glob) => glob.replace(/[*{].*/, ""));
    expect(folders).toEqual(
      expect.arrayContaining([
        "runtime/",
        "behaviour/",
        "sandbox/markers.ts",
        "generators/",
        "conformance/",
        "http-server/",
        "mock/",
        "model/",
        "contract/",
        "release/",
        "changes/",
        "lint/",
        "docs-src/",
      ]),
    );
    const found = [...graph.keys()]
      .filter((file) => folders.some((folder) => file.startsWith(folder)))
      .flatMap((file) => dynamicImportLines(readFileSync(`${ROOT}${file}`, "utf8")).map((line) => `${file}:${line}`));
    expect(found).toEqual([]);
  });
});
