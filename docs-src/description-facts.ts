/**
 * Reads the facts the guides state out of the bundled description: job states, polling,
 * moderation reasons, error responses, the 429 variants. Each function throws when the
 * description no longer holds what it looks for, so the docs build fails instead of drifting.
 */
import { deref, operations, type JsonSchema, type OpenApiDocument, type ResponseObject } from "../model/document.ts";

export function schemaWhere(doc: OpenApiDocument, what: string, test: (schema: JsonSchema) => boolean): JsonSchema {
  const found = Object.values(doc.components.schemas ?? {}).find(test);
  if (!found) throw new Error(`the description has no ${what} schema`);
  return found;
}

export interface EnumFact {
  value: string;
  description: string;
}

/** Enum values with their `x-enumDescriptions`. */
export function enumFacts(schema: JsonSchema): EnumFact[] {
  const values = schema.enum as string[] | undefined;
  if (!values) throw new Error(`schema ${String(schema.title)} has no enum`);
  const descriptions = (schema["x-enumDescriptions"] ?? {}) as Record<string, string>;
  return values.map((value) => ({ value, description: descriptions[value] ?? "" }));
}

export function jobStatusSchema(doc: OpenApiDocument): JsonSchema {
  return schemaWhere(doc, "JobStatus (with x-terminal-values)", (schema) => Array.isArray(schema["x-terminal-values"]));
}

export function terminalStates(doc: OpenApiDocument): string[] {
  return jobStatusSchema(doc)["x-terminal-values"] as string[];
}

export function restrictionReasonSchema(doc: OpenApiDocument): JsonSchema {
  return schemaWhere(doc, "RestrictionReason", (schema) => schema.title === "RestrictionReason");
}

export function errorBodySchema(doc: OpenApiDocument): JsonSchema {
  return schemaWhere(doc, "ErrorBody", (schema) => schema.title === "ErrorBody");
}

export interface PollingFact {
  path: string;
  polling: {
    cadence?: string;
    minIntervalSeconds?: number;
    maxIntervalSeconds?: number;
    typicalDurationSeconds?: { min: number; max: number };
    resultRetentionHours?: number;
    resultRetentionApproximate?: boolean;
  };
}

/** Every poll operation (a GET of one job, `/v1/<area>/{id}`) with its `x-polling`, in document order. */
export function pollingFacts(doc: OpenApiDocument): PollingFact[] {
  const found = operations(doc)
    .filter(({ path, method }) => method === "get" && /\{[^}]+\}$/.test(path))
    .map(({ path, operation }) => ({ path, polling: (operation["x-polling"] ?? {}) as PollingFact["polling"] }));
  if (!found.some((fact) => Object.keys(fact.polling).length > 0)) throw new Error("no poll operation of the description has x-polling");
  return found;
}

/** The distinct error responses (status >= 400) of all operations, resolved, by status. */
export function errorResponses(doc: OpenApiDocument): Array<{ status: string; response: ResponseObject }> {
  const seen = new Map<string, { status: string; response: ResponseObject }>();
  for (const { operation } of operations(doc)) {
    for (const [status, raw] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue;
      const key = `${status} ${raw.$ref ?? JSON.stringify(raw)}`;
      if (!seen.has(key)) seen.set(key, { status, response: deref(doc, raw) });
    }
  }
  return [...seen.values()].sort((a, b) => Number(a.status) - Number(b.status));
}

export function responsesWithStatus(doc: OpenApiDocument, status: string): ResponseObject[] {
  const found = errorResponses(doc).filter((entry) => entry.status === status).map((entry) => entry.response);
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
