/**
 * The domain facts the changelog compares: the interface version, the routes and the models, the
 * standard prices, the service limits and the "not shown" markers. This is the one module of
 * changes/ that reads them off a description, through the modules that already derive them, so
 * that moving to the service model (model/service-model.ts) is an edit of this file alone.
 */
import { collectNotShown, type NotShownMarker } from "../docs-src/not-shown.ts";
import { priceTables } from "../generators/costs/route-tables.ts";
import { operations, type OpenApiDocument } from "../model/document.ts";
import type { PriceTables } from "../runtime/costs/pricing.ts";

export interface DomainFacts {
  readonly version: string;
  /** Every route, `POST /v1/images/i-a`. */
  readonly routes: readonly string[];
  /** Each model's label and its create route. */
  readonly models: ReadonlyArray<{ readonly label: string; readonly route: string }>;
  /** The price table of every priced route (and of those whose price is not shown), by path. */
  readonly prices: PriceTables;
  /** The service limits (`x-limits` on `info`), as stated. */
  readonly limits: Readonly<Record<string, unknown>>;
  readonly notShown: readonly NotShownMarker[];
}

export function domainFacts(doc: OpenApiDocument): DomainFacts {
  const prices = priceTables(doc);
  return {
    version: doc.info.version,
    routes: operations(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`),
    models: Object.entries(prices).flatMap(([path, route]) => (route.model ? [{ label: route.model, route: `${route.method.toUpperCase()} ${path}` }] : [])),
    prices,
    limits: (doc.info["x-limits"] ?? {}) as Record<string, unknown>,
    notShown: collectNotShown(doc),
  };
}
