import type { OpenApiDocument } from "../model/document.ts";
import { CREATE_ERROR_RESPONSES } from "./conventions.ts";
import type { JsonPath } from "./finding.ts";
import { follow, isObject, refName, refOf, type Json } from "./refs.ts";

export const TOO_MANY_REQUESTS = "429";
/** The one response every 429 refers to (the too-many-requests rule holds every route to it). */
export const SHARED_429 = `#/components/responses/${CREATE_ERROR_RESPONSES[TOO_MANY_REQUESTS]}`;
const SCHEMA_COMPONENT = "#/components/schemas/";

interface TooManyBody {
  mediaType: string;
  media: Json;
  /** Where the response names the body's schema. */
  at: JsonPath;
  /** The body schema's union of 429 variants, where it is defined; undefined when the body is no union. */
  union: { path: JsonPath; key: "anyOf" | "oneOf"; variants: unknown[] } | undefined;
}

/** The shared 429 response where it is defined, and its bodies; undefined when it does not exist. */
export function sharedTooManyRequests(
  doc: OpenApiDocument,
): { node: Json; path: JsonPath; bodies: TooManyBody[] } | undefined {
  const target = follow(doc, { $ref: SHARED_429 }, []);
  if (target === undefined) return undefined;
  const content = isObject(target.node.content) ? target.node.content : {};
  const bodies = Object.entries(content).map(([mediaType, media]): TooManyBody => {
    const at = [...target.path, "content", mediaType];
    const schema = follow(doc, isObject(media) ? media.schema : undefined, [...at, "schema"]);
    const key = (["anyOf", "oneOf"] as const).find((candidate) => Array.isArray(schema?.node[candidate]));
    const union = schema && key ? { path: schema.path, key, variants: schema.node[key] as unknown[] } : undefined;
    return { mediaType, media: isObject(media) ? media : {}, at: [...at, "schema"], union };
  });
  return { ...target, bodies };
}

/** The names of the schema components the shared 429's bodies list as variants. */
export function tooManyVariantNames(doc: OpenApiDocument): string[] {
  const refs = (sharedTooManyRequests(doc)?.bodies ?? []).flatMap((body) => body.union?.variants ?? []).map(refOf);
  return [...new Set(refs.filter((ref): ref is string => ref?.startsWith(SCHEMA_COMPONENT) === true).map(refName))];
}
