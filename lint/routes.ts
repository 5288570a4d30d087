import { operations, type HttpMethod, type OpenApiDocument, type Operation } from "../model/document.ts";
import { areaOfLabel, areaOfSegment, type Area } from "./areas.ts";
import type { JsonPath } from "./finding.ts";
import { follow, type Json } from "./refs.ts";

export interface Route {
  path: string;
  method: HttpMethod;
  operation: Operation;
  /** Where the operation sits in the document. */
  where: JsonPath;
}

export interface CreateRoute extends Route {
  label: string | undefined;
  /** The area of the label; without a label, that of the path's segment after /v1/. */
  area: Area | undefined;
}

export function routes(doc: OpenApiDocument): Route[] {
  return operations(doc).map(({ path, method, operation }) => ({ path, method, operation, where: ["paths", path, method] }));
}

function isTemplated(segment: string | undefined): boolean {
  return segment !== undefined && segment.startsWith("{");
}

/**
 * Create operations: every operation with `x-model-label`, and every POST to a concrete path in a
 * model area (`/v1/images/<slug>`), so that one that forgot its label is still caught.
 */
export function createRoutes(doc: OpenApiDocument): CreateRoute[] {
  return routes(doc).flatMap((route): CreateRoute[] => {
    const label = route.operation["x-model-label"];
    const segments = route.path.split("/");
    const pathArea = segments.length === 4 && !isTemplated(segments[3]) ? areaOfSegment(segments[2] ?? "") : undefined;
    if (typeof label === "string") return [{ ...route, label, area: areaOfLabel(label) }];
    return route.method === "post" && pathArea ? [{ ...route, label: undefined, area: pathArea }] : [];
  });
}

/** Poll operations: GETs whose last path segment is a template (`GET /v1/images/{id}`). */
export function pollRoutes(doc: OpenApiDocument): Route[] {
  return routes(doc).filter((route) => route.method === "get" && isTemplated(route.path.split("/").at(-1)));
}

/**
 * Each distinct response of the operations whose status passes `keep`, with the path of its
 * definition: a shared response component once, however many operations use it.
 */
export function responseDefinitions(doc: OpenApiDocument, keep: (status: string) => boolean = () => true): Array<{ node: Json; path: JsonPath }> {
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
