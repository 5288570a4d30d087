/**
 * Values the pricing reads: body fields with their schema defaults, and caller-supplied facts.
 * A value that is neither given nor defaulted is unknown, and so is a condition on it: the quote
 * then says what is missing rather than guess.
 */
import type { Inputs } from "./inputs.ts";
import type { Condition, RoutePricing } from "./pricing.ts";

export const UNKNOWN = Symbol("unknown");
export type Known<T> = T | typeof UNKNOWN;

/**
 * The body value of `field`, else its schema default, else its only allowed value (the
 * specification's "exactly 1" is a range of 1 to 1, no default), else UNKNOWN.
 */
export function fieldValue({ route, body }: Inputs, field: string): Known<unknown> {
  const rule = route.fields[field];
  const only =
    rule?.enum?.length === 1
      ? rule.enum[0]
      : rule?.minimum !== undefined && rule.minimum === rule.maximum
        ? rule.minimum
        : undefined;
  return body[field] ?? rule?.default ?? only ?? UNKNOWN;
}

/** true / false, or UNKNOWN when it reads a value that is neither given nor defaulted. */
export function holds(inputs: Inputs, condition: Condition): Known<boolean> {
  if ("fact" in condition) {
    const fact = inputs.media[condition.fact];
    return fact === undefined ? UNKNOWN : fact === condition.equals;
  }
  if ("present" in condition) return (inputs.body[condition.field] !== undefined) === condition.present;
  const value = fieldValue(inputs, condition.field);
  return value === UNKNOWN ? UNKNOWN : value === condition.equals;
}

/** How a missing value is named in a quote's `missing` list. */
export function describeMissing(route: RoutePricing, condition: Condition): string {
  return "fact" in condition
    ? `media.${condition.fact} (a fact the body does not hold)`
    : missingField(route, condition.field);
}

export function missingField(route: RoutePricing, field: string): string {
  return `${route.bodyIn}.${field} (omitted, and its default is not shown)`;
}
