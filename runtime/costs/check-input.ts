/**
 * Checks a quote's body and media against the rules of the fields the pricing reads, so that a
 * body the service would reject gets an error naming the field and the rule instead of a price.
 * Cross-field rules of the request schema are checked where they involve a field the pricing reads.
 */
import { clean } from "./numbers.ts";
import type { CrossFieldRule, FieldCondition, FieldRule, MediaRule, RoutePricing, Scalar } from "./pricing.ts";
import { holds, type Inputs } from "./conditions.ts";
import { QuoteError } from "./quote-error.ts";

export type Body = Readonly<Record<string, unknown>>;
/** Durations in seconds keyed by media field (one per item for arrays), and facts keyed by name. */
export type MediaInputs = Readonly<Record<string, number | readonly number[] | Scalar | undefined>>;

const list = (values: readonly Scalar[]): string => values.map(String).join(", ");

function checkType(where: string, rule: Pick<FieldRule, "type">, value: unknown): void {
  const ok =
    rule.type === undefined ||
    (rule.type === "array" && Array.isArray(value)) ||
    (rule.type === "integer" && Number.isInteger(value)) ||
    (rule.type === "number" && typeof value === "number" && Number.isFinite(value)) ||
    ((rule.type === "string" || rule.type === "boolean") && typeof value === rule.type);
  if (!ok) throw new QuoteError(where, `must be ${rule.type === "integer" || rule.type === "array" ? "an" : "a"} ${rule.type}`);
}

function checkRange(where: string, value: number, min: number | undefined, max: number | undefined, unit: string): void {
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const range =
      min !== undefined && max !== undefined
        ? `must be ${min} to ${max}`
        : min !== undefined
          ? `must be at least ${min}`
          : `must be at most ${max}`;
    throw new QuoteError(where, `${range}${unit}`);
  }
}

/** Checks a given value against its rule; `context` ends each message (a cross-field rule's condition). */
function checkValue(where: string, rule: Omit<FieldRule, "required">, value: unknown, context = ""): void {
  checkType(where, rule, value);
  if (rule.enum && !rule.enum.includes(value as Scalar)) throw new QuoteError(where, `must be one of ${list(rule.enum)}${context}`);
  if (typeof value === "number") checkRange(where, value, rule.minimum, rule.maximum, context);
  if (Array.isArray(value)) checkRange(where, value.length, rule.minItems, rule.maxItems, ` items${context}`);
}

function checkField(name: string, rule: FieldRule, value: unknown, bodyIn: string): void {
  const where = `${bodyIn}.${name}`;
  if (value === undefined) {
    if (rule.required) throw new QuoteError(where, "is required");
    return;
  }
  checkValue(where, rule, value);
}

/** Cross-field conditions bind given fields only, as `required` does in the schema's `if`. */
const given = (body: Body, condition: FieldCondition): boolean =>
  body[condition.field] !== undefined && (!("equals" in condition) || body[condition.field] === condition.equals);

function checkCrossField(route: RoutePricing, rule: CrossFieldRule, body: Body): void {
  if (!rule.when.every((condition) => given(body, condition))) return;
  const trigger = rule.when.map((condition) => ("equals" in condition ? `${condition.field} is ${String(condition.equals)}` : `${condition.field} is given`));
  const context = ` when ${trigger.join(" and ")} (${rule.description})`;
  for (const field of rule.required ?? []) if (body[field] === undefined) throw new QuoteError(`body.${field}`, `is required${context}`);
  for (const field of rule.forbidden ?? []) if (body[field] !== undefined) throw new QuoteError(`body.${field}`, `must be omitted${context}`);
  if (rule.requiredOneOf && !rule.requiredOneOf.some((field) => body[field] !== undefined)) {
    throw new QuoteError(`body.${rule.requiredOneOf.join("|")}`, `one of them is required${context}`);
  }
  for (const [field, limits] of Object.entries(rule.limits ?? {})) {
    if (body[field] !== undefined) checkValue(`body.${field}`, { ...route.fields[field], ...limits }, body[field], context);
  }
}

/** Throws a QuoteError for the first problem of the body; the body is otherwise left to the service. */
export function checkBody(path: string, route: RoutePricing, body: unknown): asserts body is Body {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new QuoteError(route.bodyIn, `must be an object (the ${route.bodyIn === "body" ? "request body" : "query"} of ${path})`);
  }
  if (route.knownFields) {
    for (const name of Object.keys(body)) {
      if (!route.knownFields.includes(name)) {
        throw new QuoteError(`${route.bodyIn}.${name}`, `is not a field of ${path} (its fields: ${route.knownFields.join(", ")})`);
      }
    }
  }
  for (const [name, rule] of Object.entries(route.fields)) checkField(name, rule, (body as Body)[name], route.bodyIn);
  for (const rule of route.crossFieldRules) checkCrossField(route, rule, body as Body);
}

const isDuration = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

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

/** Checks the media durations and facts; returns the seconds of each media field, summed over items. */
export function checkMedia(path: string, inputs: Inputs): Map<string, number> {
  const { route, body, media } = inputs;
  const durations = new Map<string, number>();
  for (const [key, given] of Object.entries(media)) {
    if (given === undefined) continue;
    const facts = route.facts[key];
    if (facts) {
      if (typeof given !== typeof facts[0]) throw new QuoteError(`media.${key}`, `must be a ${typeof facts[0]} fact (for example ${list(facts)})`);
      continue;
    }
    const rule = route.media[key];
    if (!rule) {
      const expected = [...Object.keys(route.media), ...Object.keys(route.facts)];
      throw new QuoteError(`media.${key}`, expected.length ? `is not a priced media field or fact of ${path} (expected ${expected.join(", ")})` : `${path} takes no media durations or facts`);
    }
    const seconds = durationsOf(rule, body, key, given);
    const max = Math.min(
      rule.maxDurationSeconds ?? Infinity,
      ...(rule.conditionalLimits ?? []).filter((limit) => holds(inputs, limit.when) === true).map((limit) => limit.limits.maxDurationSeconds ?? Infinity),
    );
    for (const value of seconds) checkRange(`media.${key}`, value, rule.minDurationSeconds, Number.isFinite(max) ? max : undefined, " seconds");
    const total = clean(seconds.reduce((sum, value) => sum + value, 0));
    if (rule.maxCombinedDurationSeconds !== undefined && total > rule.maxCombinedDurationSeconds) {
      throw new QuoteError(`media.${key}`, `must be at most ${rule.maxCombinedDurationSeconds} seconds combined`);
    }
    durations.set(key, total);
  }
  return durations;
}
