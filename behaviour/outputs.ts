/**
 * How many results a create makes: its `num_<field>` (`num_images`), else that field's stated
 * default, else one. A count the request leaves out where the description states no default is the
 * model's choice, and the job is priced for the results it makes (I-C's flat 25 credits per image:
 * a request without `num_images` makes one image and is charged 25).
 */
import { deref, type JsonSchema } from "../model/document.ts";
import type { CreateRouteModel } from "../model/service-model.ts";
import type { ServiceState } from "./state.ts";

type Body = Readonly<Record<string, unknown>>;

/** The count field of a route's array result (`num_images`) that its request schema has, if any. */
function countField(state: ServiceState, route: CreateRouteModel): { name: string; schema: JsonSchema } | null {
  const properties = (state.requestSchemas.get(route.operationId)?.schema.properties ?? {}) as Record<
    string,
    JsonSchema
  >;
  for (const field of state.areas.get(route.areaId)!.resultFields) {
    const property = properties[`num_${field}`];
    if (property) return { name: `num_${field}`, schema: deref<JsonSchema>(state.model.doc, property) };
  }
  return null;
}

export function outputCount(state: ServiceState, route: CreateRouteModel, body: Body): number {
  const count = countField(state, route);
  const value = count ? (body[count.name] ?? count.schema.default) : undefined;
  return typeof value === "number" ? value : 1;
}

/** The body as the job runs it: a count left out given as the number of results made. */
export function withOutputCount(state: ServiceState, route: CreateRouteModel, body: Body): Body {
  const count = countField(state, route);
  return count && body[count.name] === undefined ? { ...body, [count.name]: outputCount(state, route, body) } : body;
}
