/**
 * The project's own import graph, read with TypeScript's pre-processor (which skips comments and
 * strings, so generator templates that spell imports do not count), and the circles in it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Module (a path relative to the root) to the project modules it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Folders that hold no project source: dependencies, build output of the packages and the docs site. */
const SKIPPED = new Set(["node_modules", "package", "site"]);

function sourceFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [relative(root, path)] : [];
  });
}

/** Every relative import and re-export of every .ts file under `root`, resolved to project modules. */
export function readImportGraph(root: string): ImportGraph {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => relative(root, resolve(root, dirname(file), name)))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The circles of the graph, one per strongly connected component of more than one module (or a
 * module importing itself), each as a path that returns to its start: [a, b, a].
 */
export function findCycles(graph: ImportGraph): string[][] {
  // Tarjan's strongly connected components, iteratively deep enough for any project.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** One circle through the smallest-named module of a strongly connected component, found breadth-first. */
function cycleThrough(graph: ImportGraph, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Imports from inside `folder` to modules outside it, as "from -> to". */
export function importsLeaving(graph: ImportGraph, folder: string): string[] {
  const inside = (file: string) => file.startsWith(`${folder}/`);
  return [...graph].flatMap(([file, targets]) =>
    inside(file) ? targets.filter((target) => !inside(target)).map((target) => `${file} -> ${target}`) : [],
  );
}
