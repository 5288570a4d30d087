/**
 * What the MCP package ships: its server code reaches only the client's runtime, the generated
 * modules, the servers' HTTP layer and the commands' machinery, never build-time code (the model,
 * the generators) or the sandbox, so that its bundle carries none of them.
 */
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { readImportGraph } from "../structure/import-graph.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHIPPED_FROM = ["runtime/", "generated/", "http-server/", "tools/", "packages/mcp/"];
const BUILD_ONLY = new Set(["packages/mcp/build.ts", "packages/mcp/readme.ts"]);

it("the MCP server's code reaches only runtime/, generated/, http-server/ and tools/", () => {
  const graph = readImportGraph(ROOT);
  const start = [...graph.keys()].filter((file) => file.startsWith("packages/mcp/") && !BUILD_ONLY.has(file));
  expect(start).toContain("packages/mcp/cli.ts");
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const target of graph.get(file) ?? []) visit(target);
  };
  for (const file of start) visit(file);
  expect(
    [...reached].filter((file) => !SHIPPED_FROM.some((folder) => file.startsWith(folder)) || BUILD_ONLY.has(file)),
  ).toEqual([]);
});
