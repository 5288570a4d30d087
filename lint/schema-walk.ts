import type { JsonSchema, OpenApiDocument } from "../model/document.ts";
import type { JsonPath } from "./finding.ts";
import { isObject } from "./refs.ts";

export interface SchemaNode {
  schema: JsonSchema;
  path: JsonPath;
  /** Set when the schema is the value of a `properties` entry: the property's name. */
  propertyName?: string;
  /**
   * Whether the schema sits in a branch of an applicator (allOf, anyOf, oneOf, not, if/then/else,
   * dependentSchemas) below its root: there `properties` mostly constrain, rather than declare, fields.
   */
  inBranch?: boolean;
}

/** JSON Schema 2020-12 keywords whose value is a schema, a list of schemas or a map of schemas. */
const SINGLE = [
  "items",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "contentSchema",
];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs"];
const BRANCHES = new Set(["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"]);

/** The schema and every schema nested in it, depth first, with their paths. */
export function* subschemas(
  schema: JsonSchema,
  path: JsonPath,
  propertyName?: string,
  inBranch = false,
): Generator<SchemaNode> {
  yield { schema, path, inBranch, ...(propertyName === undefined ? {} : { propertyName }) };
  for (const key of SINGLE) {
    const child = schema[key];
    if (isObject(child)) yield* subschemas(child, [...path, key], undefined, inBranch || BRANCHES.has(key));
  }
  for (const key of LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [index, child] of list.entries()) {
      if (isObject(child)) yield* subschemas(child, [...path, key, index], undefined, inBranch || BRANCHES.has(key));
    }
  }
  for (const key of MAPS) {
    const map = schema[key];
    if (!isObject(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      if (isObject(child))
        yield* subschemas(
          child,
          [...path, key, name],
          key === "properties" ? name : undefined,
          inBranch || BRANCHES.has(key),
        );
    }
  }
}

/** Values at a `schema` key outside schemas: parameter, header and media-type schemas. */
function collectSchemaFields(node: unknown, path: JsonPath, out: SchemaNode[]): void {
  if (Array.isArray(node)) {
    node.forEach((child, index) => {
      collectSchemaFields(child, [...path, index], out);
    });
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    // Example payloads and extension values are data, not description.
    if (key === "example" || key === "examples" || key.startsWith("x-")) continue;
    if (key === "schema" && isObject(child)) out.push({ schema: child, path: [...path, key] });
    else collectSchemaFields(child, [...path, key], out);
  }
}

/** The top-level schemas of the document: named components, and every inline `schema`. */
export function schemaRoots(doc: OpenApiDocument): SchemaNode[] {
  const roots: SchemaNode[] = Object.entries(doc.components.schemas ?? {}).map(([name, schema]) => ({
    schema,
    path: ["components", "schemas", name],
  }));
  collectSchemaFields(doc.paths, ["paths"], roots);
  for (const [kind, group] of Object.entries(doc.components)) {
    if (kind !== "schemas") collectSchemaFields(group, ["components", kind], roots);
  }
  return roots;
}

/** Every schema of the document, nested ones included. */
export function* allSchemas(doc: OpenApiDocument): Generator<SchemaNode> {
  for (const root of schemaRoots(doc)) yield* subschemas(root.schema, root.path);
}
