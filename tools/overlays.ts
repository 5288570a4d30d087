/**
 * A deployment's changes to the description as OpenAPI Overlay 1.0 documents, applied at build time
 * by openapi-format (a maintained implementation of the standard): its `servers`, extra text, and the
 * real slugs, which the slug map is rendered into (model/slug-map.ts). Overlays change content, not
 * the order of the description: keys they leave in place keep their place, so a build with an
 * overlay differs from one without it only where the overlay says.
 *
 * The deployment's overlay files: `deployment.overlay.yaml` at the project root when it exists, or
 * the comma-separated files that MEDIA_OVERLAY names (which wins; `none`: no overlay).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openapiOverlay } from "openapi-format";
import { parse } from "yaml";

export interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
}

export interface OverlayDocument {
  overlay: string;
  info: { title: string; version: string };
  actions: OverlayAction[];
  [extension: `x-${string}`]: unknown;
}

/** An overlay and the name its errors give it (its file, or what it was rendered from). */
export interface NamedOverlay {
  source: string;
  overlay: OverlayDocument;
}

export class OverlayError extends Error {}

export const PROJECT_OVERLAY = fileURLToPath(new URL("../deployment.overlay.yaml", import.meta.url));

/** The deployment's overlay files in effect, in the order they apply. */
export function overlayFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.MEDIA_OVERLAY === "none") return [];
  if (env.MEDIA_OVERLAY)
    return env.MEDIA_OVERLAY.split(",")
      .map((file) => file.trim())
      .filter(Boolean);
  return existsSync(PROJECT_OVERLAY) ? [PROJECT_OVERLAY] : [];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first thing that keeps `value` from being an Overlay 1.0 document, or null. */
function overlayProblem(value: unknown): string | null {
  if (!isObject(value)) return "must be an Overlay document (a map with overlay, info and actions)";
  if (typeof value.overlay !== "string" || !/^1\.0\.\d+$/.test(value.overlay))
    return `overlay must be "1.0.x" (OpenAPI Overlay 1.0), got ${JSON.stringify(value.overlay)}`;
  if (!isObject(value.info) || typeof value.info.title !== "string" || typeof value.info.version !== "string")
    return "info must have a title and a version (strings)";
  if (!Array.isArray(value.actions) || value.actions.length === 0) return "actions must be a non-empty list";
  for (const [index, action] of value.actions.entries()) {
    const at = `action ${index + 1}`;
    if (!isObject(action)) return `${at} must be a map`;
    if (typeof action.target !== "string" || !action.target.startsWith("$"))
      return `${at}: target must be a JSONPath starting with "$"`;
    if (!("update" in action) && action.remove !== true)
      return `${at} (target ${action.target}): needs update, or remove: true`;
    if ("remove" in action && action.remove !== true && action.remove !== false)
      return `${at} (target ${action.target}): remove must be true or false`;
    if (action.remove === true && action.target === "$") return `${at}: the whole document cannot be removed`;
  }
  return null;
}

/** Reads and checks an overlay file (YAML or JSON); errors name the file. */
export function readOverlay(file: string): NamedOverlay {
  let value: unknown;
  try {
    value = parse(readFileSync(file, "utf8"), { prettyErrors: true });
  } catch (error) {
    const message = (error as Error).message.split("\n")[0];
    throw new OverlayError(
      `overlay ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file (MEDIA_OVERLAY names it)" : `not readable as YAML: ${message}`}`,
    );
  }
  const problem = overlayProblem(value);
  if (problem) throw new OverlayError(`overlay ${file}: ${problem}`);
  return { source: file, overlay: value as OverlayDocument };
}

/** `after` with its keys in `before`'s order (a key `renamed` takes its old key's place), new keys last. */
function inOrder<T>(
  before: Record<string, unknown>,
  after: Record<string, T>,
  renamed: ReadonlyMap<string, string> = new Map(),
): Record<string, T> {
  const ordered: Record<string, T> = {};
  for (const key of Object.keys(before).map((key) => renamed.get(key) ?? key))
    if (key in after) ordered[key] = after[key]!;
  for (const [key, value] of Object.entries(after)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

/**
 * `doc` with the overlay applied (a new document; `doc` is left as it was), its root keys and paths
 * in `doc`'s order, `renamed` paths in their old place. An action whose target matches nothing is
 * an error naming the overlay and the action: it would otherwise be silently ignored.
 */
export async function applyOverlay<T extends Record<string, unknown>>(
  doc: T,
  { source, overlay }: NamedOverlay,
  renamed?: ReadonlyMap<string, string>,
): Promise<T> {
  const problem = overlayProblem(overlay);
  if (problem) throw new OverlayError(`overlay ${source}: ${problem}`);
  // openapi-format reports its own refusals on the console; the checks above leave none for it.
  const { data, resultData } = await openapiOverlay(structuredClone(doc) as never, { overlaySet: overlay as never });
  const unmatched = (resultData.unusedActions as OverlayAction[]).map(
    (action) => `action ${overlay.actions.indexOf(action) + 1} (target ${action.target})`,
  );
  if (unmatched.length > 0)
    throw new OverlayError(
      `overlay ${source}: ${unmatched.join(", ")} ${unmatched.length === 1 ? "matches" : "match"} nothing in the description`,
    );
  const result = inOrder(doc, data as Record<string, unknown>);
  if (isObject(doc.paths) && isObject(result.paths)) result.paths = inOrder(doc.paths, result.paths, renamed);
  return result as T;
}
