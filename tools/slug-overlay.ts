/**
 * The slug map (model/slug-map.ts: `slug-map.json` or MEDIA_SLUG_MAP) rendered into an OpenAPI
 * Overlay 1.0 document for the bundle it applies to. Overlay 1.0 cannot rename a key, so each create
 * path the map renames is two actions: add the path item under its real slug, remove it under the
 * placeholder. The item is the bundle's own, so the overlay is rendered anew for every build, never
 * kept in a file that would go stale when the description changes.
 */
import { slugRenames, type SlugMap } from "../model/slug-map.ts";
import type { NamedOverlay } from "./overlays.ts";

/** JSONPath of a path item: a bracketed name, quotes and backslashes escaped. */
const pathItemTarget = (path: string): string => `$.paths['${path.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;

/** The overlay of `map` on `paths` (errors name `source`), and the paths it renames. */
export function slugMapOverlay(
  paths: Record<string, unknown>,
  map: SlugMap,
  source: string,
): { overlay: NamedOverlay; renamed: Map<string, string> } {
  const renamed = slugRenames(paths, map, source);
  const actions = [...renamed].flatMap(([placeholder, real]) => [
    { target: "$.paths", description: `${placeholder} under its real slug`, update: { [real]: paths[placeholder] } },
    { target: pathItemTarget(placeholder), description: `${placeholder} renamed to ${real}`, remove: true },
  ]);
  const overlay = { overlay: "1.0.0", info: { title: `Real model slugs (${source})`, version: "1.0.0" }, actions };
  return { overlay: { source, overlay }, renamed };
}
