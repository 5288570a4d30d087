/**
 * A package of packages/ as another repository gets it: built from a bundle made with a slug map (so
 * that real slugs flow through), packed by npm, and installed offline from its tarball into a fresh
 * project in a temporary folder; and what the package tests share: the slug map, the release a test
 * build is given, and the import specifiers of a module.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse as parseYaml } from "yaml";
import type { PackageRelease } from "../../packages/shared/package-build.ts";
import { bundleDescription } from "../../tools/bundle-description.ts";

export { pack } from "../../packages/pack.ts";
export const run = promisify(execFile);
export const PROJECT = new URL("../../", import.meta.url).pathname;

/** Real slugs for two routes, which the package tests build with; the others keep their placeholders. */
export const SLUG_MAP = { "i-a": "imagegen-4-ultra", "d-a": "mesh-pro-2" };
export const IMAGE_SLUG = SLUG_MAP["i-a"];

/** What a test build is given for its version and changelog (a release derives them: tests/changes/). */
export const TEST_RELEASE: PackageRelease = { version: "3.1.4", changelog: "# Changelog of a test build\n" };

/** The specifiers a module's `import`/`export ... from` statements name, in order. */
export const importSpecifiers = (text: string): string[] =>
  [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\sfrom\s*["']([^"']+)["']/g)].map((match) => match[1]!);

/** A temporary folder for one test file, and in it the description bundled with `slugMap` (its `bundle/`). */
export async function workWithBundle(
  prefix: string,
  slugMap: Record<string, string>,
): Promise<{ work: string; bundle: string }> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const bundle = join(work, "bundle");
  mkdirSync(bundle);
  writeFileSync(join(work, "slugs.json"), JSON.stringify(slugMap));
  await bundleDescription(join(PROJECT, "openapi/openapi.yaml"), bundle, join(work, "slugs.json"));
  return { work, bundle };
}

/** The paths of the files `npm pack` would put into the tarball of `folder`. */
export async function packedFiles(folder: string): Promise<string[]> {
  const { stdout } = await run("npm", ["pack", folder, "--dry-run", "--json", "--ignore-scripts"], { cwd: folder });
  const [{ files }] = JSON.parse(stdout) as [{ files: Array<{ path: string }> }];
  return files.map((file) => file.path);
}

/** A fresh ESM project `name` in `work` with the tarballs installed offline; its folder. */
export async function installInFreshProject(work: string, name: string, tarballs: string[]): Promise<string> {
  const project = join(work, name);
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], {
    cwd: project,
  });
  return project;
}

/** The paths of the description a package exports as `<name>/openapi.json`, imported by `project` as a consumer would. */
export async function exportedDescriptionPaths(project: string, name: string): Promise<string[]> {
  const script = `import("${name}/openapi.json", { with: { type: "json" } }).then((m) => console.log(Object.keys(m.default.paths).join("\\n")))`;
  const { stdout } = await run("node", ["--input-type=module", "-e", script], { cwd: project });
  return stdout.trim().split("\n");
}

/** The workflow users copy to release the client from CI. */
export const RELEASE_WORKFLOW = join(PROJECT, "examples/ci/release.yml");

/** The commands of the workflow's steps, in order (the steps that `uses` an action run none). */
export function workflowCommands(file = RELEASE_WORKFLOW): string[] {
  const workflow = parseYaml(readFileSync(file, "utf8")) as {
    jobs: Record<string, { steps: Array<{ run?: string }> }>;
  };
  return Object.values(workflow.jobs).flatMap((job) =>
    job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run.trim()])),
  );
}
