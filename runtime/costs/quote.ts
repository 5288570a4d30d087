/**
 * The offline quote: evaluates a route's `x-pricing` components over a request body (schema
 * defaults apply to omitted fields) and the durations of its media inputs.
 *
 * - `credits` is the standard price before plan discounts (`POST /v1/cost` quotes the discounted
 *   one).
 * - `credits: null` when the specification shows no price for this request (`reason` is the
 *   description's `x-not-shown.price` sentence), or when the price depends on something the caller
 *   did not supply: a media duration, a fact, a field omitted whose default is not shown, or the
 *   media input whose seconds are the only billed item (`missing` names each, `reason` says so). A missing input is not an error because the request
 *   itself may be valid: the service measures durations that the caller may not know.
 * - An invalid request (unknown route, unknown field of a closed schema, a value outside its enum
 *   or range, a broken cross-field rule involving a priced field, durations that do not match the
 *   body) throws a QuoteError naming the field and rule.
 */
import { checkBody, checkMedia, checkMediaObject } from "./check-input.ts";
import { describeMissing, fieldValue, holds, missingField, UNKNOWN, type Known } from "./conditions.ts";
import type { Body, Inputs, MediaInputs } from "./inputs.ts";
import { clean } from "./numbers.ts";
import type { PriceTables, PricingComponent, RateTable } from "./pricing.ts";
import { QuoteError } from "./quote-error.ts";

export interface QuoteLine {
  readonly label: string;
  /** Credits per unit. */
  readonly rate: number;
  /** Units billed: images, seconds (after rounding, minimum and cap), items, or 1. */
  readonly quantity: number;
  readonly credits: number;
}

export interface Quote {
  readonly path: string;
  /** Standard credits before plan discounts; null when the price is not shown or an input is missing. */
  readonly credits: number | null;
  /** Why `credits` is null. */
  readonly reason?: string;
  /** The inputs a price depends on that the caller did not supply. */
  readonly missing?: readonly string[];
  /** When credits are charged; null where no price is shown. */
  readonly charged: "on-success" | "per-request" | "free" | null;
  readonly breakdown: readonly QuoteLine[];
  readonly notes?: string;
}

/**
 * The rate of a component: a number, UNKNOWN (a lookup field is missing), or undefined (no entry, or
 * a rate not shown that no supplied rate filled in).
 */
function rateOf(inputs: Inputs, component: PricingComponent, missing: string[]): Known<number | undefined> {
  if (component.rate !== undefined) return component.rate;
  if (component.rateBy === undefined) return undefined;
  const { fields, table } = component.rateBy;
  let node: number | RateTable | undefined = table;
  for (const field of fields) {
    const value = fieldValue(inputs, field);
    if (value === UNKNOWN) {
      missing.push(missingField(inputs.route, field));
      return UNKNOWN;
    }
    node = typeof node === "object" ? node[String(value)] : undefined;
  }
  return typeof node === "number" ? node : undefined;
}

/** Units of a component, UNKNOWN when an input is missing, or 0 when nothing is billed. */
function quantityOf(
  inputs: Inputs,
  component: PricingComponent,
  durations: ReadonlyMap<string, number>,
  missing: string[],
): Known<number> {
  const per = component.per;
  if (per === undefined) return 1;
  if ("field" in per) {
    const value = fieldValue(inputs, per.field);
    if (value === UNKNOWN) missing.push(missingField(inputs.route, per.field));
    return value === UNKNOWN ? UNKNOWN : Number(value);
  }
  if ("itemsBeyond" in per) {
    const items = inputs.body[per.itemsBeyond.field];
    return Math.max(0, (Array.isArray(items) ? items.length : 0) - per.itemsBeyond.free);
  }
  // A media input the body does not carry is not billed, so neither is its minimum.
  if (inputs.body[per.mediaSeconds] === undefined) return 0;
  const seconds = durations.get(per.mediaSeconds);
  if (seconds === undefined) {
    missing.push(`media.${per.mediaSeconds} (the duration in seconds of body.${per.mediaSeconds})`);
    return UNKNOWN;
  }
  let billed = seconds;
  if (per.rounding === "up") billed = Math.ceil(billed);
  if (per.minimum !== undefined) billed = Math.max(billed, per.minimum);
  if (per.maximum !== undefined) billed = Math.min(billed, per.maximum);
  return billed;
}

/** true when every condition holds; UNKNOWN (with what is missing) when none fails but some are unknown. */
function applies(inputs: Inputs, component: PricingComponent, missing: string[]): Known<boolean> {
  const when = component.when;
  if (!when) return true;
  let unknown = false;
  for (const condition of when) {
    const result = holds(inputs, condition);
    if (result === false) return false;
    if (result === UNKNOWN) unknown = true;
  }
  if (!unknown) return true;
  for (const condition of when)
    if (holds(inputs, condition) === UNKNOWN) missing.push(describeMissing(inputs.route, condition));
  return UNKNOWN;
}

const NO_MEDIA: MediaInputs = {};

export function quoteRoute(tables: PriceTables, path: string, body: unknown = {}, media?: unknown): Quote {
  const route = Object.hasOwn(tables, path) ? tables[path] : undefined;
  if (!route)
    throw new QuoteError(
      "path",
      `${String(path)} is not a priced route (priced routes: ${Object.keys(tables).join(", ")})`,
    );
  checkBody(path, route, body);
  checkMediaObject(media);
  const inputs: Inputs = { route, body: body as Body, media: (media ?? NO_MEDIA) as MediaInputs };
  const durations = checkMedia(path, inputs);
  if (!route.pricing)
    return { path, credits: null, reason: route.notShown ?? "The price is not shown.", charged: null, breakdown: [] };

  const { charged, notes } = route.pricing;
  const missing: string[] = [];
  const breakdown: QuoteLine[] = [];
  const absentMedia: string[] = [];
  let unpriced = false;
  // A rate that is not shown, and no supplied rate filled in: no input the caller adds can price it.
  let hidden = false;
  for (const component of route.pricing.components) {
    if (applies(inputs, component, missing) !== true) continue;
    if (component.rateNotShown || component.rateTimes) hidden = true;
    const rate = rateOf(inputs, component, missing);
    const quantity = quantityOf(inputs, component, durations, missing);
    if (rate === undefined) unpriced = true;
    if (quantity === 0 && component.per && "mediaSeconds" in component.per)
      absentMedia.push(component.per.mediaSeconds);
    if (rate === UNKNOWN || rate === undefined || quantity === UNKNOWN || quantity === 0) continue;
    breakdown.push({ label: component.label, rate, quantity, credits: clean(rate * quantity) });
  }
  // A request whose only billed item is the seconds of a media input it lacks (a depth map without
  // its video) is not free: its price is unknown until the input is there.
  if (breakdown.length === 0 && missing.length === 0 && charged !== "free") {
    for (const field of absentMedia) missing.push(`${route.bodyIn}.${field} (absent; the price is per second of it)`);
  }
  // Built field by field rather than spread: quoting is a hot path.
  const result: { -readonly [K in keyof Quote]: Quote[K] } = { path, credits: null, charged, breakdown };
  if (notes) result.notes = notes;
  if (hidden && route.notShown !== null) result.reason = route.notShown;
  else if (missing.length) {
    // Components that read the same input would name it twice.
    const unique = [...new Set(missing)];
    result.missing = unique;
    result.reason = `The price depends on inputs not supplied: ${unique.join("; ")}.`;
  } else if (route.notShown !== null && (unpriced || breakdown.length === 0)) {
    // Partly shown prices: a request none of whose shown rates applies has no shown price.
    result.reason = route.notShown;
  } else if (unpriced) {
    throw new Error(`price table of ${path} has no rate for this request although its price is fully shown`);
  } else {
    let credits = 0;
    for (const line of breakdown) credits += line.credits;
    result.credits = clean(credits);
  }
  return result;
}
