import type { JsonSchema, OpenApiDocument, Operation } from "../../../model/document.ts";
import type { Finding, HouseRule, JsonPath } from "../../finding.ts";
import { follow, isObject, type Json } from "../../refs.ts";
import { routes } from "../../routes.ts";
import { subschemas } from "../../schema-walk.ts";

/**
 * The fields a price may depend on: the request body's properties (declarations before
 * constraints) and the query parameters, each with its schema.
 */
function declaredFields(doc: OpenApiDocument, operation: Operation, where: JsonPath): Map<string, JsonSchema> {
  const fields = new Map<string, JsonSchema>();
  for (const parameter of operation.parameters ?? []) {
    const resolved = follow(doc, parameter, where)?.node;
    if (resolved?.in === "query" && typeof resolved.name === "string")
      fields.set(resolved.name, (resolved.schema ?? {}) as JsonSchema);
  }
  const body = follow(doc, operation.requestBody, where)?.node;
  for (const media of Object.values((body?.content ?? {}) as Record<string, Json>)) {
    const schema = follow(doc, media.schema, where);
    if (schema === undefined) continue;
    const nodes = [...subschemas(schema.node, schema.path)].sort((a, b) => Number(a.inBranch) - Number(b.inBranch));
    for (const { schema: property, propertyName } of nodes) {
      if (propertyName !== undefined && !fields.has(propertyName)) fields.set(propertyName, property);
    }
  }
  return fields;
}

/** The values a field can take, as rate-table keys; undefined when not enumerable. */
export function tableKeys(schema: JsonSchema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (schema.const !== undefined) return [String(schema.const)];
  return schema.type === "boolean" ? ["true", "false"] : undefined;
}

/** Every field name an x-pricing value refers to, with where it is named. */
function referencedFields(pricing: Json, path: JsonPath): Array<{ field: string; path: JsonPath }> {
  const found: Array<{ field: string; path: JsonPath }> = [];
  // Stryker disable next-line ArrayDeclaration: a stand-in item is no object and is skipped, as no item at all.
  const components = Array.isArray(pricing.components) ? pricing.components : [];
  components.forEach((component: unknown, index: number) => {
    if (!isObject(component)) return;
    const at: JsonPath = [...path, "components", index];
    const rateBy = isObject(component.rateBy) ? component.rateBy : {};
    for (const field of Array.isArray(rateBy.fields) ? rateBy.fields : [])
      found.push({ field: String(field), path: [...at, "rateBy"] });
    const hidden = isObject(component.rateNotShown) ? component.rateNotShown : {};
    for (const field of Array.isArray(hidden.by) ? hidden.by : [])
      found.push({ field: String(field), path: [...at, "rateNotShown"] });
    const per = isObject(component.per) ? component.per : {};
    const itemsBeyond = isObject(per.itemsBeyond) ? per.itemsBeyond : {};
    for (const field of [per.field, per.mediaSeconds, itemsBeyond.field])
      if (typeof field === "string") found.push({ field, path: [...at, "per"] });
    (Array.isArray(component.when) ? component.when : []).forEach((condition: unknown, position: number) => {
      if (isObject(condition) && typeof condition.field === "string")
        found.push({ field: condition.field, path: [...at, "when", position] });
    });
  });
  return found;
}

/** Keys of a rate table level that are not values of the field it is keyed by. */
function strayKeys(
  table: unknown,
  fields: string[],
  schemas: Map<string, JsonSchema>,
  depth = 0,
): Array<{ field: string; key: string; allowed: string[] }> {
  const field = fields[depth];
  if (!isObject(table) || field === undefined) return [];
  const allowed = tableKeys(schemas.get(field) ?? {});
  return Object.entries(table).flatMap(([key, next]) => [
    ...(allowed !== undefined && !allowed.includes(key) ? [{ field, key, allowed }] : []),
    ...strayKeys(next, fields, schemas, depth + 1),
  ]);
}

/**
 * x-pricing names only fields the request declares, and a rate table is keyed by values those
 * fields can take, so the cost tables and quotes read prices for requests that can exist.
 */
const rule: HouseRule = {
  description:
    "The cost tables and quotes read x-pricing against request bodies: it names only fields the request declares, and its rate tables are keyed by values those fields can take.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { method, path, where, operation } of routes(doc)) {
      const pricing = operation["x-pricing"];
      if (!isObject(pricing)) continue;
      const route = `${method.toUpperCase()} ${path}`;
      const fields = declaredFields(doc, operation, where);
      for (const { field, path: at } of referencedFields(pricing, [...where, "x-pricing"])) {
        if (!fields.has(field)) {
          findings.push({
            path: at,
            message: `${route}: x-pricing refers to the field "${field}", which the request does not declare: correct the name, or declare the field in the request.`,
          });
        }
      }
      // Stryker disable next-line ArrayDeclaration: a stand-in item is no object: its rateBy is {}, with no table to check.
      (Array.isArray(pricing.components) ? pricing.components : []).forEach((component: unknown, index: number) => {
        const rateBy = isObject(component) && isObject(component.rateBy) ? component.rateBy : {};
        // Stryker disable next-line ArrayDeclaration: a table keyed by no field list has no known field at any level, so no key is stray either way.
        const keyedBy = (Array.isArray(rateBy.fields) ? rateBy.fields : []).map(String);
        for (const { field, key, allowed } of strayKeys(rateBy.table, keyedBy, fields)) {
          findings.push({
            path: [...where, "x-pricing", "components", index, "rateBy", "table"],
            message: `${route}: the rate table has the key "${key}", which is not a value of ${field} (${allowed.join(", ")}): correct the key, or the field's enum.`,
          });
        }
      });
    }
    return findings;
  },
};

export default rule;
