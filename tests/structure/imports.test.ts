/**
 * The house's structure, read from the imports: no import circle among the project's own modules,
 * and nothing in runtime/ (the code every client bundle ships) importing anything outside it.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycles, importsLeaving, readImportGraph, type ImportGraph } from "./import-graph.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe("the cycle finder", () => {
  it("finds a circle of two and one of three, each once, as a path back to its start", () => {
    const graph = graphOf({ a: ["b"], b: ["a", "c"], c: ["d"], d: ["e"], e: ["c"], f: ["a"] });
    expect(findCycles(graph)).toEqual(expect.arrayContaining([["a", "b", "a"], ["c", "d", "e", "c"]]));
    expect(findCycles(graph)).toHaveLength(2);
  });

  it("finds a module that imports itself, and nothing in a graph without circles", () => {
    expect(findCycles(graphOf({ a: ["a"] }))).toEqual([["a", "a"]]);
    expect(findCycles(graphOf({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("names the imports that leave a folder", () => {
    expect(importsLeaving(graphOf({ "runtime/x.ts": ["runtime/y.ts", "model/z.ts"], "model/z.ts": ["runtime/x.ts"] }), "runtime")).toEqual(["runtime/x.ts -> model/z.ts"]);
  });
});

describe("the project's imports", () => {
  const graph = readImportGraph(ROOT);

  it("reads every folder of shipped and build-time code, generated/ included", () => {
    for (const file of ["generated/client.ts", "runtime/client/media-client.ts", "model/service-model.ts", "tests/structure/imports.test.ts"]) expect(graph.has(file), file).toBe(true);
    expect(graph.get("generated/client.ts")).toContain("runtime/client/media-client.ts");
  });

  it("form no circle", () => {
    expect(findCycles(graph).map((cycle) => cycle.join(" -> "))).toEqual([]);
  });

  it("leave runtime/ for nothing outside it", () => {
    expect(importsLeaving(graph, "runtime")).toEqual([]);
  });
});
