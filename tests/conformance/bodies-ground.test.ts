/**
 * The request-body library (contract/bodies/) stands at the suite's ground: it imports the
 * service model and the runtime's types, never the suite that uses it.
 */
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { importsLeaving, readImportGraph } from "../structure/import-graph.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

it("contract/bodies/ imports nothing of the suite, only model/ and runtime/", () => {
  const graph = readImportGraph(ROOT);
  expect(graph.has("contract/bodies/near-misses.ts")).toBe(true);
  const leaving = importsLeaving(graph, "contract/bodies").filter((edge) => !/ -> (model|runtime)\//.test(edge));
  expect(leaving).toEqual([]);
});
