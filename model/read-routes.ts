/** Areas, create routes, poll routes and operations, read off the tags' x-area and the operations. */
import { deref, operations, type JsonSchema, type OpenApiDocument, type Operation } from "./document.ts";
import { createPath } from "../runtime/client/route-table.ts";
import { labelPrefix } from "./labels.ts";
import { fail, jsonSchema, mergedProperties, mergedRequired, response } from "./schema-parts.ts";
import type { AreaModel, CreateRouteModel, InputForm, MediaField, OperationModel, PollFacts } from "./types.ts";

interface XArea {
  name: string;
  labelPrefix: string;
  segment: string;
}

interface XPolling {
  cadence?: string;
  minIntervalSeconds?: number;
  maxIntervalSeconds?: number;
  typicalDurationSeconds?: { min: number; max: number };
  resultRetentionHours?: number;
  resultRetentionApproximate?: boolean;
}

const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

/** A poll route: a GET whose last path segment is a template (`GET /v1/images/{id}`). */
export function isPollPath(path: string): boolean {
  return /\/\{[^}]+\}$/.test(path);
}

function singleTag(path: string, operation: Operation): string {
  const [tag, ...more] = operation.tags ?? [];
  if (tag === undefined || more.length > 0) fail(`${path} must carry exactly one tag`);
  return tag;
}

/** The 200 response's poll link: the operation it names and the create-response field holding the id. */
function pollLink(
  doc: OpenApiDocument,
  where: string,
  operation: Operation,
): { operationId: string; idField: string } | null {
  const links = Object.values(response(doc, where, operation, "200").links ?? {}).map((link) =>
    deref<{ operationId?: string; parameters?: Record<string, string> }>(doc, link as { $ref: string }),
  );
  if (links.length === 0) return null;
  if (links.length > 1) fail(`${where}'s 200 response has ${links.length} links; one poll link expected`);
  const [link] = links as [{ operationId?: string; parameters?: Record<string, string> }];
  const expression = link.parameters?.id ?? fail(`the poll link of ${where} has no id parameter`);
  const idField =
    /^\$response\.body#\/([^/]+)$/.exec(expression)?.[1] ??
    fail(`the poll link of ${where} reads ${expression}, not a top-level body field`);
  return { operationId: link.operationId ?? fail(`the poll link of ${where} names no operationId`), idField };
}

function mediaFields(doc: OpenApiDocument, request: JsonSchema): Record<string, MediaField> {
  const media: Record<string, MediaField> = {};
  for (const [field, property] of Object.entries((request.properties ?? {}) as Record<string, JsonSchema>)) {
    const schema = deref(doc, property);
    const xMedia = schema["x-media"] as { kind: string; forms?: InputForm[] } | undefined;
    if (xMedia) media[field] = { kind: xMedia.kind, list: schema.type === "array", forms: xMedia.forms ?? null };
  }
  return media;
}

/** The prefix an `id` pattern such as `^img_` states, or null. */
function idPrefix(doc: OpenApiDocument, created: JsonSchema): string | null {
  for (const property of mergedProperties(doc, created).id ?? []) {
    const prefix = /^\^([A-Za-z0-9_-]+)$/.exec(String(property.pattern ?? ""))?.[1];
    if (prefix) return prefix;
  }
  return null;
}

function createRoute(
  doc: OpenApiDocument,
  area: { id: string; segment: string },
  path: string,
  operation: Operation,
  label: string,
) {
  const where = `POST ${path}`;
  const segments = path.split("/");
  if (segments.length !== 4 || segments[2] !== area.segment)
    fail(`${where} is tagged ${area.id} but is not /v1/${area.segment}/<slug>`);
  const created =
    jsonSchema(doc, response(doc, where, operation, "200").content) ??
    fail(`${where}'s 200 response has no JSON schema`);
  const request = jsonSchema(doc, operation.requestBody?.content) ?? fail(`${where} has no JSON request schema`);
  const link = pollLink(doc, where, operation);
  const idType = link
    ? (mergedProperties(doc, created)[link.idField]?.find((schema) => typeof schema.type === "string")?.type ?? null)
    : null;
  const pricing = operation["x-pricing"] as { held?: boolean } | undefined;
  const family = operation["x-model-family"];
  const route: CreateRouteModel = {
    slug: segments[3] ?? fail(`${where} has no slug`),
    label,
    areaId: area.id,
    path,
    operationId: operation.operationId,
    idField: link?.idField ?? null,
    idType: idType === "string" || idType === "integer" ? idType : null,
    responseFields: mergedRequired(doc, created),
    media: mediaFields(doc, request),
    priceHeld: pricing?.held === true,
    family: typeof family === "string" ? family : null,
  };
  return { route, link, prefix: idPrefix(doc, created) };
}

function pollFacts(path: string, operation: Operation): PollFacts {
  const polling = (operation["x-polling"] ?? {}) as XPolling;
  const min = polling.minIntervalSeconds;
  return {
    path,
    operationId: operation.operationId,
    cadence: polling.cadence ?? null,
    intervalSeconds: min === undefined ? null : { min, max: polling.maxIntervalSeconds ?? min },
    typicalDurationSeconds: polling.typicalDurationSeconds ?? null,
    retention:
      polling.resultRetentionHours === undefined
        ? null
        : { hours: polling.resultRetentionHours, approximate: polling.resultRetentionApproximate === true },
  };
}

/** The fields a poll schema requires once `status` is the success status (`if status const ... then required`). */
function successFields(schema: JsonSchema | undefined): { status: string; fields: string[] } | null {
  const status = (schema?.if as { properties?: { status?: { const?: unknown } } } | undefined)?.properties?.status
    ?.const;
  if (typeof status !== "string") return null;
  return { status, fields: [...((schema?.then as { required?: string[] } | undefined)?.required ?? [])] };
}

export function areaTags(doc: OpenApiDocument): Array<{ tag: string; area: XArea }> {
  const tags = (doc.tags ?? []) as Array<{ name: string; "x-area"?: XArea }>;
  return tags.flatMap((tag) => (tag["x-area"] ? [{ tag: tag.name, area: tag["x-area"] }] : []));
}

export function readAreas(doc: OpenApiDocument): AreaModel[] {
  const all = operations(doc);
  const tagged = areaTags(doc);
  if (tagged.length === 0) fail("no tag carries x-area");
  return tagged.map(({ tag, area: xArea }) => {
    const id = lowerFirst(xArea.name);
    const mine = all.filter(({ path, operation }) => singleTag(path, operation) === tag);
    const polls = mine.filter(({ path, method }) => method === "get" && isPollPath(path));
    if (polls.length !== 1) fail(`area ${id} (tag ${tag}) has ${polls.length} poll routes; one expected`);
    const poll = polls[0]!;
    if (poll.path.split("/")[2] !== xArea.segment)
      fail(`the poll route ${poll.path} of area ${id} is not under /v1/${xArea.segment}/`);
    const prefixes = new Set<string>();
    const createRoutes = mine.flatMap(({ path, method, operation }) => {
      const label = operation["x-model-label"];
      if (method !== "post" || typeof label !== "string") return [];
      if (labelPrefix(label) !== xArea.labelPrefix)
        fail(`POST ${path}'s label ${label} does not start with area ${id}'s prefix ${xArea.labelPrefix}-`);
      const { route, link, prefix } = createRoute(doc, { id, segment: xArea.segment }, path, operation, label);
      if (createPath(poll.path, route.slug) !== path)
        fail(`POST ${path} is not its area's poll path ${poll.path} with the slug for the id`);
      if (link && link.operationId !== poll.operation.operationId)
        fail(`the poll link of POST ${path} names ${link.operationId}, not ${poll.operation.operationId}`);
      if (prefix) prefixes.add(prefix);
      return [route];
    });
    if (prefixes.size > 1)
      fail(`the create responses of area ${id} state different id prefixes: ${[...prefixes].join(", ")}`);
    const pollSchema = jsonSchema(doc, response(doc, `GET ${poll.path}`, poll.operation, "200").content);
    return {
      id,
      name: xArea.name,
      tag,
      labelPrefix: xArea.labelPrefix,
      segment: xArea.segment,
      poll: pollFacts(poll.path, poll.operation),
      resultFields: successFields(pollSchema)?.fields ?? [],
      jobIdPrefix: [...prefixes][0] ?? null,
      createRoutes,
    };
  });
}

/** The status the poll schemas name as the one that carries the result; they must agree. */
export function readSuccessStatus(doc: OpenApiDocument): string {
  const found = new Set<string>();
  for (const { path, method, operation } of operations(doc)) {
    if (method !== "get" || !isPollPath(path)) continue;
    const rule = successFields(jsonSchema(doc, response(doc, `GET ${path}`, operation, "200").content));
    if (rule) found.add(rule.status);
  }
  if (found.size !== 1)
    fail(`the poll schemas name ${found.size} success statuses (${[...found].join(", ")}); exactly one expected`);
  return [...found][0]!;
}

export function readOperations(doc: OpenApiDocument, areas: readonly AreaModel[]): OperationModel[] {
  const areaOfTag = new Map(areas.map((area) => [area.tag, area.id]));
  return operations(doc).map(({ path, method, operation }) => {
    if (method !== "get" && method !== "post")
      fail(`${method.toUpperCase()} ${path}: only GET and POST operations are modelled`);
    const tag = singleTag(path, operation);
    const kind =
      typeof operation["x-model-label"] === "string"
        ? "create"
        : method === "get" && isPollPath(path)
          ? "poll"
          : "other";
    const notShown = (operation["x-not-shown"] ?? {}) as { "success-status"?: string };
    const statuses = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
    const parameters = (operation.parameters ?? []).map((parameter) =>
      deref<{ name?: string; in?: string }>(doc, parameter as { $ref: string }),
    );
    return {
      path,
      method,
      operationId: operation.operationId,
      tag,
      areaId: areaOfTag.get(tag) ?? null,
      kind,
      freePlan: operation["x-free-plan"] === true,
      successStatus: notShown["success-status"] !== undefined || statuses.length !== 1 ? null : Number(statuses[0]),
      queryParameters: parameters
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => parameter.name ?? fail(`a query parameter of ${path} has no name`)),
      requestBody: operation.requestBody !== undefined,
    };
  });
}
