import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { placeholderSlug } from "./labels.ts";

/**
 * A deployment that knows the real model slugs substitutes them for the placeholder slugs
 * (`i-a`, `v-b`, ...) here, at build time, in one place: a JSON object from placeholder to real
 * slug: `slug-map.json` at the project root when it exists, or the file the MEDIA_SLUG_MAP
 * environment variable names (which wins; `none` means the placeholders). Every build, test and
 * tool then uses the same map.
 */
export type SlugMap = Readonly<Record<string, string>>;

export const PROJECT_SLUG_MAP = fileURLToPath(new URL("../slug-map.json", import.meta.url));

/** The slug map file in effect, or undefined for the placeholder slugs. */
export function slugMapFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.MEDIA_SLUG_MAP === "none") return undefined;
  return env.MEDIA_SLUG_MAP || (existsSync(PROJECT_SLUG_MAP) ? PROJECT_SLUG_MAP : undefined);
}

export function readSlugMap(file: string | undefined): SlugMap {
  if (!file) return {};
  // One path segment, whole. Made per call, not once as the module loads: what a module sets as it
  // loads no mutation test can switch per test, and the slug tests would not reach it.
  const SLUG = /^[a-z0-9][a-z0-9._-]*$/;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`slug map ${file}: not readable as JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`slug map ${file}: must be a JSON object from placeholder slug to real slug`);
  }
  for (const [from, to] of Object.entries(parsed)) {
    if (typeof to !== "string" || !SLUG.test(to)) {
      throw new Error(`slug map ${file}: slug for "${from}" must be a string matching ${SLUG}`);
    }
  }
  return parsed as SlugMap;
}

/**
 * The create paths `/v1/<area>/<placeholder>` the map renames, each to its path with the real slug;
 * templated poll paths stay. `source` names the map in errors. A placeholder the description lacks,
 * or two slugs that would end as one path (which would drop an operation), is an error naming both.
 */
export function slugRenames(
  paths: Record<string, unknown>,
  map: SlugMap,
  source = "the slug map",
): Map<string, string> {
  const known = new Set(Object.keys(paths).map((path) => path.split("/").at(-1)));
  const unknown = Object.keys(map).filter((placeholder) => !known.has(placeholder));
  if (unknown.length > 0) {
    throw new Error(
      `${source}: ${unknown.map((slug) => `"${slug}"`).join(", ")} ${unknown.length === 1 ? "is not a slug" : "are not slugs"} of any path in the description`,
    );
  }
  const renames = new Map<string, string>();
  const origin = new Map<string, string>();
  for (const path of Object.keys(paths)) {
    const segments = path.split("/");
    const real = map[segments.at(-1) ?? ""];
    if (real !== undefined) segments[segments.length - 1] = real;
    const target = segments.join("/");
    const earlier = origin.get(target);
    if (earlier !== undefined) {
      throw new Error(
        `${source}: ${earlier} and ${path} would both become ${target}; every real slug must be unique within its area`,
      );
    }
    origin.set(target, path);
    if (target !== path) renames.set(path, target);
  }
  return renames;
}

/** `paths` with the create paths renamed to the real slugs (slugRenames), in the same order. */
export function applySlugMap(
  paths: Record<string, unknown>,
  map: SlugMap,
  source = "the slug map",
): Record<string, unknown> {
  const renames = slugRenames(paths, map, source);
  return Object.fromEntries(Object.entries(paths).map(([path, item]) => [renames.get(path) ?? path, item]));
}

/** `paths` under the slug map in `file` (none: as they are), errors naming the file. */
export function applySlugMapFile(paths: Record<string, unknown>, file: string | undefined): Record<string, unknown> {
  return applySlugMap(paths, readSlugMap(file), `slug map ${file}`);
}

/**
 * The paths with every create route back at its placeholder slug, which its model label keeps
 * (I-A is i-a): what applySlugMap undone gives. Releases are kept in this form, so that they compare
 * with a build under any slug map.
 */
export function placeholderPaths(paths: Record<string, unknown>): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths)) {
    const label = (item as { post?: { "x-model-label"?: unknown } }).post?.["x-model-label"];
    renamed[typeof label === "string" ? `${path.slice(0, path.lastIndexOf("/"))}/${placeholderSlug(label)}` : path] =
      item;
  }
  return renamed;
}
