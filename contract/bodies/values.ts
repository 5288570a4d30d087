/**
 * Valid-looking values for the properties of a request schema, taken from the description's
 * examples first, then from the schema (default, const, first enum value, or one of its type).
 */
import type { JsonSchema } from "../../model/document.ts";
import { isObject, type InstancePath, type Json } from "./edits.ts";

/** Valid values for properties, taken from the examples first, then from the schema. */
export class ValueSource {
  constructor(
    private readonly schema: JsonSchema,
    private readonly bases: Json[],
  ) {}

  valid(path: InstancePath): Json {
    const seen = this.fromExamples(path);
    if (seen !== undefined) return seen;
    return sample(this.schemaAt(path));
  }

  arrayItem(path: InstancePath): Json {
    const arrayPath = path.at(-1) === "*" ? path.slice(0, -1) : path;
    const existing = this.fromExamples(arrayPath);
    if (Array.isArray(existing) && existing.length > 0) return existing[0];
    const schema = this.schemaAt(arrayPath);
    return sample(isObject(schema.items) ? schema.items : {});
  }

  arrayOf(path: InstancePath, count: number): Json[] {
    const item = this.arrayItem(path);
    return Array.from({ length: count }, (_, index) => (typeof item === "string" ? `${item}?n=${index}` : item));
  }

  private fromExamples(path: InstancePath): Json {
    for (const base of this.bases) {
      let node: Json = base;
      for (const segment of path) node = Array.isArray(node) ? node[0] : isObject(node) ? node[segment] : undefined;
      if (node !== undefined) return node;
    }
    return undefined;
  }

  /** The property schema at `path`, looked up through properties, items and allOf. */
  private schemaAt(path: InstancePath): JsonSchema {
    let nodes: JsonSchema[] = [this.schema];
    for (const segment of path) {
      const next: JsonSchema[] = [];
      const collect = (node: JsonSchema): void => {
        if (segment === "*" && isObject(node.items)) next.push(node.items);
        if (isObject(node.properties) && isObject(node.properties[segment]))
          next.push(node.properties[segment] as JsonSchema);
        if (Array.isArray(node.allOf))
          // Stryker disable next-line ConditionalExpression: an allOf entry that is not an object is a boolean schema, with no properties, items or allOf to collect
          for (const child of node.allOf) if (isObject(child)) collect(child);
      };
      nodes.forEach(collect);
      nodes = next;
    }
    return nodes[0] ?? {};
  }
}

/** A plain valid-looking value for a schema: default, const, first enum value, or one of its type. */
export function sample(schema: JsonSchema): Json {
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const minimum = typeof schema.minimum === "number" ? schema.minimum : 1;
  switch (type) {
    case "integer":
    case "number":
      return minimum;
    case "boolean":
      // Stryker disable next-line BooleanLiteral: either boolean is a value of its type, and nothing reads which
      return true;
    case "array": {
      const count = typeof schema.minItems === "number" ? Math.max(schema.minItems, 1) : 1;
      // Stryker disable next-line ObjectLiteral,StringLiteral: a schema without a type samples as a string too (the default branch)
      const item = sample(isObject(schema.items) ? schema.items : { type: "string" });
      return Array.from({ length: count }, (_, index) => (typeof item === "string" ? `${item}?n=${index}` : item));
    }
    case "object":
      return {};
    default:
      return "https://files.example.com/input";
  }
}
