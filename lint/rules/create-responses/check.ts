import type { OpenApiDocument } from "../../../model/document.ts";
import { CREATE_ERROR_RESPONSES, ERROR_BODY_SCHEMAS, JOB_ACCEPTED_SUFFIX } from "../../conventions.ts";
import type { Finding, HouseRule } from "../../finding.ts";
import { follow, refName, refOf, type Json } from "../../refs.ts";
import { createRoutes, responseDefinitions } from "../../routes.ts";

const COMPONENT_RESPONSE = "#/components/responses/";

/** Whether a schema is built only from the error bodies: one of them, an allOf with one, or a union of such. */
export function isErrorBodySchema(
  doc: OpenApiDocument,
  schema: unknown,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  const ref = refOf(schema);
  if (ref !== undefined) {
    if (ERROR_BODY_SCHEMAS.includes(refName(ref))) return true;
    if (seen.has(ref)) return false;
    const target = follow(doc, schema, []);
    return target !== undefined && isErrorBodySchema(doc, target.node, new Set([...seen, ref]));
  }
  const node = schema as Json;
  const allOf = Array.isArray(node.allOf) ? node.allOf : [];
  if (allOf.some((part) => isErrorBodySchema(doc, part, seen))) return true;
  const union = [node.anyOf, node.oneOf].find(Array.isArray);
  return union !== undefined && union.length > 0 && union.every((part) => isErrorBodySchema(doc, part, seen));
}

/**
 * A create operation answers 200 and each error status through the shared response
 * components, never inline; and every 4xx body is the error body or the moderation-block body.
 */
const rule: HouseRule = {
  description:
    "A create route answers 200 (the area's <Area>JobAccepted), 400, 401, 403, 410 and 429, each through the shared response component, so that every route documents the same errors the same way; every 4xx body is the error body or the moderation-block body.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { path, where, area, operation } of createRoutes(doc)) {
      const responses = operation.responses ?? {};
      const accepted = area ? `${area.name}${JOB_ACCEPTED_SUFFIX}` : JOB_ACCEPTED_SUFFIX;
      const ok = refOf(responses["200"]);
      if (ok === undefined || !ok.startsWith(COMPONENT_RESPONSE) || !refName(ok).endsWith(accepted)) {
        findings.push({
          path: [...where, "responses", "200"],
          message: `POST ${path}: set the 200 to $ref: '${COMPONENT_RESPONSE}${accepted}', the area's shared job-accepted response.`,
        });
      }
      for (const [status, name] of Object.entries(CREATE_ERROR_RESPONSES)) {
        const expected = `${COMPONENT_RESPONSE}${name}`;
        if (refOf(responses[status]) !== expected) {
          const missing = responses[status] === undefined;
          const what = missing ? "is missing" : "is not the shared response";
          // Spectral reports a path that does not exist at its nearest existing parent; say so directly.
          findings.push({
            path: [...where, "responses", ...(missing ? [] : [status])],
            message: `POST ${path}: response ${status} ${what}; every create operation answers ${status} through the shared response, so set it to $ref: '${expected}'.`,
          });
        }
      }
    }
    for (const { node, path } of responseDefinitions(doc, (status) => status.startsWith("4"))) {
      const content = Object.entries((node.content ?? {}) as Record<string, Json>);
      if (content.length === 0) {
        findings.push({
          path,
          message: `A 4xx response must have a body: add content application/json with the error body ($ref: '#/components/schemas/${ERROR_BODY_SCHEMAS[0]}').`,
        });
      }
      for (const [mediaType, media] of content) {
        if (!isErrorBodySchema(doc, media.schema ?? {})) {
          findings.push({
            path: [...path, "content", mediaType, "schema"],
            message: `A 4xx body must be the error body or the moderation-block body: use $ref to ${ERROR_BODY_SCHEMAS.map((name) => `#/components/schemas/${name}`).join(" or ")}, or build on them with allOf/oneOf.`,
          });
        }
      }
    }
    return findings;
  },
};

export default rule;
