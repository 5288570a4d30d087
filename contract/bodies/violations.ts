/**
 * The edits that may break one constraint: a value just outside it (one past a bound, one item
 * too many, a value not listed, a wrong JSON type, a missing required property, an unexpected
 * one), or for a cross-field rule combinations of edits to the properties it mentions.
 */
import type { Constraint } from "./constraints.ts";
import { combinations, isObject, uniqueEdits, type Edit, type InstancePath, type Json } from "./edits.ts";
import type { ValueSource } from "./values.ts";

/** Sets of edits, each of which may break the constraint. */
export function violationEdits(constraint: Constraint, values: ValueSource): Edit[][] {
  const { node, instancePath: at, keyword } = constraint;
  const set = (value: Json): Edit[][] => [[{ path: at, value }]];
  const item = values.arrayItem(at);
  const items = (count: number): Json[] =>
    Array.from({ length: count }, (_, index) => (typeof item === "string" ? `${item}?n=${index}` : item));
  const number = (key: string): number => node[key] as number;
  switch (keyword) {
    case "enum":
      return outsideOf(node.enum as Json[]).flatMap(set);
    case "const":
      return outsideOf([node.const]).flatMap(set);
    case "minimum":
      return set(number("minimum") - 1);
    case "exclusiveMinimum":
      return set(number("exclusiveMinimum"));
    case "maximum":
      return set(number("maximum") + 1);
    case "exclusiveMaximum":
      return set(number("exclusiveMaximum"));
    case "multipleOf":
      return set(number("multipleOf") * 1.5);
    case "minLength":
      return number("minLength") > 0 ? set("x".repeat(number("minLength") - 1)) : [];
    case "maxLength":
      return set("x".repeat(number("maxLength") + 1));
    case "pattern":
      return ["", " ", "does not match the pattern"].flatMap(set);
    case "minItems":
      return number("minItems") > 0 ? set(items(number("minItems") - 1)) : [];
    case "maxItems":
      return set(items(number("maxItems") + 1));
    case "uniqueItems":
      return set([item, item]);
    case "type":
      return wrongTypeValues(node.type).flatMap(set);
    case "required":
      // Stryker disable next-line StringLiteral,BooleanLiteral: a required constraint always has its name; an edit without a value removes the property all the same (applyEdit)
      return [[{ path: [...at, constraint.name ?? ""], remove: true }]];
    case "additionalProperties":
    case "unevaluatedProperties":
      // Stryker disable next-line StringLiteral: any property outside the schema's, of any value, breaks a closed object alike
      return [[{ path: [...at, "unexpected_property"], value: "unexpected" }]];
    default: {
      // Cross-field rules: combinations of up to three edits to the properties they mention.
      const rule =
        keyword === "dependentRequired"
          ? {
              required: [
                constraint.name,
                // Stryker disable next-line StringLiteral,ArrayDeclaration: a dependentRequired constraint is named by a key of the map, which lists its dependents
                ...((node.dependentRequired as Record<string, string[]>)[constraint.name ?? ""] ?? []),
              ],
            }
          : { [keyword]: node[keyword] };
      return combinations(uniqueEdits(mentionEdits(rule, at, values)), 3).filter((edits) => edits.length > 0);
    }
  }
}

/** Edits that set, change or remove each property a (sub)schema mentions. */
export function mentionEdits(schema: Json, at: InstancePath, values: ValueSource): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    // A rule on the value itself (`not: {const: 4k}` under a property) is broken by that value.
    if ("const" in node) edits.push({ path: at, value: node.const });
    if (Array.isArray(node.enum)) for (const value of node.enum) edits.push({ path: at, value });
    const names = new Set<string>();
    if (Array.isArray(node.required)) for (const name of node.required) names.add(String(name));
    if (isObject(node.dependentRequired)) {
      for (const [name, deps] of Object.entries(node.dependentRequired)) {
        names.add(name);
        if (Array.isArray(deps)) for (const dep of deps) names.add(String(dep));
      }
    }
    if (isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        names.add(name);
        if (!isObject(child)) continue;
        if ("const" in child) edits.push({ path: [...at, name], value: child.const });
        if (Array.isArray(child.enum)) for (const value of child.enum) edits.push({ path: [...at, name], value });
        for (const bound of ["minItems", "maxItems"]) {
          if (typeof child[bound] === "number")
            edits.push({ path: [...at, name], value: values.arrayOf([...at, name], child[bound] as number) });
        }
      }
    }
    for (const name of names) {
      edits.push({ path: [...at, name], value: values.valid([...at, name]) });
      // Stryker disable next-line BooleanLiteral: an edit without a value removes the property all the same (applyEdit)
      edits.push({ path: [...at, name], remove: true });
    }
    for (const key of ["allOf", "anyOf", "oneOf", "not", "if", "then", "else"]) if (key in node) visit(node[key]);
  };
  visit(schema);
  return edits;
}

/** Values of the same JSON type as `allowed`'s first value that are not among them. */
function outsideOf(allowed: Json[]): Json[] {
  const first = allowed[0];
  const candidates: Json[] =
    typeof first === "number"
      ? [Math.max(...(allowed as number[])) + 1]
      : typeof first === "boolean"
        ? [!first]
        : // Stryker disable next-line StringLiteral: any text the enum does not list breaks it alike
          ["not-a-listed-value"];
  // Stryker disable next-line MethodExpression: a listed value passes the constraint, so no body made with it is kept
  return candidates.filter((value) => !allowed.includes(value));
}

function wrongTypeValues(type: Json): Json[] {
  const types = Array.isArray(type) ? type : [type];
  const samples: Array<[string, Json]> = [
    ["string", 12345],
    ["integer", "12"],
    ["number", "12"],
    ["boolean", "true"],
    ["array", "not-an-array"],
    ["object", "not-an-object"],
  ];
  return samples.filter(([name]) => types.includes(name)).map(([, value]) => value);
}
