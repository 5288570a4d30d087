/**
 * Reads the docs-only facts the guides state out of the bundled description: the error body's
 * fields, the error responses, the 429 variants, info sections. Job states, polling and moderation
 * reasons come from the service model (model/). Each function throws when the
 * description no longer holds what it looks for, so the docs build fails instead of drifting.
 */
import { deref, operations, type JsonSchema, type OpenApiDocument, type ResponseObject } from "../model/document.ts";

export function schemaWhere(doc: OpenApiDocument, what: string, test: (schema: JsonSchema) => boolean): JsonSchema {
  const found = Object.values(doc.components.schemas ?? {}).find(test);
  if (!found) throw new Error(`the description has no ${what} schema`);
  return found;
}

export function errorBodySchema(doc: OpenApiDocument): JsonSchema {
  return schemaWhere(doc, "ErrorBody", (schema) => schema.title === "ErrorBody");
}

/** The distinct error responses (status >= 400) of all operations, resolved, by status. */
export function errorResponses(doc: OpenApiDocument): Array<{ status: string; response: ResponseObject }> {
  const seen = new Map<string, { status: string; response: ResponseObject }>();
  for (const { operation } of operations(doc)) {
    for (const [status, raw] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue;
      const key = `${status} ${raw.$ref ?? JSON.stringify(raw)}`;
      // Stryker disable next-line ConditionalExpression: equivalent: an answer of the same key is the same answer
      if (!seen.has(key)) seen.set(key, { status, response: deref(doc, raw) });
    }
  }
  return [...seen.values()].sort((a, b) => Number(a.status) - Number(b.status));
}

export function responsesWithStatus(doc: OpenApiDocument, status: string): ResponseObject[] {
  const found = errorResponses(doc)
    .filter((entry) => entry.status === status)
    .map((entry) => entry.response);
  if (found.length === 0) throw new Error(`no operation of the description answers ${status}`);
  return found;
}

/** A `## Heading` section of `info.description`, without its heading. */
export function infoSection(doc: OpenApiDocument, heading: string): string {
  const text = String(doc.info.description ?? "");
  const sections = text.split(/^## /m).slice(1);
  const section = sections.find((candidate) => candidate.split("\n")[0]?.trim() === heading);
  if (section === undefined) throw new Error(`info.description has no "## ${heading}" section`);
  return section.slice(section.indexOf("\n") + 1).trim();
}
