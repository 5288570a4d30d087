/**
 * Reads the price tables off the bundled description: for every operation with `x-pricing` or
 * `x-not-shown.price`, its pricing and the rules (type, enum, default, range, requiredness) of the
 * fields its pricing reads. Fails, naming the route, when the pricing reads a field the request does
 * not define, or when a fully shown rate table lacks a rate for some allowed value.
 */
import { deref, operations, type JsonSchema, type OpenApiDocument, type Operation } from "./document.ts";
import { crossFieldRules } from "./cross-field-rules.ts";
import type {
  Condition,
  FieldRule,
  MediaRule,
  PriceTables,
  PricingComponent,
  PricingExtension,
  RateTable,
  RoutePricing,
  Scalar,
} from "../runtime/costs/pricing.ts";

type Properties = Record<string, JsonSchema>;

interface RequestShape {
  properties: Properties;
  required: readonly string[];
  closed: boolean;
  /** The schema's `allOf`, where its cross-field rules live. */
  allOf: readonly JsonSchema[];
}

function requestShape(doc: OpenApiDocument, method: string, operation: Operation): RequestShape {
  if (method === "get") {
    // The query of a search; parameters stay open since their full list is not always shown.
    const properties: Properties = {};
    const required: string[] = [];
    for (const raw of operation.parameters ?? []) {
      const parameter = deref(doc, raw);
      if (parameter.in !== "query" || !parameter.name) continue;
      properties[parameter.name] = parameter.schema ?? {};
      if (parameter.required) required.push(parameter.name);
    }
    return { properties, required, closed: false, allOf: [] };
  }
  const schema = deref(doc, operation.requestBody?.content["application/json"]?.schema ?? {});
  return {
    properties: Object.fromEntries(
      Object.entries((schema.properties ?? {}) as Properties).map(([name, value]) => [name, deref(doc, value)]),
    ),
    required: (schema.required ?? []) as string[],
    closed: schema.additionalProperties === false,
    allOf: (schema.allOf ?? []) as JsonSchema[],
  };
}

const conditionField = (condition: Condition): string | undefined =>
  "field" in condition ? condition.field : undefined;

/** Every body field the pricing reads, with the media fields whose seconds it reads. */
function fieldsRead(pricing: PricingExtension): { fields: Set<string>; media: Set<string> } {
  const fields = new Set<string>();
  const media = new Set<string>();
  for (const component of pricing.components) {
    for (const field of component.rateBy?.fields ?? component.rateNotShown?.by ?? []) fields.add(field);
    for (const condition of component.when ?? []) {
      const field = conditionField(condition);
      if (field) fields.add(field);
    }
    const per = component.per;
    if (per && "field" in per) fields.add(per.field);
    if (per && "itemsBeyond" in per) fields.add(per.itemsBeyond.field);
    if (per && "mediaSeconds" in per) media.add(per.mediaSeconds);
  }
  for (const field of media) fields.add(field);
  return { fields, media };
}

const RULE_KEYS = ["enum", "default", "minimum", "maximum", "minItems", "maxItems"] as const;

function fieldRule(schema: JsonSchema, required: boolean): FieldRule {
  const rule: Record<string, unknown> = {};
  if (typeof schema.type === "string") rule.type = schema.type;
  for (const key of RULE_KEYS) if (schema[key] !== undefined) rule[key] = schema[key];
  if (schema.const !== undefined) rule.enum = [schema.const];
  rule.required = required;
  return rule as unknown as FieldRule;
}

function mediaRule(schema: JsonSchema): MediaRule {
  const media = (schema["x-media"] ?? {}) as Record<string, unknown>;
  const rule: Record<string, unknown> = { list: schema.type === "array" };
  for (const key of ["minDurationSeconds", "maxDurationSeconds", "maxCombinedDurationSeconds", "conditionalLimits"]) {
    if (media[key] !== undefined) rule[key] = media[key];
  }
  return rule as unknown as MediaRule;
}

/** The values a rate table must be keyed by: an enum's values, or true/false. */
function allowedValues(where: string, field: string, rule: FieldRule | undefined): string[] {
  if (rule?.enum) return rule.enum.map(String);
  if (rule?.type === "boolean") return ["true", "false"];
  throw new Error(`${where}: x-pricing looks a rate up by ${field}, which has neither an enum nor type boolean`);
}

/**
 * Fails when a rate table is keyed by a value the field does not allow, when a fully shown price
 * has no rate for some combination of allowed values, or when a condition compares a field with a
 * value it cannot take: each would silently misprice.
 */
function checkAgainstSchema(
  where: string,
  pricing: PricingExtension,
  fields: Record<string, FieldRule>,
  fullyShown: boolean,
): void {
  for (const component of pricing.components) {
    const what = `${where}: x-pricing "${component.label}"`;
    for (const condition of component.when ?? []) {
      if (!("field" in condition) || !("equals" in condition)) continue;
      const rule = fields[condition.field]!;
      const typeOk =
        rule.type === undefined || typeof condition.equals === (rule.type === "integer" ? "number" : rule.type);
      if (!typeOk || (rule.enum && !rule.enum.includes(condition.equals))) {
        throw new Error(
          `${what} compares ${condition.field} with ${JSON.stringify(condition.equals)}, which it cannot take`,
        );
      }
    }
    for (const field of component.rateNotShown?.by ?? []) allowedValues(where, field, fields[field]);
    checkRateSources(what, pricing, component, fullyShown);
    if (!component.rateBy) continue;
    const walk = (node: number | RateTable | undefined, depth: number, keys: string[]): void => {
      const field = component.rateBy!.fields[depth];
      if (field === undefined) {
        if (typeof node !== "number" && fullyShown) throw new Error(`${what} has no rate for ${keys.join(", ")}`);
        return;
      }
      const allowed = allowedValues(where, field, fields[field]);
      const extra = typeof node === "object" ? Object.keys(node).filter((key) => !allowed.includes(key)) : [];
      if (extra.length)
        throw new Error(
          `${what} has rates for ${field} = ${extra.join(", ")}, which ${field} does not allow (${allowed.join(", ")})`,
        );
      for (const value of allowed)
        walk(typeof node === "object" ? node[value] : undefined, depth + 1, [...keys, `${field}=${value}`]);
    };
    walk(component.rateBy.table, 0, []);
  }
}

/**
 * A rate that is not shown sits on a route whose price is not fully shown, one per route (supplied
 * rates are keyed by route); a rate following another's follows that one.
 */
function checkRateSources(
  what: string,
  pricing: PricingExtension,
  component: PricingComponent,
  fullyShown: boolean,
): void {
  if (component.rateNotShown && fullyShown)
    throw new Error(`${what} has a rate that is not shown, but the operation has no x-not-shown.price`);
  if (component.rateNotShown && pricing.components.filter((other) => other.rateNotShown).length > 1)
    throw new Error(`${what}: more than one component's rate is not shown; supplied rates could not tell them apart`);
  const follows = component.rateTimes?.component;
  if (follows !== undefined && !pricing.components.some((other) => other.label === follows && other.rateNotShown))
    throw new Error(`${what} follows the rate of "${follows}", which is no component whose rate is not shown`);
}

function facts(pricing: PricingExtension): Record<string, Scalar[]> {
  const found: Record<string, Scalar[]> = {};
  for (const component of pricing.components) {
    for (const condition of component.when ?? []) {
      if (!("fact" in condition)) continue;
      const values = (found[condition.fact] ??= []);
      if (!values.includes(condition.equals)) values.push(condition.equals);
    }
  }
  return found;
}

function routePricing(doc: OpenApiDocument, path: string, method: string, operation: Operation): RoutePricing {
  const where = `${method.toUpperCase()} ${path}`;
  const pricing = (operation["x-pricing"] ?? null) as PricingExtension | null;
  const notShown = ((operation["x-not-shown"] ?? {}) as { price?: string }).price ?? null;
  const shape = requestShape(doc, method, operation);
  const read = pricing ? fieldsRead(pricing) : { fields: new Set<string>(), media: new Set<string>() };
  const fields: Record<string, FieldRule> = {};
  const media: Record<string, MediaRule> = {};
  for (const field of read.fields) {
    const schema = shape.properties[field];
    if (!schema) throw new Error(`${where}: x-pricing reads ${field}, which the request does not define`);
    fields[field] = fieldRule(schema, shape.required.includes(field));
    if (read.media.has(field)) media[field] = mediaRule(schema);
  }
  if (pricing) checkAgainstSchema(where, pricing, fields, notShown === null);
  const model = operation["x-model-label"];
  return {
    method: method as "get" | "post",
    operationId: operation.operationId,
    ...(typeof model === "string" ? { model } : {}),
    summary: operation.summary ?? "",
    pricing,
    notShown,
    bodyIn: method === "get" ? "query" : "body",
    fields,
    crossFieldRules: crossFieldRules(where, shape.allOf, read.fields, shape.properties),
    knownFields: shape.closed ? Object.keys(shape.properties) : null,
    media,
    facts: pricing ? facts(pricing) : {},
  };
}

/** The price tables of every priced route, keyed by path, in path order. */
export function priceTables(doc: OpenApiDocument): PriceTables {
  const tables: Record<string, RoutePricing> = {};
  for (const { path, method, operation } of operations(doc)) {
    if (
      operation["x-pricing"] === undefined &&
      (operation["x-not-shown"] as { price?: string } | undefined)?.price === undefined
    )
      continue;
    if (path in tables)
      throw new Error(`${path}: more than one priced operation; quote(path) could not tell them apart`);
    tables[path] = routePricing(doc, path, method, operation);
  }
  return Object.fromEntries(Object.entries(tables).sort(([a], [b]) => (a < b ? -1 : 1)));
}
