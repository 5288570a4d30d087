import extensions from "../../../model/extensions.schema.json" with { type: "json" };
import type { OpenApiDocument } from "../../../model/document.ts";
import { MEDIA_URL_SCHEMA } from "../../conventions.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, isObject, type Json } from "../../refs.ts";
import { routes } from "../../routes.ts";
import { subschemas, type SchemaNode } from "../../schema-walk.ts";

/** The media kinds of x-media (image, video, audio), read from its definition. */
const KINDS: readonly string[] = extensions.$defs["x-media"].properties.kind.enum;
const MEDIA_NAME = new RegExp(`(?:^|_)(${KINDS.join("|")})s?$`);
const FORMS = extensions.$defs["x-media"].properties.forms.items.enum;
/** The forms that carry the media itself in the body; a field taking neither takes URLs only. */
const INLINE_FORMS = ["data-uri", "raw-base64"];
const MEDIA_URL_REF = `#/components/schemas/${MEDIA_URL_SCHEMA}`;

/** Whether a string schema refers to the URL-only schema (`allOf: [{$ref: MediaUrl}]`, or `$ref` beside its keywords). */
const refersToMediaUrl = (schema: Json): boolean =>
  schema.$ref === MEDIA_URL_REF ||
  (Array.isArray(schema.allOf) && schema.allOf.some((entry) => isObject(entry) && entry.$ref === MEDIA_URL_REF));

/**
 * The media kind a property's name denotes (`end_image` -> image, `reference_videos` -> video),
 * when the property holds strings; `num_images` or `generate_audio` are numbers and booleans.
 */
export function mediaKindOfProperty(name: string, schema: Json): string | undefined {
  const kind = MEDIA_NAME.exec(name)?.[1];
  const items = isObject(schema.items) ? schema.items : {};
  const holdsStrings = schema.type === "string" || (schema.type === "array" && items.type === "string");
  return kind !== undefined && holdsStrings ? kind : undefined;
}

/** The properties of every request body schema (each definition once). */
function requestProperties(doc: OpenApiDocument): SchemaNode[] {
  const found = new Map<string, SchemaNode>();
  for (const { operation, where } of routes(doc)) {
    const body = follow(doc, operation.requestBody, [...where, "requestBody"]);
    for (const [mediaType, media] of Object.entries((body?.node.content ?? {}) as Record<string, Json>)) {
      const schema = follow(doc, media.schema, [...(body?.path ?? []), "content", mediaType, "schema"]);
      if (schema === undefined) continue;
      for (const node of subschemas(schema.node, schema.path)) {
        if (node.propertyName !== undefined) found.set(JSON.stringify(node.path), node);
      }
    }
  }
  return [...found.values()];
}

/**
 * The URL-only rule in standard keywords: a field whose forms leave out both inline forms refers to
 * MediaUrl (its items, for a list), and a field that takes an inline form does not.
 */
function urlOnlyFinding(propertyName: string, schema: Json, path: SchemaNode["path"], forms: unknown): Finding[] {
  const list = schema.type === "array" && isObject(schema.items);
  const value = list ? (schema.items as Json) : schema;
  const where = list ? [...path, "items"] : path;
  const urlOnly = Array.isArray(forms) && !forms.some((form) => INLINE_FORMS.includes(String(form)));
  if (urlOnly && !refersToMediaUrl(value))
    return [
      {
        path: where,
        message: `Media field "${propertyName}" takes URLs only (x-media.forms) but its ${list ? "items accept" : "schema accepts"} a data URI or raw base64: add allOf: [{$ref: '${MEDIA_URL_REF}'}]${list ? " to its items" : ""}, so that any validator refuses inline media.`,
      },
    ];
  if (!urlOnly && refersToMediaUrl(value))
    return [
      {
        path: where,
        message: `Media field "${propertyName}" refers to ${MEDIA_URL_SCHEMA}, which refuses inline media, but its x-media.forms ${Array.isArray(forms) ? "takes an inline form" : "are not stated"}: remove the reference, or the inline forms.`,
      },
    ];
  return [];
}

/**
 * Every request property that carries media has x-media, whose kind matches the name,
 * with its accepted input forms, or x-not-shown.input-forms beside it where the forms are not shown;
 * a field taking URLs only says so in standard keywords too (MediaUrl).
 */
const rule: HouseRule = {
  description:
    "Media inputs accept only some input forms (public URL, data URI, raw base64, uploaded-file URL) and have limits JSON Schema cannot check; x-media records them for the client, the mock and the docs, or x-not-shown.input-forms says the specification does not state them. A field taking URLs only refers to the MediaUrl schema, so that any validator refuses inline media there.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { schema, path, propertyName = "" } of requestProperties(doc)) {
      const kind = mediaKindOfProperty(propertyName, schema);
      const media = schema["x-media"];
      if (!isObject(media)) {
        if (kind !== undefined) {
          findings.push({
            path,
            message: `Media field "${propertyName}" has no x-media: add x-media with kind: ${kind} and forms (from ${FORMS.join(", ")}), or x-not-shown.input-forms where the specification does not state them, and the limits it gives.`,
          });
        }
        continue;
      }
      if (kind !== undefined && media.kind !== kind) {
        findings.push({
          path: [...path, "x-media", "kind"],
          message: `Media field "${propertyName}" holds ${kind} input but x-media.kind is ${JSON.stringify(media.kind)}: set kind: ${kind}.`,
        });
      }
      const notShown = isObject(schema["x-not-shown"]) && schema["x-not-shown"]["input-forms"] !== undefined;
      if (media.forms === undefined && !notShown) {
        findings.push({
          path: [...path, "x-media"],
          message: `Media field "${propertyName}" does not say which input forms it accepts: add x-media.forms (from ${FORMS.join(", ")}), or x-not-shown.input-forms beside x-media where the specification does not state them.`,
        });
      } else if (media.forms !== undefined && notShown) {
        findings.push({
          path: [...path, "x-not-shown", "input-forms"],
          message: `Media field "${propertyName}" has both x-media.forms and x-not-shown.input-forms: keep forms if the specification states them, else remove forms.`,
        });
      }
      findings.push(...urlOnlyFinding(propertyName, schema, path, media.forms));
    }
    return findings;
  },
};

export default rule;
