/**
 * What CI's mutation result was made from: a digest of every file Stryker compares (the files it
 * mutates, the test files) and of the configs that decide which those are, written beside the
 * committed incremental result by each run that writes it. When nothing of it changed, a new run
 * would reuse every mutant's result and change nothing, so CI's run stands on the committed result
 * instead of starting Stryker (its unmutated test run alone takes about a minute and a half).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { minimatch } from "minimatch";

/** Folders no mutated or test file is in. */
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".stryker-tmp", "reports", "generated", "releases"]);

/** The configs that choose the files and the tests; a change to one calls for a run. */
export const MUTATION_CONFIGS = [
  "stryker.config.mjs",
  "tests/mutation/stryker-ci.config.mjs",
  "tests/mutation/vitest.config.ts",
  "tests/mutation/hook-coverage.ts",
  "vitest.config.ts",
  "package-lock.json",
];

/** The files under `root` matching one of `globs` and none of its `!` negations, relative, sorted. */
export function filesMatching(root: string, globs: readonly string[]): string[] {
  const included = globs.filter((glob) => !glob.startsWith("!"));
  const excluded = globs.filter((glob) => glob.startsWith("!")).map((glob) => glob.slice(1));
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
        continue;
      }
      const name = relative(root, path);
      if (included.some((glob) => minimatch(name, glob)) && !excluded.some((glob) => minimatch(name, glob)))
        found.push(name);
    }
  };
  walk(root);
  return found.sort();
}

/** Each file's SHA-256, by its path relative to `root`. */
export function digests(root: string, files: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    files.map((file) => [
      file,
      createHash("sha256")
        .update(readFileSync(join(root, file)))
        .digest("hex"),
    ]),
  );
}

/** The inputs of a mutation run: the mutated files, the test files and the configs, each with its digest. */
export function mutationInputs(
  root: string,
  mutate: readonly string[],
  tests: readonly string[],
): Record<string, string> {
  const files = [...new Set([...filesMatching(root, mutate), ...filesMatching(root, tests), ...MUTATION_CONFIGS])];
  return digests(root, files.sort());
}

/** The files added, removed or changed between two records of inputs, each with what happened to it. */
export function changedInputs(recorded: Record<string, string>, now: Record<string, string>): string[] {
  const names = [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort();
  return names.flatMap((name) =>
    recorded[name] === now[name]
      ? []
      : [`${name} ${recorded[name] === undefined ? "added" : now[name] === undefined ? "removed" : "changed"}`],
  );
}

/** A mutant as the incremental result keeps it. */
interface RecordedMutant {
  readonly status: string;
}

/** The part of Stryker's incremental result these functions read: each mutated file's source and mutants. */
export interface RecordedResult {
  readonly files: Record<string, { readonly source?: string; readonly mutants: readonly RecordedMutant[] }>;
}

/**
 * The mutated files whose source in the recorded result is not the file the checkout has (or has
 * no more): a result written after its files changed would otherwise pass as current.
 */
export function staleSources(report: RecordedResult, root: string): string[] {
  return Object.entries(report.files).flatMap(([file, { source }]) => {
    const path = join(root, file);
    const now = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    return now === source
      ? []
      : [`${file} ${now === undefined ? "removed" : "not the source its result was made from"}`];
  });
}

/**
 * Killed / total per folder of a recorded result, as the folder-summary reporter counts them
 * (timeouts are killed; mutants the type check refused or a comment disabled are not counted).
 */
export function folderScores(report: RecordedResult): string[] {
  const folders = new Map<string, { killed: number; total: number }>();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const folder = file.slice(0, file.lastIndexOf("/"));
    const entry = folders.get(folder) ?? { killed: 0, total: 0 };
    folders.set(folder, entry);
    for (const { status } of mutants) {
      if (status === "Killed" || status === "Timeout") entry.killed += 1;
      else if (status !== "Survived" && status !== "NoCoverage") continue;
      entry.total += 1;
    }
  }
  return [...folders]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, { killed, total }]) => `${folder}: ${killed} / ${total}`);
}
