/**
 * generated/client.ts: the typed client, bound to generated/types.ts's `paths` and to the per-route
 * data derived here from the description (area, slug, poll route, cadence, id field, media inputs,
 * terminal and success statuses). The runtime is the hand-written runtime/client/.
 */
import { deref, operations, type JsonSchema, type OpenApiDocument, type Operation } from "../model/document.ts";
import type { AreaRoutes, CreateRoute, ErrorShapes, InputForm, RouteTable } from "../runtime/client/route-table.ts";

const CREATE_PREFIX = "create";
const COST_OPERATION = "quoteCost";
/** The terminal status of a job the service gave up on, which the client reports as JobTimedOutError. */
const TIMEOUT_STATUS = "timeout";

function fail(message: string): never {
  throw new Error(`generators/client.ts: ${message}`);
}

function jsonSchema(doc: OpenApiDocument, content: Record<string, { schema?: JsonSchema }> | undefined): JsonSchema | undefined {
  const schema = content?.["application/json"]?.schema;
  return schema ? deref(doc, schema) : undefined;
}

/** The area's client name from the operationId convention `create<Area><Label>` (createModel3dDA: model3d). */
function areaName(operation: Operation, label: string): string {
  const suffix = label.replace(/-/g, "");
  const id = operation.operationId;
  if (!id.startsWith(CREATE_PREFIX) || !id.endsWith(suffix) || id.length <= CREATE_PREFIX.length + suffix.length) {
    fail(`operationId ${id} does not follow create<Area><Label> for label ${label}`);
  }
  const area = id.slice(CREATE_PREFIX.length, id.length - suffix.length);
  return area.charAt(0).toLowerCase() + area.slice(1);
}

/** The 200 response's poll link: the operation it names and the create-response field holding the id. */
function pollLink(doc: OpenApiDocument, path: string, operation: Operation): { operationId: string; idField: string } | null {
  const ok = deref(doc, operation.responses["200"] ?? fail(`POST ${path} has no 200 response`));
  const links = Object.values(ok.links ?? {}).map((link) => deref(doc, link as { operationId?: string; parameters?: Record<string, string> }));
  if (links.length === 0) return null;
  if (links.length > 1) fail(`POST ${path}'s 200 response has ${links.length} links; one poll link expected`);
  const [link] = links as [{ operationId?: string; parameters?: Record<string, string> }];
  const expression = link.parameters?.id ?? fail(`the poll link of POST ${path} has no id parameter`);
  const field = /^\$response\.body#\/([^/]+)$/.exec(expression)?.[1] ?? fail(`the poll link of POST ${path} reads ${expression}, not a top-level body field`);
  return { operationId: link.operationId ?? fail(`the poll link of POST ${path} names no operationId`), idField: field };
}

function mediaInputs(doc: OpenApiDocument, path: string, operation: Operation): CreateRoute["media"] {
  const schema = jsonSchema(doc, operation.requestBody?.content) ?? fail(`POST ${path} has no JSON request schema`);
  const media: Record<string, readonly InputForm[] | null> = {};
  for (const [field, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const xMedia = deref(doc, property)["x-media"] as { forms?: InputForm[] } | undefined;
    if (xMedia) media[field] = xMedia.forms ?? null;
  }
  return media;
}

/** The success status and the fields the poll schema requires with it (`if status const ... then required`). */
function successRule(schema: JsonSchema): { status: string; fields: string[] } | null {
  const condition = schema.if as { properties?: { status?: { const?: unknown } } } | undefined;
  const status = condition?.properties?.status?.const;
  if (typeof status !== "string") return null;
  return { status, fields: ((schema.then as { required?: string[] } | undefined)?.required ?? []).slice() };
}

/** The variant schemas of an error response's body (its `oneOf` or `anyOf`), dereferenced. */
function bodyVariants(doc: OpenApiDocument, path: string, operation: Operation, status: string): JsonSchema[] {
  const response = deref(doc, operation.responses[status] ?? fail(`POST ${path} has no ${status} response`));
  const body = jsonSchema(doc, response.content) ?? fail(`POST ${path}'s ${status} response has no JSON schema`);
  const variants = (body.oneOf ?? body.anyOf) as JsonSchema[] | undefined;
  return (variants ?? fail(`POST ${path}'s ${status} body is not a oneOf/anyOf of variants`)).map((variant) => deref(doc, variant));
}

/** A schema and its `allOf` members, dereferenced. */
function members(doc: OpenApiDocument, schema: JsonSchema): JsonSchema[] {
  return [schema, ...((schema.allOf as JsonSchema[] | undefined) ?? []).map((member) => deref(doc, member))];
}

/**
 * What tells the error bodies apart, read off a create operation's responses: the 400 variant with
 * an enum property is the moderation block; of the 429 variants that send Retry-After, the one
 * that fixes `error.code` is the rate limiter's and the one with a number property the cooldown's.
 */
function errorShapes(doc: OpenApiDocument, path: string, operation: Operation): ErrorShapes {
  let moderation: ErrorShapes["moderation"] | null = null;
  for (const variant of bodyVariants(doc, path, operation, "400")) {
    for (const [field, property] of Object.entries((variant.properties ?? {}) as Record<string, JsonSchema>)) {
      const values = deref(doc, property).enum;
      if (Array.isArray(values)) moderation = { field, reasons: values.map(String) };
    }
  }
  let rateLimitedCode: string | null = null;
  let cooldownField: string | null = null;
  for (const variant of bodyVariants(doc, path, operation, "429")) {
    if (variant["x-retry-after"] !== true) continue;
    for (const member of members(doc, variant)) {
      const properties = (member.properties ?? {}) as Record<string, JsonSchema>;
      const code = (properties.error?.properties as { code?: { const?: unknown } } | undefined)?.code?.const;
      if (typeof code === "string") rateLimitedCode = code;
      // The other variant that sends Retry-After carries its wait as a number in the body.
      const seconds = Object.keys(properties).find((field) => deref(doc, properties[field] ?? {}).type === "number");
      if (seconds !== undefined) cooldownField = seconds;
    }
  }
  return {
    moderation: moderation ?? fail(`no 400 body variant of POST ${path} has an enum property (the moderation block)`),
    rateLimitedCode: rateLimitedCode ?? fail(`no 429 body variant of POST ${path} with x-retry-after fixes error.code`),
    cooldownField: cooldownField ?? fail(`no 429 body variant of POST ${path} with x-retry-after has a number property (the cooldown)`),
  };
}

export function deriveRouteTable(doc: OpenApiDocument): RouteTable {
  const all = operations(doc);
  const byId = new Map(all.map((entry) => [entry.operation.operationId, entry]));
  const areas: Record<string, { pollPath: string | null; routes: Record<string, CreateRoute> }> = {};
  const segmentOf: Record<string, string> = {};

  for (const { path, method, operation } of all) {
    const label = operation["x-model-label"];
    if (method !== "post" || typeof label !== "string") continue;
    const segments = path.split("/");
    const slug = segments.at(-1) ?? "";
    const area = areaName(operation, label);
    const entry = (areas[area] ??= { pollPath: null, routes: {} });
    segmentOf[area] = segments.slice(0, -1).join("/");
    const link = pollLink(doc, path, operation);
    if (link) {
      const target = byId.get(link.operationId) ?? fail(`the poll link of POST ${path} names unknown operation ${link.operationId}`);
      if (entry.pollPath !== null && entry.pollPath !== target.path) fail(`${area} routes link to both ${entry.pollPath} and ${target.path}`);
      entry.pollPath = target.path;
    }
    entry.routes[slug] = { path, label, idField: link?.idField ?? null, media: mediaInputs(doc, path, operation) };
  }

  const firstCreate = all.find(({ method, operation }) => method === "post" && typeof operation["x-model-label"] === "string") ?? fail("no create operation");
  let successStatus: string | null = null;
  const resolved: Record<string, AreaRoutes> = {};
  for (const [area, { pollPath, routes }] of Object.entries(areas)) {
    // An area whose create responses show no id still has its templated poll route beside the create routes.
    const path =
      pollPath ??
      all.find((entry) => entry.method === "get" && entry.path.startsWith(`${segmentOf[area]}/{`))?.path ??
      fail(`no poll route for ${area}`);
    const poll = doc.paths[path]?.get ?? fail(`no GET ${path}`);
    const schema = jsonSchema(doc, deref(doc, poll.responses["200"] ?? fail(`GET ${path} has no 200 response`)).content);
    const rule = schema ? successRule(schema) : null;
    if (rule) {
      if (successStatus !== null && successStatus !== rule.status) fail(`poll schemas disagree on the success status`);
      successStatus = rule.status;
    }
    const polling = poll["x-polling"] as { minIntervalSeconds?: number; maxIntervalSeconds?: number } | undefined;
    const min = polling?.minIntervalSeconds;
    resolved[area] = {
      pollPath: path,
      intervalSeconds: min === undefined ? null : { min, max: polling?.maxIntervalSeconds ?? min },
      resultFields: rule?.fields ?? [],
      routes,
    };
  }

  const terminal = doc.components.schemas?.JobStatus?.["x-terminal-values"];
  if (!Array.isArray(terminal) || terminal.length === 0) fail("JobStatus has no x-terminal-values");
  if (!terminal.includes(TIMEOUT_STATUS)) fail(`JobStatus's x-terminal-values lack ${TIMEOUT_STATUS}`);
  const cost = byId.get(COST_OPERATION) ?? fail(`no operation ${COST_OPERATION}`);
  return {
    errors: errorShapes(doc, firstCreate.path, firstCreate.operation),
    terminalStatuses: terminal as string[],
    successStatus: successStatus ?? fail("no poll schema states its success status"),
    timeoutStatus: TIMEOUT_STATUS,
    costPath: cost.path,
    areas: resolved,
  };
}

export function generate(doc: OpenApiDocument): Record<string, string> {
  const table = JSON.stringify(deriveRouteTable(doc), null, 2);
  return {
    "generated/client.ts": `// Generated by generators/client.ts from generated/openapi.json. Do not edit.
import { createMediaClient, type MediaClient } from "../runtime/client/media-client.ts";
import type { ClientOptions } from "../runtime/client/options.ts";
import type { RouteTable } from "../runtime/client/route-table.ts";
import { quote } from "./costs.ts";
import type { paths } from "./types.ts";

export * from "../runtime/client/errors.ts";
export type { ClientOptions } from "../runtime/client/options.ts";
export type { CreateAndWaitOptions, CreateResult, JobResult, RequestOptions } from "../runtime/client/media-client.ts";
export type { RateLimitInfo } from "../runtime/client/rate-limit.ts";
export type { WaitOptions } from "../runtime/client/waiting.ts";
export { QuoteError, type Quote } from "./costs.ts";

/** Per-route data derived from the description. */
export const routeTable = ${table} as const satisfies RouteTable;

/** The client's areas: \`client.image\`, \`client.video\`, ... */
export type AreaName = keyof typeof routeTable.areas;
/** The typed client: one property per area, each with create, createAndWait, get and wait. */
export type MediaServiceClient = MediaClient<paths, typeof routeTable> & {
  /** The standard price (before plan discounts) of a request, computed offline from the description. */
  quote: typeof quote;
};

/**
 * Creates the typed client. Every request carries \`Authorization: Bearer <apiKey>\`; the key never
 * appears in an error or a message. Throws InvalidInputError, naming the option, on a bad option.
 */
export function createClient(options: ClientOptions<AreaName>): MediaServiceClient {
  return Object.assign(createMediaClient<paths, typeof routeTable>(routeTable, options), { quote });
}
`,
  };
}
