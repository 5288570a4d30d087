/** Small readers of schema shapes that the service model's readers share. */
import {
  deref,
  type JsonSchema,
  type MediaType,
  type OpenApiDocument,
  type Operation,
  type ResponseObject,
} from "./document.ts";

export function fail(message: string): never {
  throw new Error(`service model: ${message}`);
}

/** The JSON schema of a content map, dereferenced. */
export function jsonSchema(
  doc: OpenApiDocument,
  content: Record<string, MediaType> | undefined,
): JsonSchema | undefined {
  const schema = content?.["application/json"]?.schema;
  return schema ? deref(doc, schema) : undefined;
}

export function response(doc: OpenApiDocument, where: string, operation: Operation, status: string): ResponseObject {
  return deref(doc, operation.responses[status] ?? fail(`${where} has no ${status} response`));
}

/** A schema and its `allOf` members (recursively), dereferenced. */
export function members(doc: OpenApiDocument, schema: JsonSchema): JsonSchema[] {
  const nested = ((schema.allOf as JsonSchema[] | undefined) ?? []).flatMap((member) =>
    members(doc, deref(doc, member)),
  );
  return [schema, ...nested];
}

/** The properties of a schema and its allOf members, dereferenced (later members refine earlier ones). */
export function mergedProperties(doc: OpenApiDocument, schema: JsonSchema): Record<string, JsonSchema[]> {
  const found: Record<string, JsonSchema[]> = {};
  for (const member of members(doc, schema)) {
    for (const [name, property] of Object.entries((member.properties ?? {}) as Record<string, JsonSchema>)) {
      (found[name] ??= []).push(deref(doc, property));
    }
  }
  return found;
}

export function mergedRequired(doc: OpenApiDocument, schema: JsonSchema): string[] {
  return [...new Set(members(doc, schema).flatMap((member) => (member.required as string[] | undefined) ?? []))];
}

/** The schema name a `$ref` to components/schemas names. */
export function schemaName(ref: unknown, where: string): string {
  const name =
    typeof ref === "object" && ref !== null
      ? /^#\/components\/schemas\/([^/]+)$/.exec(String((ref as { $ref?: string }).$ref))?.[1]
      : undefined;
  return name ?? fail(`${where} is not a $ref to a schema of components/schemas`);
}

/** The `const` a schema property fixes, looked up through allOf members at a path such as ["error", "code"]. */
export function constAt(doc: OpenApiDocument, schema: JsonSchema, path: readonly string[]): string | null {
  const [head, ...rest] = path;
  if (head === undefined) return typeof schema.const === "string" ? schema.const : null;
  for (const property of mergedProperties(doc, schema)[head] ?? []) {
    const found = constAt(doc, property, rest);
    if (found !== null) return found;
  }
  return null;
}
