/**
 * Negative request bodies generated from a request schema: for every constraint (enum, const,
 * bounds, lengths, item counts, required, type, closed objects, and each cross-field rule written
 * with not / anyOf / oneOf / if-then / dependentRequired) one body that breaks exactly that
 * constraint. "Exactly" is decided by the validator itself: the body fails the schema, and passes
 * the same schema with only that constraint removed. Where no small edit breaks a constraint
 * alone, a body that breaks it among others stands in: it must be rejected all the same.
 * Candidates are small edits of the description's own valid examples.
 */
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "../model/document.ts";
import type { SchemaRegistry } from "../model/schema-registry.ts";

type Json = unknown;
/** An instance path; `*` stands for the first item of an array. */
type InstancePath = string[];

export interface Constraint {
  keyword: string;
  /** The entry of `required`, or the key of `dependentRequired`. */
  name?: string;
  /** Where the keyword sits in the request schema. */
  schemaPath: Array<string | number>;
  instancePath: InstancePath;
  node: JsonSchema;
  /** Enclosing `if` schemas (and dependentSchemas triggers) that must hold for the constraint to apply. */
  conditions: JsonSchema[];
  /** The nearest `description` of a cross-field rule, which quotes the seed. */
  description?: string;
}

export interface NegativeCase {
  constraint: Constraint;
  /** The rule broken, for reports. */
  rule: string;
  body: Json;
  /** The other rules the body breaks, where no small edit breaks the constraint alone. */
  alsoBreaks?: string;
}

export interface NegativeCaseSet {
  cases: NegativeCase[];
  /** Constraints no small edit of the examples breaks at all. */
  uncovered: Array<{ rule: string }>;
}

interface Edit {
  path: InstancePath;
  /** undefined deletes the property. */
  value?: Json;
  remove?: boolean;
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
const MAX_CANDIDATES = 4_000;

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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
    conditions: JsonSchema[],
    description: string | undefined,
  ): void => {
    const ruleDescription = typeof node.description === "string" && schemaPath.length > 0 && !schemaPath.includes("properties")
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
    if (isObject(node.dependentRequired)) for (const name of Object.keys(node.dependentRequired)) push("dependentRequired", name, true);
    for (const keyword of CROSS_KEYWORDS) if (keyword in node) push(keyword, undefined, true);
    if (isObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        if (isObject(child)) walk(child, [...schemaPath, "properties", name], [...instancePath, name], conditions, description);
      }
    }
    if (isObject(node.items)) walk(node.items, [...schemaPath, "items"], [...instancePath, "*"], conditions, description);
    if (Array.isArray(node.prefixItems)) {
      node.prefixItems.forEach((child, index) => {
        if (isObject(child)) walk(child, [...schemaPath, "prefixItems", index], [...instancePath, String(index)], conditions, description);
      });
    }
    if (Array.isArray(node.allOf)) {
      node.allOf.forEach((child, index) => {
        if (isObject(child)) walk(child, [...schemaPath, "allOf", index], instancePath, conditions, ruleDescription);
      });
    }
    if (isObject(node.if) && isObject(node.then)) {
      walk(node.then, [...schemaPath, "then"], instancePath, [...conditions, node.if], ruleDescription);
    }
    if (isObject(node.dependentSchemas)) {
      for (const [name, child] of Object.entries(node.dependentSchemas)) {
        if (isObject(child)) {
          walk(child, [...schemaPath, "dependentSchemas", name], instancePath, [...conditions, { required: [name] }], ruleDescription);
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
  for (const segment of constraint.schemaPath) node = (node as Record<string | number, Json>)[segment] as Record<string, Json>;
  if (constraint.keyword === "required") {
    node.required = (node.required as string[]).filter((name) => name !== constraint.name);
  } else if (constraint.keyword === "dependentRequired") {
    const rest = { ...(node.dependentRequired as Record<string, Json>) };
    delete rest[constraint.name ?? ""];
    node.dependentRequired = rest;
  } else {
    delete node[constraint.keyword];
  }
  return copy;
}

export function negativeCases(schema: JsonSchema, examples: Json[], registry: SchemaRegistry): NegativeCaseSet {
  const validate = registry.compile(schema);
  const bases = baseBodies(schema, examples.filter((example) => validate(example)), (body) => validate(body) === true);
  const values = new ValueSource(schema, bases);
  const result: NegativeCaseSet = { cases: [], uncovered: [] };
  for (const constraint of constraints(schema)) {
    const rule = ruleText(constraint);
    const relaxed = registry.compile(withoutConstraint(schema, constraint));
    const breaksExactly = (body: Json): boolean => !validate(body) && relaxed(body) === true;
    let among: { body: Json; others: ErrorObject[] } | undefined;
    // Remembers the first body that breaks the constraint among others, in case none breaks it alone.
    const breaksAmong = (body: Json): void => {
      if (among || validate(body)) return;
      const errors = validate.errors ?? [];
      if (errors.some((error) => ownError(constraint, error))) among = { body, others: errors.filter((error) => !ownError(constraint, error)) };
    };
    const body = findBody(constraint, bases, values, (candidate) => {
      if (breaksExactly(candidate)) return true;
      breaksAmong(candidate);
      return false;
    });
    if (body !== undefined) result.cases.push({ constraint, rule, body });
    else if (among) result.cases.push({ constraint, rule, body: among.body, alsoBreaks: otherRules(among.others) });
    else result.uncovered.push({ rule });
  }
  return result;
}

/** The other rules a body breaks, each once by keyword and place (an `if` error only repeats its `then`'s). */
function otherRules(errors: ErrorObject[]): string {
  return [...new Set(errors.filter((error) => error.keyword !== "if").map((error) => `${error.keyword} (${error.schemaPath})`))].join(", ");
}

/** Whether a validation error is the constraint's own: its keyword at its place in the schema. */
function ownError(constraint: Constraint, error: ErrorObject): boolean {
  const at = `#/${[...constraint.schemaPath, constraint.keyword].join("/")}`;
  return error.schemaPath === at || error.schemaPath.startsWith(`${at}/`);
}

/** The examples, and each reduced to its required properties, as starting points. */
function baseBodies(schema: JsonSchema, examples: Json[], valid: (body: Json) => boolean): Json[] {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const bases: Json[] = [...examples];
  for (const example of examples) {
    if (!isObject(example)) continue;
    const reduced = Object.fromEntries(Object.entries(example).filter(([key]) => required.includes(key)));
    if (valid(reduced) && !bases.some((base) => JSON.stringify(base) === JSON.stringify(reduced))) bases.push(reduced);
  }
  return bases;
}

function findBody(constraint: Constraint, bases: Json[], values: ValueSource, breaksExactly: (body: Json) => boolean): Json {
  const enabling = uniqueEdits(constraint.conditions.flatMap((condition) => mentionEdits(condition, constraint.instancePath, values)))
    .filter((edit) => !edit.remove);
  const violations = violationEdits(constraint, values);
  let tried = 0;
  for (const base of bases) {
    for (const context of combinations(enabling, 2)) {
      for (const violation of violations) {
        if (++tried > MAX_CANDIDATES) return undefined;
        const body = applyEdits(base, [...context, ...violation]);
        if (breaksExactly(body)) return body;
      }
    }
  }
  return undefined;
}

/** Sets of edits, each of which may break the constraint. */
function violationEdits(constraint: Constraint, values: ValueSource): Edit[][] {
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
      return [[{ path: [...at, constraint.name ?? ""], remove: true }]];
    case "additionalProperties":
    case "unevaluatedProperties":
      return [[{ path: [...at, "unexpected_property"], value: "unexpected" }]];
    default: {
      // Cross-field rules: combinations of up to three edits to the properties they mention.
      const rule = keyword === "dependentRequired"
        ? { required: [constraint.name, ...((node.dependentRequired as Record<string, string[]>)[constraint.name ?? ""] ?? [])] }
        : { [keyword]: node[keyword] };
      return combinations(uniqueEdits(mentionEdits(rule, at, values)), 3).filter((edits) => edits.length > 0);
    }
  }
}

/** Edits that set, change or remove each property a (sub)schema mentions. */
function mentionEdits(schema: Json, at: InstancePath, values: ValueSource): Edit[] {
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
          if (typeof child[bound] === "number") edits.push({ path: [...at, name], value: values.arrayOf([...at, name], child[bound] as number) });
        }
      }
    }
    for (const name of names) {
      edits.push({ path: [...at, name], value: values.valid([...at, name]) });
      edits.push({ path: [...at, name], remove: true });
    }
    for (const key of ["allOf", "anyOf", "oneOf", "not", "if", "then", "else"]) if (key in node) visit(node[key]);
  };
  visit(schema);
  return edits;
}

function uniqueEdits(edits: Edit[]): Edit[] {
  const seen = new Set<string>();
  return edits.filter((edit) => {
    const key = JSON.stringify(edit);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** All combinations of at most `max` edits touching distinct paths, smallest first. */
function combinations(edits: Edit[], max: number): Edit[][] {
  const out: Edit[][] = [[]];
  const grow = (start: number, current: Edit[]): void => {
    if (current.length === max) return;
    for (let index = start; index < edits.length; index++) {
      const edit = edits[index] as Edit;
      if (current.some((other) => other.path.join("/") === edit.path.join("/"))) continue;
      const next = [...current, edit];
      out.push(next);
      grow(index + 1, next);
    }
  };
  grow(0, []);
  return out.sort((a, b) => a.length - b.length);
}

function applyEdits(base: Json, edits: Edit[]): Json {
  let body = structuredClone(base);
  for (const edit of edits) body = applyEdit(body, edit.path, edit);
  return body;
}

function applyEdit(node: Json, path: InstancePath, edit: Edit): Json {
  if (path.length === 0) return edit.remove ? undefined : structuredClone(edit.value);
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") {
    const array = Array.isArray(node) ? [...node] : [];
    const updated = applyEdit(array[0], rest, edit);
    if (updated === undefined) array.splice(0, 1);
    else array[0] = updated;
    return array;
  }
  const object: Record<string, Json> = isObject(node) ? { ...node } : {};
  const updated = applyEdit(object[head], rest, edit);
  if (updated === undefined) delete object[head];
  else object[head] = updated;
  return object;
}

/** Values of the same JSON type as `allowed`'s first value that are not among them. */
function outsideOf(allowed: Json[]): Json[] {
  const first = allowed[0];
  const candidates: Json[] =
    typeof first === "number" ? [Math.max(...(allowed as number[])) + 1] : typeof first === "boolean" ? [!first] : ["not-a-listed-value"];
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

/** Valid values for properties, taken from the examples first, then from the schema. */
class ValueSource {
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
        if (isObject(node.properties) && isObject(node.properties[segment])) next.push(node.properties[segment] as JsonSchema);
        if (Array.isArray(node.allOf)) for (const child of node.allOf) if (isObject(child)) collect(child);
      };
      nodes.forEach(collect);
      nodes = next;
    }
    return nodes[0] ?? {};
  }
}

/** A plain valid-looking value for a schema: default, const, first enum value, or one of its type. */
function sample(schema: JsonSchema): Json {
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
      return true;
    case "array": {
      const count = typeof schema.minItems === "number" ? Math.max(schema.minItems, 1) : 1;
      const item = sample(isObject(schema.items) ? schema.items : { type: "string" });
      return Array.from({ length: count }, (_, index) => (typeof item === "string" ? `${item}?n=${index}` : item));
    }
    case "object":
      return {};
    default:
      return "https://files.example.com/input";
  }
}
