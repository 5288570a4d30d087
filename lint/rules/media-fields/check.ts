import extensions from "../../../model/extensions.schema.json" with { type: "json" };
import type { OpenApiDocument } from "../../../model/document.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, isObject, type Json } from "../../refs.ts";
import { routes } from "../../routes.ts";
import { subschemas, type SchemaNode } from "../../schema-walk.ts";

/** The media kinds of x-media (image, video, audio), read from its definition. */
const KINDS: readonly string[] = extensions.$defs["x-media"].properties.kind.enum;
const MEDIA_NAME = new RegExp(`(?:^|_)(${KINDS.join("|")})s?$`);
const FORMS = extensions.$defs["x-media"].properties.forms.items.enum;

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
 * Every request property that carries media has x-media, whose kind matches the name,
 * with its accepted input forms, or x-not-shown.input-forms beside it where the forms are not shown.
 */
const rule: HouseRule = {
  description:
    "Media inputs accept only some input forms (public URL, data URI, raw base64, uploaded-file URL) and have limits JSON Schema cannot check; x-media records them for the client, the mock and the docs, or x-not-shown.input-forms says the specification does not state them.",
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
    }
    return findings;
  },
};

export default rule;
