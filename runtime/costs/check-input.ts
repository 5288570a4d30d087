/**
 * Checks a quote's body and media against the rules of the fields the pricing reads, so that a
 * body the service would reject gets an error naming the field and the rule instead of a price.
 * Cross-field rules of the request schema are checked where they involve a field the pricing reads.
 */
import { clean } from "./numbers.ts";
import type { CrossFieldRule, FieldCondition, FieldRule, MediaRule, RoutePricing, Scalar } from "./pricing.ts";
import { holds } from "./conditions.ts";
import type { Body, Inputs, MediaInputs } from "./inputs.ts";
import { QuoteError } from "./quote-error.ts";

const list = (values: readonly Scalar[]): string => values.map(String).join(", ");

function checkType(where: string, rule: Pick<FieldRule, "type">, value: unknown): void {
  const ok =
    rule.type === undefined ||
    (rule.type === "array" && Array.isArray(value)) ||
    (rule.type === "integer" && Number.isInteger(value)) ||
    (rule.type === "number" && Number.isFinite(value)) ||
    ((rule.type === "string" || rule.type === "boolean") && typeof value === rule.type);
  if (!ok)
    throw new QuoteError(
      where,
      `must be ${rule.type === "integer" || rule.type === "array" ? "an" : "a"} ${rule.type}`,
    );
}

/** `unit`, then a cross-field rule's condition, end the message. */
function checkRange(
  where: string,
  value: number,
  min: number | undefined,
  max: number | undefined,
  unit: string,
  cross?: CrossFieldRule,
): void {
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const range =
      min !== undefined && max !== undefined
        ? `must be ${min} to ${max}`
        : min !== undefined
          ? `must be at least ${min}`
          : `must be at most ${max}`;
    throw new QuoteError(where, `${range}${unit}${cross ? ruleContext(cross) : ""}`);
  }
}

/** What a cross-field rule's messages end with: its condition and the rule it quotes. */
function ruleContext(rule: CrossFieldRule): string {
  const trigger = rule.when.map((condition) =>
    "equals" in condition ? `${condition.field} is ${String(condition.equals)}` : `${condition.field} is given`,
  );
  return ` when ${trigger.join(" and ")} (${rule.description})`;
}

/** Checks a given value against its rule; a cross-field rule's condition ends each message. */
function checkValue(where: string, rule: Omit<FieldRule, "required">, value: unknown, cross?: CrossFieldRule): void {
  checkType(where, rule, value);
  if (rule.enum && !rule.enum.includes(value as Scalar))
    throw new QuoteError(where, `must be one of ${list(rule.enum)}${cross ? ruleContext(cross) : ""}`);
  if (typeof value === "number") checkRange(where, value, rule.minimum, rule.maximum, "", cross);
  if (Array.isArray(value)) checkRange(where, value.length, rule.minItems, rule.maxItems, " items", cross);
}

/** Cross-field conditions bind given fields only, as `required` does in the schema's `if`. */
const given = (body: Body, condition: FieldCondition): boolean =>
  body[condition.field] !== undefined && (!("equals" in condition) || body[condition.field] === condition.equals);

interface CheckedField {
  readonly name: string;
  /** `body.size`: where a message says the problem is. */
  readonly where: string;
  readonly rule: Omit<FieldRule, "required"> & { readonly required?: boolean };
}

/** A route's checks, worked out once per route: quoting is a hot path, the tables never change. */
interface CompiledChecks {
  readonly known: ReadonlySet<string> | null;
  readonly fields: readonly CheckedField[];
  readonly crossRules: ReadonlyArray<{ readonly rule: CrossFieldRule; readonly limits: readonly CheckedField[] }>;
}

const compiled = new WeakMap<RoutePricing, CompiledChecks>();

function compile(route: RoutePricing): CompiledChecks {
  let checks = compiled.get(route);
  // Stryker disable next-line ConditionalExpression: equivalent: the cache only saves work, compiling a route again makes the same checks
  if (!checks) {
    const fieldIn = (name: string) => `${route.bodyIn}.${name}`;
    checks = {
      known: route.knownFields ? new Set(route.knownFields) : null,
      fields: Object.entries(route.fields).map(([name, rule]) => ({ name, where: fieldIn(name), rule })),
      crossRules: route.crossFieldRules.map((rule) => ({
        rule,
        limits: Object.entries(rule.limits ?? {}).map(([name, limits]) => ({
          name,
          where: `body.${name}`,
          rule: { ...route.fields[name], ...limits },
        })),
      })),
    };
    compiled.set(route, checks);
  }
  return checks;
}

function checkCrossField({ rule, limits }: CompiledChecks["crossRules"][number], body: Body): void {
  for (const condition of rule.when) if (!given(body, condition)) return;
  for (const field of rule.required ?? [])
    if (body[field] === undefined) throw new QuoteError(`body.${field}`, `is required${ruleContext(rule)}`);
  // Stryker disable next-line ArrayDeclaration: equivalent: the mutant's default forbids a made-up field name ("Stryker was here") that no body holds
  for (const field of rule.forbidden ?? [])
    if (body[field] !== undefined) throw new QuoteError(`body.${field}`, `must be omitted${ruleContext(rule)}`);
  if (rule.requiredOneOf && !rule.requiredOneOf.some((field) => body[field] !== undefined)) {
    throw new QuoteError(`body.${rule.requiredOneOf.join("|")}`, `one of them is required${ruleContext(rule)}`);
  }
  for (const { name, where, rule: limited } of limits)
    if (body[name] !== undefined) checkValue(where, limited, body[name], rule);
}

/** Throws a QuoteError for the first problem of the body; the body is otherwise left to the service. */
export function checkBody(path: string, route: RoutePricing, body: unknown): asserts body is Body {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new QuoteError(
      route.bodyIn,
      `must be an object (the ${route.bodyIn === "body" ? "request body" : "query"} of ${path})`,
    );
  }
  const { known, fields, crossRules } = compile(route);
  if (known) {
    for (const name in body) {
      if (Object.hasOwn(body, name) && !known.has(name)) {
        throw new QuoteError(
          `${route.bodyIn}.${name}`,
          `is not a field of ${path} (its fields: ${[...known].join(", ")})`,
        );
      }
    }
  }
  for (const { name, where, rule } of fields) {
    const value = (body as Body)[name];
    if (value !== undefined) checkValue(where, rule, value);
    else if (rule.required) throw new QuoteError(where, "is required");
  }
  for (const cross of crossRules) checkCrossField(cross, body as Body);
}

const isDuration = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** The durations of media field `field`, one per item; throws when they do not match the body. */
function durationsOf(rule: MediaRule, body: Body, field: string, given: unknown): number[] {
  const where = `media.${field}`;
  const item = body[field];
  if (item === undefined) throw new QuoteError(where, `is given but body.${field} is absent`);
  if (rule.list) {
    const count = Array.isArray(item) ? item.length : 0;
    if (!Array.isArray(given) || given.length !== count || !given.every(isDuration)) {
      throw new QuoteError(where, `must list ${count} duration(s) in seconds, one per item of body.${field}`);
    }
    return [...given];
  }
  if (!isDuration(given)) throw new QuoteError(where, "must be a duration in seconds (a finite number, 0 or more)");
  return [given];
}

export function checkMediaObject(media: unknown): asserts media is MediaInputs | undefined {
  if (media !== undefined && (typeof media !== "object" || media === null || Array.isArray(media))) {
    throw new QuoteError("media", "must be an object of durations in seconds keyed by body field, and facts");
  }
}

const NO_DURATIONS: ReadonlyMap<string, number> = new Map();

/** Checks the media durations and facts; returns the seconds of each media field, summed over items. */
export function checkMedia(path: string, inputs: Inputs): ReadonlyMap<string, number> {
  const { route, body, media } = inputs;
  let durations: Map<string, number> | undefined;
  for (const key in media) {
    const given = media[key];
    if (given === undefined || !Object.hasOwn(media, key)) continue;
    const facts = route.facts[key];
    if (facts) {
      if (typeof given !== typeof facts[0])
        throw new QuoteError(`media.${key}`, `must be a ${typeof facts[0]} fact (for example ${list(facts)})`);
      continue;
    }
    const rule = route.media[key];
    if (!rule) {
      const expected = [...Object.keys(route.media), ...Object.keys(route.facts)];
      throw new QuoteError(
        `media.${key}`,
        expected.length
          ? `is not a priced media field or fact of ${path} (expected ${expected.join(", ")})`
          : `${path} takes no media durations or facts`,
      );
    }
    const seconds = durationsOf(rule, body, key, given);
    const max = Math.min(
      rule.maxDurationSeconds ?? Infinity,
      ...(rule.conditionalLimits ?? [])
        .filter((limit) => holds(inputs, limit.when) === true)
        .map((limit) => limit.limits.maxDurationSeconds ?? Infinity),
    );
    for (const value of seconds)
      checkRange(`media.${key}`, value, rule.minDurationSeconds, Number.isFinite(max) ? max : undefined, " seconds");
    const total = clean(seconds.reduce((sum, value) => sum + value, 0));
    if (rule.maxCombinedDurationSeconds !== undefined && total > rule.maxCombinedDurationSeconds) {
      throw new QuoteError(`media.${key}`, `must be at most ${rule.maxCombinedDurationSeconds} seconds combined`);
    }
    (durations ??= new Map()).set(key, total);
  }
  return durations ?? NO_DURATIONS;
}
