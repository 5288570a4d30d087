/**
 * Near-miss negatives: request bodies one plausible implementation mistake away from valid. Each
 * is a valid body with one field (or one pair of fields) changed the way a server that copied
 * a sibling model's limits, slipped a bound by one, compared enums without case, or ignored a
 * cross-field rule would wrongly accept:
 *
 * - `sibling-value`   a value allowed for another model of the same area (its enum, its range)
 * - `off-by-one`      one past every bound: minimum-1, maximum+1, minItems-1, minLength-1, maxLength+1
 * - `one-too-many`    one item more than maxItems (also under a cross-field rule's mode limit)
 * - `case-variant`    an enum value in another case (`1k` for `1K`)
 * - `exclusive-pair`  two fields a cross-field rule says cannot be combined, sent together
 * - `other-mode-value` a value the schema allows only in another mode (`2k` without `video`)
 * - `required-null`   a required field sent as null
 * - `wrong-type`      the right value in the wrong JSON type (`"2"` for 2, a bare string for a list)
 * - `other-form`      a media input in a form its field does not take (`x-media.forms`, and the
 *                     field's `MediaUrl` schema): a video or audio inlined as a data URI or raw
 *                     base64 where only URLs are taken
 *
 * The cross-field rules are read by model/cross-field-rules.ts; rules of other shapes are left to
 * the exact negative cases (negative-cases.ts).
 */
import type { JsonSchema } from "../../model/document.ts";
import { crossFieldRules } from "../../model/cross-field-rules.ts";
import type { CrossFieldRule, FieldCondition } from "../../runtime/costs/pricing.ts";
import { isObject, type Json } from "./edits.ts";
import { INLINE_FORMS, inlineMedia, mediaFormsOf } from "./media-forms.ts";
import { sample } from "./values.ts";

export const NEAR_MISS_KINDS = [
  "sibling-value",
  "off-by-one",
  "one-too-many",
  "case-variant",
  "exclusive-pair",
  "other-mode-value",
  "required-null",
  "wrong-type",
  "other-form",
] as const;
export type NearMissKind = (typeof NEAR_MISS_KINDS)[number];

export type Body = Record<string, Json>;

/** What near misses read of an operation: its area, route and request schema, and a create's model label. */
export interface BodyOperation {
  readonly area: string;
  readonly route: string;
  readonly requestSchema?: JsonSchema;
  readonly create?: { readonly label: string };
}

export interface NearMiss {
  readonly kind: NearMissKind;
  /** The top-level fields it sets. */
  readonly fields: readonly string[];
  /** What it sends and why that is wrong, for reports: `size "1k" (a case variant of "1K")`. */
  readonly rule: string;
  /** `base` (a valid body) with the near miss applied. */
  apply(base: Body): Body;
}

const show = (value: Json): string => JSON.stringify(value);

/** `count` distinct items like those of `base[field]` or the schema's. */
function itemsFor(schema: JsonSchema, base: Body, field: string, count: number): Json[] {
  const given = Array.isArray(base[field]) ? (base[field] as Json[]) : [];
  const item = given[0] ?? sample(isObject(schema.items) ? (schema.items as JsonSchema) : {});
  return Array.from(
    { length: count },
    (_, index) => given[index] ?? (typeof item === "string" ? `${item}?n=${index}` : item),
  );
}

/** A body with `field` set to `value`. */
const setting = (kind: NearMissKind, field: string, value: Json, why: string): NearMiss => ({
  kind,
  fields: [field],
  rule: `${field} ${show(value)} (${why})`,
  apply: (base) => ({ ...base, [field]: value }),
});

/** A value of the right meaning in the wrong JSON type, from the base's value or the schema's sample. */
function wrongTypeOf(schema: JsonSchema, value: Json): Json {
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case "integer":
    case "number":
    case "boolean":
      return String(value);
    case "array":
      return Array.isArray(value) ? (value[0] ?? "") : value;
    case "object":
      return [value];
    default:
      return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : 1;
  }
}

/** The near misses of one property's own schema (bounds, case, wrong type, required as null). */
function ownNearMisses(field: string, schema: JsonSchema, required: boolean): NearMiss[] {
  const found: NearMiss[] = [];
  const number = (key: string): number | undefined =>
    typeof schema[key] === "number" ? (schema[key] as number) : undefined;
  const bound = (key: string, value: number | undefined, delta: number): void => {
    if (value !== undefined)
      found.push(
        setting("off-by-one", field, value + delta, `${key} ${value}${delta > 0 ? " + 1" : delta < 0 ? " - 1" : ""}`),
      );
  };
  bound("minimum", number("minimum"), -1);
  bound("maximum", number("maximum"), 1);
  bound("exclusiveMinimum", number("exclusiveMinimum"), 0);
  bound("exclusiveMaximum", number("exclusiveMaximum"), 0);
  const minLength = number("minLength");
  if (minLength) found.push(setting("off-by-one", field, "x".repeat(minLength - 1), `minLength ${minLength} - 1`));
  const maxLength = number("maxLength");
  if (maxLength !== undefined)
    found.push(setting("off-by-one", field, "x".repeat(maxLength + 1), `maxLength ${maxLength} + 1`));
  found.push(...itemCountMisses(field, schema, { minItems: number("minItems"), maxItems: number("maxItems") }, ""));
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) {
      if (typeof value !== "string") continue;
      for (const variant of new Set([value.toLowerCase(), value.toUpperCase()])) {
        if (!schema.enum.includes(variant))
          found.push(setting("case-variant", field, variant, `a case variant of ${show(value)}`));
      }
    }
  }
  if (required) found.push(setting("required-null", field, null, "required, sent as null"));
  if (schema.type !== undefined) {
    found.push({
      kind: "wrong-type",
      fields: [field],
      rule: `${field} in the wrong JSON type (${show(schema.type)} expected)`,
      apply: (base) => ({ ...base, [field]: wrongTypeOf(schema, base[field] ?? sample(schema)) }),
    });
  }
  return found;
}

/**
 * A media field's value (each item of a list) inlined in a form the field does not take. Applied
 * only to a body that sends the field, so that nothing but the form is wrong.
 */
function formNearMisses(field: string, schema: JsonSchema): NearMiss[] {
  const media = mediaFormsOf(schema);
  if (!media?.forms) return [];
  const forms = media.forms;
  return INLINE_FORMS.filter((form) => !forms.includes(form)).map((form) => {
    const inline = inlineMedia(media, form);
    return {
      kind: "other-form",
      fields: [field],
      rule: `${field} as a ${form} (${media.kind}; takes ${forms.join(" or ")})`,
      apply: (base) =>
        base[field] === undefined
          ? base
          : { ...base, [field]: Array.isArray(base[field]) ? (base[field] as Json[]).map(() => inline) : inline },
    };
  });
}

/** minItems - 1 and maxItems + 1, `where` naming the mode a cross-field rule limits them in. */
function itemCountMisses(
  field: string,
  schema: JsonSchema,
  limits: { minItems?: number | undefined; maxItems?: number | undefined },
  where: string,
  enable: (base: Body) => Body = (base) => base,
): NearMiss[] {
  const found: NearMiss[] = [];
  const count = (kind: NearMissKind, items: number, why: string): NearMiss => ({
    kind,
    fields: [field],
    rule: `${field} with ${items} item${items === 1 ? "" : "s"} (${why}${where})`,
    apply: (base) => ({ ...enable(base), [field]: itemsFor(schema, base, field, items) }),
  });
  if (limits.minItems) found.push(count("off-by-one", limits.minItems - 1, `minItems ${limits.minItems} - 1`));
  if (limits.maxItems !== undefined)
    found.push(count("one-too-many", limits.maxItems + 1, `maxItems ${limits.maxItems} + 1`));
  return found;
}

/** Values other models of the same area allow for a field of the same name, which this one does not. */
function siblingValues(
  operations: readonly BodyOperation[],
  op: BodyOperation,
  field: string,
  schema: JsonSchema,
): NearMiss[] {
  const own = (value: Json): boolean =>
    Array.isArray(schema.enum)
      ? schema.enum.includes(value)
      : typeof value === "number" &&
        !(
          value < ((schema.minimum as number | undefined) ?? -Infinity) ||
          value > ((schema.maximum as number | undefined) ?? Infinity)
        );
  if (!Array.isArray(schema.enum) && schema.minimum === undefined && schema.maximum === undefined) return [];
  const found = new Map<string, NearMiss>();
  for (const other of operations) {
    if (other === op || other.area !== op.area || !other.create) continue;
    const sibling = ((other.requestSchema?.properties ?? {}) as Record<string, JsonSchema>)[field];
    if (!isObject(sibling)) continue;
    const values = Array.isArray(sibling.enum)
      ? sibling.enum
      : [sibling.minimum, sibling.maximum].filter((value) => typeof value === "number");
    for (const value of values) {
      if (own(value) || found.has(show(value))) continue;
      // A number where this model lists strings (or the reverse) is a wrong type, not a near miss.
      if (Array.isArray(schema.enum) && schema.enum.length && typeof schema.enum[0] !== typeof value) continue;
      found.set(show(value), setting("sibling-value", field, value, `allowed for ${other.create.label}, not here`));
    }
  }
  return [...found.values()];
}

/** The body with each condition of a rule made to hold. */
function enabling(when: readonly FieldCondition[], properties: Record<string, JsonSchema>): (base: Body) => Body {
  return (base) => {
    const body = { ...base };
    for (const condition of when) {
      body[condition.field] =
        "equals" in condition ? condition.equals : (base[condition.field] ?? sample(properties[condition.field] ?? {}));
    }
    return body;
  };
}

const conditionText = (when: readonly FieldCondition[]): string =>
  when
    .map((condition) =>
      "equals" in condition ? `${condition.field} ${show(condition.equals)}` : `with ${condition.field}`,
    )
    .join(" and ");

/** Near misses of the cross-field rules: exclusive pairs, mode limits, values allowed only in another mode. */
function ruleNearMisses(rule: CrossFieldRule, properties: Record<string, JsonSchema>): NearMiss[] {
  const found: NearMiss[] = [];
  const enable = enabling(rule.when, properties);
  const when = conditionText(rule.when);
  const triggers = rule.when.map((condition) => condition.field);
  for (const field of rule.forbidden ?? []) {
    found.push({
      kind: "exclusive-pair",
      fields: [...triggers, field],
      rule: `${when} and ${field} together (${rule.description})`,
      apply: (base) => ({ ...enable(base), [field]: base[field] ?? sample(properties[field] ?? {}) }),
    });
  }
  for (const [field, limits] of Object.entries(rule.limits ?? {})) {
    const schema = properties[field] ?? {};
    found.push(...itemCountMisses(field, schema, limits, ` ${when}`, enable));
    if (limits.maximum !== undefined)
      found.push({
        ...setting("off-by-one", field, limits.maximum + 1, `maximum ${limits.maximum} + 1 ${when}`),
        fields: [...triggers, field],
        apply: (base) => ({ ...enable(base), [field]: (limits.maximum as number) + 1 }),
      });
    for (const value of Array.isArray(schema.enum)
      ? schema.enum
      : typeof limits.enum?.[0] === "boolean"
        ? [true, false]
        : []) {
      if (limits.enum && !limits.enum.includes(value as never)) {
        found.push({
          kind: "other-mode-value",
          fields: [...triggers, field],
          rule: `${field} ${show(value)} ${when} (${rule.description})`,
          apply: (base) => ({ ...enable(base), [field]: value }),
        });
      }
    }
  }
  // A value that asks for another mode (`resolution: 2k` needs `video`), sent without that mode's fields.
  const needs = [...(rule.required ?? []), ...(rule.requiredOneOf ?? [])];
  if (needs.length && rule.when.every((condition) => "equals" in condition)) {
    found.push({
      kind: "other-mode-value",
      fields: triggers,
      rule: `${when} without ${needs.join(rule.required ? " and " : " or ")} (${rule.description})`,
      apply: (base) => Object.fromEntries(Object.entries(enable(base)).filter(([name]) => !needs.includes(name))),
    });
  }
  return found;
}

/** The cross-field rules of a request schema this reader knows, each `allOf` entry on its own. */
function rulesOf(op: BodyOperation): CrossFieldRule[] {
  const schema = op.requestSchema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const fields = new Set(Object.keys(properties));
  return ((schema.allOf ?? []) as JsonSchema[]).flatMap((entry) => {
    try {
      // The properties narrow a field's own enum where a rule excludes a value (`not: {const: 4k}`).
      return crossFieldRules(op.route, [entry], fields, properties);
    } catch {
      // A rule of another shape: the exact negative cases break it.
      return [];
    }
  });
}

/** Every near miss of an operation's request schema, kind by kind; `operations` are the description's, where its siblings are. */
export function nearMisses(operations: readonly BodyOperation[], op: BodyOperation): NearMiss[] {
  const schema = op.requestSchema;
  if (!schema || !isObject(schema.properties)) return [];
  const properties = schema.properties as Record<string, JsonSchema>;
  // Stryker disable next-line ArrayDeclaration: without `required` no property is required, whatever the stand-in list holds
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const found: NearMiss[] = [];
  for (const [field, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    found.push(
      ...siblingValues(operations, op, field, property),
      ...ownNearMisses(field, property, required.includes(field)),
      ...formNearMisses(field, property),
    );
  }
  for (const rule of rulesOf(op)) found.push(...ruleNearMisses(rule, properties));
  return found;
}
