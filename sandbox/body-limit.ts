/**
 * The sandbox's body limit, derived from the description: the largest inline media it allows,
 * base64-encoded, with room for the other fields. The other bounds are the serving layer's
 * defaults (http-server/limits.ts); each is overridable in the config's `http` section.
 */
import { deref, type JsonSchema } from "../model/document.ts";
import type { ServiceModel } from "../model/service-model.ts";

const MB = 1024 * 1024;
const INLINE_FORMS = new Set(["data-uri", "raw-base64"]);
/** Room beside the largest inline media for the body's other fields (prompts, URLs, options). */
const OTHER_FIELDS_BYTES = MB;

/** The largest `x-media` maxSizeMB among request fields that take media inline (data URI or raw base64), with its field. */
export function largestInlineMedia(model: ServiceModel): { readonly field: string; readonly megabytes: number } | null {
  let largest: { field: string; megabytes: number } | null = null;
  for (const route of model.createRoutes) {
    const body = model.doc.paths[route.path]?.post?.requestBody?.content["application/json"]?.schema;
    const properties = (body ? deref<JsonSchema>(model.doc, body).properties : undefined) as
      | Record<string, JsonSchema>
      | undefined;
    for (const [name, property] of Object.entries(properties ?? {})) {
      const media = deref<JsonSchema>(model.doc, property)["x-media"] as
        | { forms?: string[]; maxSizeMB?: number }
        | undefined;
      if (media?.maxSizeMB === undefined || !media.forms?.some((form) => INLINE_FORMS.has(form))) continue;
      if (!largest || media.maxSizeMB > largest.megabytes)
        largest = { field: `POST ${route.path} ${name}`, megabytes: media.maxSizeMB };
    }
  }
  return largest;
}

/**
 * The default body limit: the largest inline media base64-encoded (4 bytes per 3), plus room for the
 * other fields; where the description states no inline size, the room alone.
 */
export function defaultMaxBodyBytes(model: ServiceModel): number {
  const media = largestInlineMedia(model);
  return (media ? Math.ceil((media.megabytes * MB * 4) / 3) : 0) + OTHER_FIELDS_BYTES;
}
