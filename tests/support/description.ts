import {
  deref,
  loadBundle,
  operations,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from "../../model/document.ts";
import { placeholderSlug } from "../../model/labels.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { createSchemaRegistry, describeErrors } from "../../model/schema-registry.ts";

export const doc: OpenApiDocument = loadBundle();
/** The service model of the bundle, as every tool reads it. */
export const model = readServiceModel(doc);
export const registry = createSchemaRegistry(doc);

/**
 * The path a route has in this build. Tests name create routes by their placeholder slug; a build
 * with a slug map (MEDIA_SLUG_MAP) replaced it, and the model label keeps it (I-A is i-a).
 */
export function builtPath(path: string): string {
  if (doc.paths[path]) return path;
  const area = path.slice(0, path.lastIndexOf("/") + 1);
  const slug = path.slice(area.length);
  return (
    model.createRoutes.find((route) => placeholderSlug(route.label) === slug && route.path.startsWith(area))?.path ??
    path
  );
}

export function operation(path: string, method: "get" | "post" = "post"): Operation {
  const op = doc.paths[builtPath(path)]?.[method];
  if (!op) throw new Error(`no ${method.toUpperCase()} ${path} in the bundle`);
  return op;
}

/** The value of the first named request example of `method` `path`: the body the description shows first. */
export function firstRequestExample(path: string, method: "get" | "post" = "post"): Record<string, unknown> {
  const first = Object.values(operation(path, method).requestBody?.content["application/json"]?.examples ?? {})[0];
  const value = first && deref(doc, first).value;
  if (typeof value !== "object" || value === null)
    throw new Error(`${method.toUpperCase()} ${path} has no named request example`);
  return value as Record<string, unknown>;
}

export function requestSchema(path: string): JsonSchema {
  const schema = operation(path).requestBody?.content["application/json"]?.schema;
  if (!schema) throw new Error(`POST ${path} has no JSON request schema`);
  return deref(doc, schema);
}

/** The request property `name` of POST `path`. */
export function property(path: string, name: string): JsonSchema {
  const schema = (requestSchema(path).properties as Record<string, JsonSchema> | undefined)?.[name];
  if (!schema) throw new Error(`POST ${path} has no request property ${name}`);
  return schema;
}

/** Validates a request body of POST `path`; returns the error text, or "" when the body is valid. */
export function bodyErrors(path: string, body: unknown): string {
  const validate = registry.compile(requestSchema(path));
  return validate(body) ? "" : describeErrors(validate.errors) || "invalid";
}

export { doc as bundle, operations };
