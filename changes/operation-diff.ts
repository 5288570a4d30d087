/**
 * Compares the routes of two descriptions: routes added and removed, operation ids, parameters,
 * request bodies, response statuses, headers and media types, authentication (security-diff.ts), and hands every schema to
 * schema-diff.ts in its direction. Shared responses and parameters (`$ref`'d components) are
 * compared once and listed with every route that uses them.
 */
import { HTTP_METHODS, deref, type OpenApiDocument, type Operation, type ResponseObject } from "../model/document.ts";
import type { ChangeCollector } from "./change.ts";
import { compareSchemas, schemaScope, type Sides } from "./schema-diff.ts";
import { changedSchemes, compareSecurity } from "./security-diff.ts";
import { isObject } from "./schema-shape.ts";

interface Route {
  /** `POST /v1/images/i-a`, with the path as the side that has it spells it. */
  label: string;
  path: string;
  operation: Operation;
}

type Parameter = NonNullable<Operation["parameters"]>[number];
type RequestBody = NonNullable<Operation["requestBody"]>;
type Header = NonNullable<ResponseObject["headers"]>[string];

/** A path with its parameter names blanked (`/v1/images/{}`): the same for every spelling of the same URLs. */
export const templateKey = (path: string): string => path.replace(/\{[^}]+\}/g, "{}");

/** Routes keyed by method and path with parameter names blanked: renaming `{id}` is not a new route (path-template-changed). */
function routes(doc: OpenApiDocument): Map<string, Route> {
  const found = new Map<string, Route>();
  for (const [path, raw] of Object.entries(doc.paths)) {
    // A path item may be a $ref (to components.pathItems in 3.1).
    const item = deref(doc, raw as typeof raw | { $ref: string });
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation)
        found.set(`${method} ${templateKey(path)}`, { label: `${method.toUpperCase()} ${path}`, path, operation });
    }
  }
  return found;
}

const componentName = (node: unknown, kind: string): string | undefined => {
  const prefix = `#/components/${kind}/`;
  return isObject(node) && typeof node.$ref === "string" && node.$ref.startsWith(prefix)
    ? node.$ref.slice(prefix.length)
    : undefined;
};

/**
 * Compares two objects that may be `$ref`s: the same component on both sides is compared once at
 * its own location; otherwise both are resolved and compared at the route's location.
 */
function viaComponent<T>(
  sides: Sides,
  collector: ChangeCollector,
  kind: string,
  before: T,
  after: T,
  routeLocation: string,
  compare: (before: T, after: T, location: string) => void,
): void {
  const name = componentName(before, kind);
  const resolved = (): [T, T] => [
    deref(sides.before, before as T | { $ref: string }),
    deref(sides.after, after as T | { $ref: string }),
  ];
  if (name !== undefined && name === componentName(after, kind)) {
    const singular = kind.replace(/s$/, "");
    collector.once(`${singular} ${name}`, () => compare(...resolved(), `${singular} ${name}`));
  } else {
    compare(...resolved(), routeLocation);
  }
}

/** `modelOf` gives the label of the model a create route serves, so an added or removed route says which model. */
export function compareRoutes(
  sides: Sides,
  collector: ChangeCollector,
  modelOf: (route: string) => string | undefined,
): void {
  const [before, after] = [routes(sides.before), routes(sides.after)];
  const schemes = changedSchemes(sides.before, sides.after);
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const key of keys) {
    const [from, to] = [before.get(key), after.get(key)];
    const route = (to ?? from)!;
    collector.forRoute(route.label, () => {
      const model = modelOf(route.label);
      const detail = model === undefined ? {} : { detail: model };
      if (!to) return collector.report({ rule: "route-removed", location: route.label, ...detail });
      if (!from) return collector.report({ rule: "route-added", location: route.label, ...detail });
      if (from.path !== to.path)
        collector.report({ rule: "path-template-changed", location: route.label, before: from.path, after: to.path });
      compareOperation(sides, collector, route.label, from, to);
      compareSecurity(sides, collector, route.label, from.operation, to.operation, schemes);
    });
  }
}

function compareOperation(sides: Sides, collector: ChangeCollector, label: string, from: Route, to: Route): void {
  const [before, after] = [from.operation, to.operation];
  if (before.operationId !== after.operationId) {
    collector.report({
      rule: "operation-id-changed",
      location: label,
      before: before.operationId,
      after: after.operationId,
    });
  }
  const deprecated = (operation: Operation): boolean => (operation as { deprecated?: unknown }).deprecated === true;
  if (deprecated(after) && !deprecated(before)) collector.report({ rule: "route-deprecated", location: label });
  compareParameters(sides, collector, label, from, to);
  compareRequestBodies(sides, collector, label, before.requestBody, after.requestBody);
  // OpenAPI 3.1 lets an operation leave its responses out.
  compareResponses(sides, collector, label, before.responses ?? {}, after.responses ?? {});
}

function compareParameters(sides: Sides, collector: ChangeCollector, label: string, from: Route, to: Route): void {
  // A path parameter is known by its place in the path, so renaming it is no change.
  const keyed = (route: Route, doc: OpenApiDocument): Map<string, Parameter> => {
    const placeholders = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    return new Map(
      (route.operation.parameters ?? []).map((raw) => {
        const parameter = deref(doc, raw);
        const key =
          parameter.in === "path"
            ? `path #${placeholders.indexOf(parameter.name)}`
            : `${parameter.in} ${parameter.name}`;
        return [key, raw];
      }),
    );
  };
  const [before, after] = [keyed(from, sides.before), keyed(to, sides.after)];
  const scope = schemaScope(sides, collector, "request");
  for (const [key, raw] of before) {
    if (after.has(key)) continue;
    const parameter = deref(sides.before, raw);
    collector.report({ rule: "parameter-removed", location: `${label} ${parameter.in} parameter ${parameter.name}` });
  }
  for (const [key, raw] of after) {
    const parameter = deref(sides.after, raw);
    const location = `${label} ${parameter.in} parameter ${parameter.name}`;
    const old = before.get(key);
    if (old === undefined) {
      collector.report({ rule: parameter.required ? "required-parameter-added" : "parameter-added", location });
      continue;
    }
    viaComponent(sides, collector, "parameters", old, raw, location, (was, now, at) => {
      if (now.required && !was.required) collector.report({ rule: "parameter-became-required", location: at });
      if (!now.required && was.required) collector.report({ rule: "parameter-became-optional", location: at });
      compareSchemas(scope, was.schema, now.schema, at);
    });
  }
}

function compareRequestBodies(
  sides: Sides,
  collector: ChangeCollector,
  label: string,
  rawBefore: RequestBody | undefined,
  rawAfter: RequestBody | undefined,
): void {
  const location = `${label} request body`;
  if (!rawBefore && !rawAfter) return;
  if (!rawBefore)
    return collector.report({
      rule: deref(sides.after, rawAfter!).required ? "required-request-body-added" : "request-body-added",
      location,
    });
  if (!rawAfter) return collector.report({ rule: "request-body-removed", location });
  const [before, after] = [deref(sides.before, rawBefore), deref(sides.after, rawAfter)];
  if (after.required && !before.required) collector.report({ rule: "request-body-became-required", location });
  if (!after.required && before.required) collector.report({ rule: "request-body-became-optional", location });
  const scope = schemaScope(sides, collector, "request");
  compareContent(
    before.content,
    after.content,
    location,
    "request-media-type-added",
    "request-media-type-removed",
    collector,
    (was, now, at) => compareSchemas(scope, was, now, at),
  );
}

/** Media types added and removed; the schemas of the ones on both sides compared. JSON is the body's plain location. */
function compareContent(
  before: Record<string, { schema?: unknown }> | undefined,
  after: Record<string, { schema?: unknown }> | undefined,
  location: string,
  added: "request-media-type-added" | "response-media-type-added",
  removed: "request-media-type-removed" | "response-media-type-removed",
  collector: ChangeCollector,
  compare: (before: unknown, after: unknown, location: string) => void,
): void {
  const [from, to] = [before ?? {}, after ?? {}];
  for (const type of Object.keys(from)) if (!(type in to)) collector.report({ rule: removed, location, detail: type });
  for (const type of Object.keys(to)) {
    if (!(type in from)) collector.report({ rule: added, location, detail: type });
    else compare(from[type]!.schema, to[type]!.schema, type === "application/json" ? location : `${location} ${type}`);
  }
}

function compareResponses(
  sides: Sides,
  collector: ChangeCollector,
  label: string,
  before: Record<string, ResponseObject>,
  after: Record<string, ResponseObject>,
): void {
  for (const status of Object.keys(before))
    if (!(status in after)) collector.report({ rule: "response-status-removed", location: label, detail: status });
  for (const [status, raw] of Object.entries(after)) {
    const old = before[status];
    if (old === undefined) {
      collector.report({
        rule: status.startsWith("2") ? "success-status-added" : "error-status-added",
        location: label,
        detail: status,
      });
      continue;
    }
    viaComponent(sides, collector, "responses", old, raw, `${label} response ${status}`, (was, now, at) =>
      compareResponse(sides, collector, was, now, at),
    );
  }
}

function compareResponse(
  sides: Sides,
  collector: ChangeCollector,
  before: ResponseObject,
  after: ResponseObject,
  location: string,
): void {
  const scope = schemaScope(sides, collector, "response");
  // Header names are case-insensitive in HTTP.
  const headers = (response: ResponseObject): Map<string, [string, Header]> =>
    new Map(Object.entries(response.headers ?? {}).map(([name, raw]) => [name.toLowerCase(), [name, raw]]));
  const [from, to] = [headers(before), headers(after)];
  for (const [key, [name]] of from)
    if (!to.has(key)) collector.report({ rule: "response-header-removed", location, detail: name });
  for (const [key, [name, raw]] of to) {
    const old = from.get(key)?.[1];
    if (!old) {
      collector.report({ rule: "response-header-added", location, detail: name });
      continue;
    }
    viaComponent(sides, collector, "headers", old, raw, `${location} header ${name}`, (was, now, at) => {
      if (was.required && !now.required)
        collector.report({ rule: "response-header-became-optional", location: at, detail: name });
      if (!was.required && now.required)
        collector.report({ rule: "response-header-became-required", location: at, detail: name });
      compareSchemas(scope, was.schema, now.schema, at);
    });
  }
  compareContent(
    before.content,
    after.content,
    `${location} body`,
    "response-media-type-added",
    "response-media-type-removed",
    collector,
    (was, now, at) => compareSchemas(scope, was, now, at),
  );
}
