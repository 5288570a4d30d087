import { resolvePointer, type OpenApiDocument } from "../model/document.ts";
import type { JsonPath } from "./finding.ts";

export type Json = { [key: string]: unknown };

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `$ref` string of a reference object, if the value is one. */
export function refOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.$ref === "string" ? value.$ref : undefined;
}

/** `#/components/responses/A~1B` as the path `[components, responses, A/B]`. */
export function pointerPath(ref: string): JsonPath {
  return ref
    .slice(2)
    .split("/")
    .map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The last segment of a local reference: the component's name. */
export function refName(ref: string): string {
  return pointerPath(ref).at(-1) as string;
}

/**
 * Follows references to the object they name and returns it with the path where it is defined,
 * so findings point at the definition (once) rather than at every use. An unresolvable reference
 * returns undefined: spectral:oas reports those already.
 */
export function follow(
  doc: OpenApiDocument,
  value: unknown,
  path: JsonPath,
): { node: Json; path: JsonPath } | undefined {
  let node = value;
  let where = path;
  for (let ref = refOf(node); ref !== undefined; ref = refOf(node)) {
    if (!ref.startsWith("#/")) return undefined;
    try {
      node = resolvePointer<unknown>(doc, ref);
    } catch {
      return undefined;
    }
    where = pointerPath(ref);
  }
  return isObject(node) ? { node, path: where } : undefined;
}
