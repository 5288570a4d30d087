/**
 * Rates the specification does not show (V-B's and V-C's per-second rates, A-A's), supplied by
 * the caller: a target's own, declared to the conformance suite, or a sandbox's configured ones.
 * Filling them into a route's `rateNotShown` component, and into the `rateTimes` components that
 * follow it, lets quoteRoute price the route; what stays unfilled keeps its x-not-shown.price.
 */
import type { PriceTables, PricingComponent, RateTable, RoutePricing } from "./pricing.ts";
import { clean } from "./numbers.ts";
import { QuoteError } from "./quote-error.ts";

/** Per route path: a number where the rate differs by nothing, else a table keyed like a rateBy table. */
export type SuppliedRates = { readonly [path: string]: number | RateTable };

/** The routes with a rate that is not shown, each with the fields it differs by. */
export function notShownRates(tables: PriceTables): Array<{ path: string; by: readonly string[] }> {
  return Object.entries(tables).flatMap(([path, route]) =>
    (route.pricing?.components ?? []).flatMap((component) =>
      component.rateNotShown ? [{ path, by: component.rateNotShown.by }] : [],
    ),
  );
}

/** Checks a supplied table against the values its fields allow; a partial table is allowed. */
function checkTable(where: string, route: RoutePricing, by: readonly string[], node: unknown): void {
  const [field, ...rest] = by;
  if (field === undefined) {
    if (typeof node !== "number" || !Number.isFinite(node) || node < 0)
      throw new QuoteError(where, "must be a number of credits, at least 0");
    return;
  }
  if (typeof node !== "object" || node === null || Array.isArray(node) || Object.keys(node).length === 0)
    throw new QuoteError(where, `must be an object of rates by ${field}`);
  const rule = route.fields[field];
  // The values a rate table is keyed by: an enum's, else true/false (model/price-tables.ts refuses any other field).
  const allowed = rule?.enum?.map(String) ?? ["true", "false"];
  for (const [key, below] of Object.entries(node)) {
    if (!allowed.includes(key))
      throw new QuoteError(`${where}.${key}`, `${field} must be one of ${allowed.join(", ")}`);
    checkTable(`${where}.${key}`, route, rest, below);
  }
}

/** `table` with every rate times `factor`. */
const scaled = (table: RateTable, factor: number): RateTable =>
  Object.fromEntries(
    Object.entries(table).map(([key, node]) => [
      key,
      typeof node === "number" ? clean(node * factor) : scaled(node, factor),
    ]),
  );

/** The component with its not-shown rate filled in from `rate`. */
function filled(component: PricingComponent, rate: number | RateTable): PricingComponent {
  const { rateNotShown, ...rest } = component;
  return typeof rate === "number" ? { ...rest, rate } : { ...rest, rateBy: { fields: rateNotShown!.by, table: rate } };
}

/** The component following another's rate, scaled from that one's filled rate. */
function followed(component: PricingComponent, source: PricingComponent): PricingComponent {
  const { rateTimes, ...rest } = component;
  const factor = rateTimes!.factor;
  if (source.rate !== undefined) return { ...rest, rate: clean(source.rate * factor) };
  return { ...rest, rateBy: { fields: source.rateBy!.fields, table: scaled(source.rateBy!.table, factor) } };
}

/**
 * `tables` with the supplied rates filled in. Throws a QuoteError naming `rates.<path>…` for a route
 * without a rate that is not shown, or a rate keyed by a value its field does not allow.
 */
export function withSuppliedRates(tables: PriceTables, rates: SuppliedRates): PriceTables {
  const result: Record<string, RoutePricing> = { ...tables };
  for (const [path, rate] of Object.entries(rates)) {
    const where = `rates.${path}`;
    const route = Object.hasOwn(tables, path) ? tables[path] : undefined;
    const hidden = route?.pricing?.components.find((component) => component.rateNotShown);
    if (!route?.pricing || !hidden?.rateNotShown) {
      const open = notShownRates(tables).map((entry) => entry.path);
      throw new QuoteError(where, `must be a route whose rate is not shown (${open.join(", ")})`);
    }
    checkTable(where, route, hidden.rateNotShown.by, rate);
    const own = route.pricing.components.map((component) =>
      component === hidden ? filled(component, rate) : component,
    );
    // A rate following another follows the one that is not shown (model/price-tables.ts), filled just above.
    const components = own.map((component) => {
      const source = component.rateTimes && own.find((other) => other.label === component.rateTimes!.component);
      return source ? followed(component, source) : component;
    });
    result[path] = { ...route, pricing: { ...route.pricing, components } };
  }
  return result;
}
