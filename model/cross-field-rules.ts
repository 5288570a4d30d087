/**
 * Reads the cross-field rules of a request schema (the `if`/`then` and `dependentRequired` entries
 * of its `allOf`, openapi/README.md rule 4) into data the quote checks without a JSON Schema
 * validator, which the client does not ship. Only rules that involve a field the pricing reads
 * matter to a quote (V-A's `2k` "only when extending", V-F's "an extension adds 5 to 15 s"); such a
 * rule in a shape this reader does not know stops the generator rather than being left unchecked.
 */
import type { JsonSchema } from "./document.ts";
import type { CrossFieldRule, FieldCondition, FieldLimits, Scalar } from "../runtime/costs/pricing.ts";

const LIMIT_KEYS = ["enum", "minimum", "maximum", "minItems", "maxItems"] as const;

const keysWithin = (schema: JsonSchema, allowed: readonly string[]): boolean =>
  Object.keys(schema).every((key) => allowed.includes(key));

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The field names of `{required: [one]}`, the only shape a branch of `anyOf`/`not` may have here. */
function requiredOnly(schema: unknown): string[] | undefined {
  if (!isObject(schema) || !keysWithin(schema, ["required"]) || !Array.isArray(schema.required)) return undefined;
  return schema.required as string[];
}

/** The alternatives of an `if`: each a list of conditions that must all hold; undefined when unknown. */
function triggers(schema: unknown): FieldCondition[][] | undefined {
  if (!isObject(schema)) return undefined;
  if (keysWithin(schema, ["anyOf"]) && Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.map(triggers);
    return branches.every((branch) => branch !== undefined) ? branches.flat() : undefined;
  }
  if (!keysWithin(schema, ["required", "properties"]) || !Array.isArray(schema.required)) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  // A `const` only binds when its field is also required: otherwise an absent field would match.
  if (
    !Object.entries(properties).every(
      ([name, value]) => (schema.required as string[]).includes(name) && keysWithin(value, ["const"]),
    )
  )
    return undefined;
  return [
    (schema.required as string[]).map((field) =>
      properties[field] ? { field, equals: properties[field].const as Scalar } : { field, present: true },
    ),
  ];
}

type Consequence = Omit<CrossFieldRule, "description" | "when">;

/** The request's own properties, whose enums a `not: {const}` narrows. */
type BaseProperties = Readonly<Record<string, JsonSchema>>;

function limitsOf(
  properties: Record<string, JsonSchema>,
  base: BaseProperties,
): Record<string, FieldLimits> | undefined {
  const limits: Record<string, FieldLimits> = {};
  for (const [field, schema] of Object.entries(properties)) {
    // `not: {const: 4k}` (V-C's video-edit mode): the field's own enum less that value.
    const excluded = isObject(schema.not) && keysWithin(schema, ["not"]) && keysWithin(schema.not, ["const"]);
    const own = base[field]?.enum;
    if (excluded && Array.isArray(own)) {
      limits[field] = { enum: (own as Scalar[]).filter((value) => value !== (schema.not as JsonSchema).const) };
      continue;
    }
    if (!keysWithin(schema, [...LIMIT_KEYS, "const"])) return undefined;
    const limit: Record<string, unknown> = {};
    for (const key of LIMIT_KEYS) if (schema[key] !== undefined) limit[key] = schema[key];
    if (schema.const !== undefined) limit.enum = [schema.const];
    limits[field] = limit as FieldLimits;
  }
  return limits;
}

/** The `then` of a rule; undefined when it has a shape this reader does not know. */
function consequence(schema: unknown, base: BaseProperties): Consequence | undefined {
  if (!isObject(schema) || !keysWithin(schema, ["required", "properties", "not", "anyOf"])) return undefined;
  const out: { -readonly [K in keyof Consequence]: Consequence[K] } = {};
  if (schema.required !== undefined) out.required = schema.required as string[];
  if (schema.properties !== undefined) {
    const limits = limitsOf(schema.properties as Record<string, JsonSchema>, base);
    if (!limits) return undefined;
    out.limits = limits;
  }
  if (schema.not !== undefined) {
    const not = schema.not as JsonSchema;
    const branches =
      Array.isArray(not.anyOf) && keysWithin(not, ["anyOf"]) ? not.anyOf.map(requiredOnly) : [requiredOnly(not)];
    if (!branches.every((branch) => branch?.length === 1)) return undefined;
    out.forbidden = branches.flat() as string[];
  }
  if (schema.anyOf !== undefined) {
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf.map(requiredOnly) : [undefined];
    if (!branches.every((branch) => branch?.length === 1)) return undefined;
    out.requiredOneOf = branches.flat() as string[];
  }
  return out;
}

/** Every field name a schema mentions in `required`, `properties` or `dependentRequired`. */
function mentions(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) mentions(item, found);
  if (!isObject(value)) return found;
  for (const [key, child] of Object.entries(value)) {
    if (key === "required" && Array.isArray(child)) for (const name of child) found.add(String(name));
    else if ((key === "properties" || key === "dependentRequired") && isObject(child)) {
      for (const [name, inner] of Object.entries(child)) {
        found.add(name);
        mentions(inner, found);
      }
    } else mentions(child, found);
  }
  return found;
}

function readRule(
  entry: JsonSchema,
  base: BaseProperties,
): { when: FieldCondition[][]; then: Consequence }[] | undefined {
  if (keysWithin(entry, ["description", "dependentRequired"]) && isObject(entry.dependentRequired)) {
    return Object.entries(entry.dependentRequired as Record<string, string[]>).map(([field, required]) => ({
      when: [[{ field, present: true }]],
      then: { required },
    }));
  }
  if (!keysWithin(entry, ["description", "if", "then"])) return undefined;
  const when = triggers(entry.if);
  const then = consequence(entry.then, base);
  return when && then ? [{ when, then }] : undefined;
}

/**
 * The cross-field rules of `allOf` that mention a field of `priced`, one per alternative of their
 * `if`. Throws, naming the route, for such a rule in a shape this reader does not know.
 */
export function crossFieldRules(
  where: string,
  allOf: readonly JsonSchema[],
  priced: ReadonlySet<string>,
  base: BaseProperties = {},
): CrossFieldRule[] {
  const rules: CrossFieldRule[] = [];
  for (const entry of allOf) {
    if (![...mentions(entry)].some((field) => priced.has(field))) continue;
    const read = readRule(entry, base);
    const description = String(entry.description ?? "")
      .trim()
      .replace(/\s+/g, " ");
    if (!read)
      throw new Error(
        `${where}: a cross-field rule of the request involves a priced field in a shape the quote cannot check: ${description || JSON.stringify(entry)}`,
      );
    for (const { when, then } of read)
      for (const conditions of when) rules.push({ description, when: conditions, ...then });
  }
  return rules;
}
