/**
 * The house's floors as data: each top-level folder on one floor, and an import between two
 * folders runs down only, to a lower floor. The imports test holds the code to it and the README's
 * diagram is drawn from it (`npx tsx tests/structure/draw-floors.ts` redraws it).
 */
import type { ImportGraph } from "./import-graph.ts";

export interface Floor {
  readonly name: string;
  readonly folders: readonly string[];
  readonly holds: string;
}

/** Top floor first. A folder not listed here is refused by the test, so a new folder gets a floor. */
export const FLOORS: readonly Floor[] = [
  { name: "measures", folders: ["bench"], holds: "the figures we promise, measured on whole commands" },
  { name: "commands", folders: ["scripts", "fuzz"], holds: "npm scripts' entry points, the working loop, the fuzzer" },
  { name: "release", folders: ["release"], holds: "versions, release records, changelogs, publishing" },
  { name: "docs", folders: ["docs-src"], holds: "the docs site: reference, guides, console, search" },
  { name: "packages", folders: ["packages"], holds: "the npm packages' builds; the MCP server" },
  {
    name: "generators",
    folders: ["generators"],
    holds: "everything derived: types, client, price tables, the rules page",
  },
  {
    name: "checking",
    folders: ["conformance", "changes"],
    holds: "the conformance suite, the comparison of two descriptions",
  },
  {
    name: "servers",
    folders: ["sandbox", "mock"],
    holds: "the stateful sandbox, the contract mock (Prism behind a front)",
  },
  {
    name: "behaviour",
    folders: ["behaviour"],
    holds: "the service's behaviour as a model: accounts, ledger, jobs, windows, rules; no HTTP",
  },
  {
    name: "contract",
    folders: ["contract"],
    holds: "the description as a contract: operations, examples, request bodies",
  },
  { name: "serving", folders: ["http-server"], holds: "answering HTTP on 127.0.0.1: limits, bodies, Host and Origin" },
  {
    name: "machinery",
    folders: ["tools"],
    holds: "the build in memory, overlays, JSON input files, how commands start and stop",
  },
  { name: "build", folders: ["lint", "generated"], holds: "house rules; the generators' committed output" },
  { name: "specification", folders: ["spec"], holds: "the rule catalogue, read against the specification" },
  { name: "model", folders: ["model"], holds: "the service model, read from openapi/" },
  { name: "ground", folders: ["runtime"], holds: "ships in the client; imports nothing outside it" },
];

/** Files that are tests or test set-up: they stand above every floor and may import any of them. */
export function isTestFile(file: string): boolean {
  return (
    file.startsWith("tests/") ||
    /\.(test|e2e|browser|conformance-test|release-test)\.ts$/.test(file) ||
    /^vitest\.[\w.]*config\.ts$/.test(file)
  );
}

const topFolder = (file: string): string => (file.includes("/") ? file.slice(0, file.indexOf("/")) : file);

/** The floor number of each folder, the ground being 0. */
export function floorOf(floors: readonly Floor[] = FLOORS): ReadonlyMap<string, number> {
  return new Map(
    floors.flatMap((floor, index) => floor.folders.map((folder) => [folder, floors.length - 1 - index] as const)),
  );
}

/** Imports that do not run down a floor, as "from -> to (floor a to floor b)", and files in folders with no floor. */
export function floorViolations(graph: ImportGraph, floors: readonly Floor[] = FLOORS): string[] {
  const level = floorOf(floors);
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (isTestFile(file)) continue;
    const from = topFolder(file);
    const fromFloor = level.get(from);
    if (fromFloor === undefined) {
      found.push(`${file}: its folder ${from}/ stands on no floor (add it to FLOORS in tests/structure/floors.ts)`);
      continue;
    }
    for (const target of targets) {
      const to = topFolder(target);
      const toFloor = level.get(to);
      if (to === from || toFloor === undefined || toFloor < fromFloor) continue;
      found.push(
        `${file} -> ${target} runs ${toFloor === fromFloor ? "across" : "up"} from ${from}/ (floor ${fromFloor}) to ${to}/ (floor ${toFloor})`,
      );
    }
  }
  return found;
}

/** The README's diagram of the floors, top floor first. */
export function drawFloors(floors: readonly Floor[] = FLOORS): string {
  const folders = floors.map((floor) => floor.folders.map((folder) => `${folder}/`).join("  "));
  const nameWidth = Math.max(...floors.map((floor) => floor.name.length));
  const folderWidth = Math.max(...folders.map((text) => text.length));
  const lines = floors.map(
    (floor, index) =>
      `${String(floors.length - 1 - index).padStart(2)}  ${floor.name.padEnd(nameWidth)}  ${folders[index]!.padEnd(folderWidth)}  ${floor.holds}`,
  );
  return ["```text", ...lines, "```"].join("\n");
}

export const DIAGRAM_START = "<!-- floors: drawn from tests/structure/floors.ts -->";
export const DIAGRAM_END = "<!-- floors end -->";

/** The README with its diagram block replaced by `drawFloors()`. */
export function withDiagram(readme: string, floors: readonly Floor[] = FLOORS): string {
  const start = readme.indexOf(DIAGRAM_START);
  const end = readme.indexOf(DIAGRAM_END);
  if (start < 0 || end < start)
    throw new Error(`README.md has no diagram block between "${DIAGRAM_START}" and "${DIAGRAM_END}"`);
  return `${readme.slice(0, start + DIAGRAM_START.length)}\n${drawFloors(floors)}\n${readme.slice(end)}`;
}
