/**
 * generated/mcp-catalog.ts: what the MCP server (`@media-service/mcp`, packages/mcp/) tells an agent
 * and checks, read from the service model: each model's label, slug, area, summary and description,
 * and its input schema, which is the description's own request schema with the vendor extensions
 * and schema titles left out (annotations for our tools, not rules of the request); each area's
 * poll cadence and result retention; the job statuses and the moderation reasons with their
 * meanings. Prices are not repeated here: the server quotes with generated/costs.ts.
 */
import { deref, type OpenApiDocument } from "../model/document.ts";
import type { AreaModel, CreateRouteModel, ServiceModel } from "../model/service-model.ts";

function fail(message: string): never {
  throw new Error(`generators/mcp.ts: ${message}`);
}

/** A schema without its `x-` extensions and `title`s, as an agent is shown it; everything that constrains the request is kept. */
export function agentSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(agentSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || key === "title") continue;
    // Property names are data, not keywords: a property called "title" stays.
    kept[key] =
      key === "properties" && typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, agentSchema(property)]))
        : agentSchema(value);
  }
  return kept;
}

/** `schema` with every `$ref` to a component replaced by the component itself: an agent is shown no reference it could not follow. */
export function inlined(doc: OpenApiDocument, schema: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(doc, item, seen));
  if (typeof schema !== "object" || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === "string") {
    if (seen.includes(ref)) fail(`${ref} refers to itself`);
    return inlined(doc, deref(doc, schema), [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(doc, value, seen)]));
}

/** The request schema of a create route, its component references inlined. */
export function requestSchema(doc: OpenApiDocument, path: string): unknown {
  const schema = doc.paths[path]?.post?.requestBody?.content["application/json"]?.schema;
  if (schema === undefined) fail(`POST ${path} has no JSON request schema`);
  return inlined(doc, schema);
}

const oneLine = (text: string | undefined): string => (text ?? "").replace(/\s+/g, " ").trim();

function modelEntry(doc: OpenApiDocument, route: CreateRouteModel) {
  const operation = doc.paths[route.path]?.post;
  return {
    label: route.label,
    slug: route.slug,
    area: route.areaId,
    // A missing summary is the lint's to report, at its file and line (operation-summary): the label stands in meanwhile.
    title: oneLine(operation?.summary) || route.label,
    description: oneLine(operation?.description),
    /** The create response names no job id where this is false: such a job cannot be followed. */
    followable: route.idField !== null,
    media: Object.fromEntries(Object.entries(route.media).map(([field, { forms }]) => [field, forms])),
    inputSchema: agentSchema(requestSchema(doc, route.path)),
  };
}

function areaEntry(area: AreaModel) {
  const { cadence, intervalSeconds, typicalDurationSeconds, retention } = area.poll;
  return {
    segment: area.segment,
    pollPath: area.poll.path,
    cadence,
    intervalSeconds,
    typicalDurationSeconds,
    retention,
  };
}

/** The catalogue the MCP server reads, as data (no imports: the server types it where it reads it). */
export function mcpCatalog(model: ServiceModel) {
  const { moderation } = model.errors;
  return {
    version: model.version,
    areas: Object.fromEntries(model.areas.map((area) => [area.id, areaEntry(area)])),
    models: model.createRoutes.map((route) => modelEntry(model.doc, route)),
    statuses: {
      terminal: model.jobStatus.terminal,
      success: model.jobStatus.success,
      descriptions: model.jobStatus.descriptions,
    },
    moderation: {
      field: moderation.reasonField,
      description: oneLine(moderation.description),
      reasons: Object.fromEntries(
        moderation.reasons.map((reason) => [reason, oneLine(moderation.reasonDescriptions[reason])]),
      ),
    },
    cooldown: {
      pauseSeconds: model.limits.cooldown.pauseSeconds,
      growthSeconds: model.limits.cooldown.growthSeconds,
      consecutiveFailures: model.limits.cooldown.consecutiveFailures,
    },
  };
}

export type McpCatalogData = ReturnType<typeof mcpCatalog>;

export function generate(model: ServiceModel): Record<string, string> {
  return {
    "generated/mcp-catalog.ts": `// Generated by generators/mcp.ts from generated/openapi.json. Do not edit.
/**
 * What the MCP server (@media-service/mcp) reads of the description: each model's label, slug, area,
 * summary, description and input schema (the description's request schema without its x- extensions
 * and titles), each area's poll cadence and retention, the job statuses and the moderation reasons.
 * Prices are quoted with ./costs.ts.
 */
export const mcpCatalog = ${JSON.stringify(mcpCatalog(model), null, 2)};
`,
  };
}
