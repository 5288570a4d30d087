/**
 * The constraints of a request schema, one per keyword and place: enum, const, bounds, lengths,
 * item counts, required, type, closed objects, and each cross-field rule written with not / anyOf
 * / oneOf / if-then / dependentRequired, with the `if` conditions under which it applies.
 */
import type { JsonSchema } from "../../model/document.ts";
import { isObject, type InstancePath, type Json } from "./edits.ts";

/** An enclosing `if` schema (or a dependentSchemas trigger), and the place in the body it reads. */
export interface Condition {
  schema: JsonSchema;
  instancePath: InstancePath;
}

export interface Constraint {
  keyword: string;
  /** The entry of `required`, or the key of `dependentRequired`. */
  name?: string;
  /** Where the keyword sits in the request schema. */
  schemaPath: Array<string | number>;
  instancePath: InstancePath;
  node: JsonSchema;
  /** Enclosing `if` schemas (and dependentSchemas triggers) that must hold for the constraint to apply. */
  conditions: Condition[];
  /** The nearest `description` of a cross-field rule, which quotes the specification. */
  description?: string;
}

const VALUE_KEYWORDS = [
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
];
const CROSS_KEYWORDS = ["not", "anyOf", "oneOf"];

export function ruleText(constraint: Constraint): string {
  const name = constraint.name ? ` "${constraint.name}"` : "";
  const where = constraint.instancePath.length ? ` on ${constraint.instancePath.join(".")}` : "";
  const quote = constraint.description ? ` - ${constraint.description.trim().split("\n").join(" ")}` : "";
  return `${constraint.keyword}${name}${where} (#/${constraint.schemaPath.join("/")})${quote}`;
}

/** Every constraint of `schema`, in document order. */
export function constraints(schema: JsonSchema): Constraint[] {
  const found: Constraint[] = [];
  const walk = (
    node: JsonSchema,
    schemaPath: Array<string | number>,
    instancePath: InstancePath,
    conditions: Condition[],
    description: string | undefined,
  ): void => {
    const ruleDescription =
      typeof node.description === "string" && schemaPath.length > 0 && !schemaPath.includes("properties")
        ? node.description
        : description;
    const push = (keyword: string, name?: string, cross = false): void => {
      found.push({
        keyword,
        ...(name !== undefined ? { name } : {}),
        schemaPath,
        instancePath,
        node,
        conditions,
        ...(cross || conditions.length ? (ruleDescription ? { description: ruleDescription } : {}) : {}),
      });
    };
    for (const keyword of VALUE_KEYWORDS) {
      // A wrong type always breaks the enum or const as well, so it is only tried on its own.
      if (keyword === "type" && ("enum" in node || "const" in node)) continue;
      if (keyword in node) push(keyword);
    }
    if (Array.isArray(node.required)) for (const name of node.required as string[]) push("required", name);
    if (node.additionalProperties === false) push("additionalProperties");
    if (node.unevaluatedProperties === false) push("unevaluatedProperties");
    if (isObject(node.dependentRequired))
      for (const name of Object.keys(node.dependentRequired)) push("dependentRequired", name, true);
    for (const keyword of CROSS_KEYWORDS) if (keyword in node) push(keyword, undefined, true);
    if (isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        if (isObject(child))
          walk(child, [...schemaPath, "properties", name], [...instancePath, name], conditions, description);
      }
    }
    if (isObject(node.items))
      walk(node.items, [...schemaPath, "items"], [...instancePath, "*"], conditions, description);
    if (Array.isArray(node.prefixItems)) {
      node.prefixItems.forEach((child, index) => {
        if (isObject(child))
          walk(child, [...schemaPath, "prefixItems", index], [...instancePath, String(index)], conditions, description);
      });
    }
    if (Array.isArray(node.allOf)) {
      node.allOf.forEach((child, index) => {
        if (isObject(child)) walk(child, [...schemaPath, "allOf", index], instancePath, conditions, ruleDescription);
      });
    }
    if (isObject(node.if) && isObject(node.then)) {
      walk(
        node.then,
        [...schemaPath, "then"],
        instancePath,
        [...conditions, { schema: node.if, instancePath }],
        ruleDescription,
      );
    }
    if (isObject(node.dependentSchemas)) {
      for (const [name, child] of Object.entries(node.dependentSchemas)) {
        if (isObject(child)) {
          walk(
            child,
            [...schemaPath, "dependentSchemas", name],
            instancePath,
            [...conditions, { schema: { required: [name] }, instancePath }],
            ruleDescription,
          );
        }
      }
    }
  };
  walk(schema, [], [], [], undefined);
  return found;
}

/** A copy of `schema` without `constraint`. */
export function withoutConstraint(schema: JsonSchema, constraint: Constraint): JsonSchema {
  const copy = structuredClone(schema);
  let node: Record<string, Json> = copy;
  for (const segment of constraint.schemaPath)
    node = (node as Record<string | number, Json>)[segment] as Record<string, Json>;
  if (constraint.keyword === "required") {
    node.required = (node.required as string[]).filter((name) => name !== constraint.name);
  } else if (constraint.keyword === "dependentRequired") {
    const rest = { ...(node.dependentRequired as Record<string, Json>) };
    // Stryker disable next-line StringLiteral: a dependentRequired constraint is always named by its key
    delete rest[constraint.name ?? ""];
    node.dependentRequired = rest;
  } else {
    delete node[constraint.keyword];
  }
  return copy;
}
