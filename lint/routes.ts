import { operations, type HttpMethod, type OpenApiDocument, type Operation } from "../model/document.ts";
import { areaTags, isPollPath } from "../model/read-routes.ts";
import type { JsonPath } from "./finding.ts";
import { follow, type Json } from "./refs.ts";

/** A model area as its tag's x-area states it, the one place the service model reads areas from. */
export interface Area {
  readonly tag: string;
  /** The area's name in operation ids and shared components (`Image`). */
  readonly name: string;
  /** The part of its model labels before the hyphen (`I`). */
  readonly labelPrefix: string;
  /** The path segment after /v1/ of its create and poll routes (`images`). */
  readonly segment: string;
  /** Where the tag sits in the document. */
  readonly where: JsonPath;
}

export interface Route {
  path: string;
  method: HttpMethod;
  operation: Operation;
  /** Where the operation sits in the document. */
  where: JsonPath;
  /** The area whose tag the operation carries; undefined when it carries none (or several). */
  area: Area | undefined;
}

export interface CreateRoute extends Route {
  label: string | undefined;
}

/**
 * The areas of the tags' x-area. A malformed x-area is left out here: the extensions rule reports
 * it against its definition, and the rules that read areas then report what lost its area.
 */
export function areas(doc: OpenApiDocument): Area[] {
  const names = ((doc.tags ?? []) as Array<{ name?: unknown }>).map((tag) => tag.name);
  return areaTags(doc).flatMap(({ tag, area }) => {
    const { name, labelPrefix, segment } = area as Partial<Area>;
    const where = ["tags", names.indexOf(tag)];
    return typeof name === "string" && typeof labelPrefix === "string" && typeof segment === "string"
      ? [{ tag, name, labelPrefix, segment, where }]
      : [];
  });
}

export function routes(doc: OpenApiDocument): Route[] {
  const known = areas(doc);
  return operations(doc).map(({ path, method, operation }) => {
    const tagged = known.filter((area) => operation.tags?.includes(area.tag));
    return {
      path,
      method,
      operation,
      where: ["paths", path, method],
      area: tagged.length === 1 ? tagged[0] : undefined,
    };
  });
}

/**
 * Create operations: every operation with x-model-label (the service model's create routes), and
 * every POST to a concrete path in an area's segment (`/v1/images/<slug>`), so that one that
 * forgot its label is still caught.
 */
export function createRoutes(doc: OpenApiDocument): CreateRoute[] {
  const segments = new Set(areas(doc).map((area) => area.segment));
  return routes(doc).flatMap((route): CreateRoute[] => {
    const label = route.operation["x-model-label"];
    if (typeof label === "string") return [{ ...route, label }];
    const [, , segment, slug, ...rest] = route.path.split("/");
    const inArea = rest.length === 0 && slug !== undefined && !isPollPath(route.path) && segments.has(segment ?? "");
    return route.method === "post" && inArea ? [{ ...route, label: undefined }] : [];
  });
}

/** Poll operations, as the service model tells them: GETs of a templated last segment (`GET /v1/images/{id}`). */
export function pollRoutes(doc: OpenApiDocument): Route[] {
  return routes(doc).filter((route) => route.method === "get" && isPollPath(route.path));
}

/**
 * Each distinct response of the operations whose status passes `keep`, with the path of its
 * definition: a shared response component once, however many operations use it.
 */
export function responseDefinitions(
  doc: OpenApiDocument,
  keep: (status: string) => boolean = () => true,
): Array<{ node: Json; path: JsonPath }> {
  const found = new Map<string, { node: Json; path: JsonPath }>();
  for (const { operation, where } of routes(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!keep(status)) continue;
      const target = follow(doc, response, [...where, "responses", status]);
      if (target) found.set(JSON.stringify(target.path), target);
    }
  }
  return [...found.values()];
}
