/**
 * The text of docs/pricing.md: an overview of every priced route, then per route its billed items,
 * rate tables, add-ons, minimums, caps and rounding, and "not shown" where the specification shows
 * no price.
 */
import type {
  Condition,
  PricingComponent,
  Quantity,
  RateTable,
  RoutePricing,
  PriceTables,
} from "../../runtime/costs/pricing.ts";

const code = (value: unknown): string => `\`${String(value)}\``;

function defaultNote(route: RoutePricing, field: string): string {
  const value = route.fields[field]?.default;
  return value === undefined ? "" : ` (default ${code(value)})`;
}

/** How many units a component bills, as a finance reader would say it. */
function quantityCell(route: RoutePricing, quantity: Quantity | undefined): string {
  if (quantity === undefined) return "once per request";
  if ("field" in quantity) return `the value of ${code(quantity.field)}${defaultNote(route, quantity.field)}`;
  if ("itemsBeyond" in quantity)
    return `each item of ${code(quantity.itemsBeyond.field)} beyond the first ${quantity.itemsBeyond.free}`;
  const rules = [
    quantity.rounding === "up" ? "rounded up to whole seconds" : "",
    quantity.minimum !== undefined ? `at least ${quantity.minimum}` : "",
    quantity.maximum !== undefined ? `at most ${quantity.maximum}` : "",
  ].filter(Boolean);
  const list = route.media[quantity.mediaSeconds]?.list ? ", summed over its items" : "";
  return `each second of ${code(quantity.mediaSeconds)}${list}${rules.length ? ` (${rules.join(", ")})` : ""}`;
}

function condition(route: RoutePricing, when: Condition): string {
  if ("fact" in when) return `the ${code(when.fact)} (supplied to the quote) is ${code(when.equals)}`;
  if ("present" in when) return `${code(when.field)} is ${when.present ? "given" : "not given"}`;
  return `${code(when.field)} is ${code(when.equals)}${defaultNote(route, when.field)}`;
}

/** A media input the body does not carry is not billed. */
function given(quantity: Quantity | undefined): string {
  return quantity && "mediaSeconds" in quantity ? `${code(quantity.mediaSeconds)} is given` : "always";
}

function rateCell(component: PricingComponent): string {
  if (component.rate !== undefined) return String(component.rate);
  if (component.rateBy) return `by ${component.rateBy.fields.map(code).join(" and ")}, below`;
  if (component.rateNotShown) {
    const by = component.rateNotShown.by;
    return `not shown${by.length ? ` (by ${by.map(code).join(" and ")})` : ""}; a quote takes supplied rates`;
  }
  const { factor, component: source } = component.rateTimes!;
  return `${factor} times the rate of ${source}`;
}

function valueCell(route: RoutePricing, field: string, value: string): string {
  return `${code(value)}${String(route.fields[field]?.default) === value ? " (default)" : ""}`;
}

function rateRows(route: RoutePricing, fields: readonly string[], table: RateTable, keys: string[] = []): string[] {
  return Object.entries(table).flatMap(([key, node]) => {
    const row = [...keys, key];
    if (typeof node === "object") return rateRows(route, fields, node, row);
    return [`| ${[...row.map((value, index) => valueCell(route, fields[index]!, value)), node].join(" | ")} |`];
  });
}

/** Two lookup fields read best as a grid: one per row, the other per column. */
function rateGrid(route: RoutePricing, [rows, columns]: readonly [string, string], table: RateTable): string[] {
  // A row that is one figure (no column's) adds no column: Object.keys of a number is empty.
  const keys = [...new Set(Object.values(table).flatMap((node) => Object.keys(node)))];
  return [
    `| ${code(rows)} \\ ${code(columns)} | ${keys.map((key) => valueCell(route, columns, key)).join(" | ")} |`,
    `|${"---|".repeat(keys.length + 1)}`,
    ...Object.entries(table).map(([key, node]) => {
      const cells = keys.map((column) =>
        // Stryker disable next-line ConditionalExpression: equivalent, a number row has no property named after a column either
        typeof node === "object" && typeof node[column] === "number" ? String(node[column]) : "not shown",
      );
      return `| ${valueCell(route, rows, key)} | ${cells.join(" | ")} |`;
    }),
  ];
}

function rateTables(route: RoutePricing, components: readonly PricingComponent[]): string[] {
  return components.flatMap((component) => {
    if (!component.rateBy) return [];
    const { fields, table } = component.rateBy;
    const grid = fields.length === 2 ? rateGrid(route, [fields[0]!, fields[1]!], table) : undefined;
    return [
      `Credits for **${component.label}** by ${fields.map(code).join(grid ? " (rows) and " : " and ")}${grid ? " (columns)" : ""}:`,
      "",
      ...(grid ?? [
        `| ${[...fields.map(code), "credits"].join(" | ")} |`,
        `|${"---|".repeat(fields.length + 1)}`,
        ...rateRows(route, fields, table),
      ]),
      "",
    ];
  });
}

const CHARGED = {
  "on-success": "Charged only when the job succeeds.",
  "per-request": "Charged on every request, including empty results.",
  free: "Free.",
};

function status(route: RoutePricing): string {
  if (!route.pricing) return "not shown";
  if (route.notShown) return "partly shown";
  return route.pricing.charged === "free" ? "free" : "shown";
}

function title(path: string, route: RoutePricing): string {
  return `${route.method.toUpperCase()} ${path}${route.model ? ` (${route.model})` : ""}`;
}

function section(path: string, route: RoutePricing): string[] {
  const lines = [`## ${title(path, route)}`, "", route.summary, ""];
  const pricing = route.pricing;
  if (pricing) {
    lines.push(CHARGED[pricing.charged], "");
    if (pricing.components.length) {
      lines.push("| billed item | credits each | quantity | applies when |", "|---|---|---|---|");
      for (const component of pricing.components) {
        const when = component.when?.map((item) => condition(route, item)).join(" and ") ?? given(component.per);
        lines.push(`| ${component.label} | ${rateCell(component)} | ${quantityCell(route, component.per)} | ${when} |`);
      }
      lines.push("", ...rateTables(route, pricing.components));
    }
    if (pricing.notes) lines.push(`Notes: ${pricing.notes.trim().replace(/\s*\n\s*/g, " ")}`, "");
  }
  if (route.notShown) lines.push(`**Not shown:** ${route.notShown}`, "");
  return lines;
}

export function pricingPage(tables: PriceTables): string {
  const routes = Object.entries(tables);
  return [
    "# Prices",
    "",
    "<!-- Generated by generators/costs.ts from generated/openapi.json; do not edit. -->",
    "",
    "Standard credit prices before plan discounts, read off the `x-pricing` of each operation of the",
    "description. A plan's model discounts and active promotions apply to API charges: `POST /v1/cost`",
    "quotes the discounted price of a request, and `GET /v1/models` lists the current prices.",
    "",
    "Offline, `quote(path, body, media)` of `generated/costs.ts` (also `client.<area>.quote(slug, body, media)`) computes these",
    "standard prices. Omitted body fields take their defaults. `media` holds the durations in seconds",
    "of the media inputs a price depends on, keyed by body field (`{ video: 12.5 }`,",
    "`{ reference_videos: [4, 3] }`), and the facts a price depends on that the body does not hold",
    "(such as the resolution of an upscale's result; each route below names its facts). Where a rate",
    "exists but is not shown (V-B, V-C, A-A), `quote(path, body, media, rates)` takes the target's own",
    'rates, keyed by route path like the rate tables below (`{ "/v1/videos/v-b": { "720p": 40 } }`), or',
    "one number where the rate differs by nothing. The quote answers",
    "`credits: null` with a reason where the price is not shown below, or where it depends on an input",
    "that was not supplied (a duration, a fact, or a field omitted whose default is not shown); an",
    "invalid request is an error naming the field and the rule.",
    "",
    "## Overview",
    "",
    "| route | price |",
    "|---|---|",
    ...routes.map(([path, route]) => `| ${title(path, route)} | ${status(route)} |`),
    "",
    ...routes.flatMap(([path, route]) => section(path, route)),
  ].join("\n");
}
