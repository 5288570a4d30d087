/**
 * The domain facts the comparison reads: the interface version, the models, the standard prices,
 * the service limits, polling, the Free plan's routes and the "not shown" markers. This is the one
 * module of changes/ that reads them, through the service model (and the docs' marker collector,
 * the one reader of `x-not-shown`), so no fact is derived here a second time.
 */
import { collectNotShown, type NotShownMarker } from "../model/not-shown.ts";
import type { OpenApiDocument } from "../model/document.ts";
import { readServiceModel, type LimitsModel, type PollFacts } from "../model/service-model.ts";
import type { PriceTables } from "../runtime/costs/pricing.ts";

export interface DomainFacts {
  readonly version: string;
  /** Each model's label and its create route. */
  readonly models: ReadonlyArray<{ readonly label: string; readonly route: string }>;
  /** The price table of every priced route (and of those whose price is not shown), by path. */
  readonly prices: PriceTables;
  readonly limits: LimitsModel;
  /** Each area's polling cadence, interval, typical duration and result retention, by area id. */
  readonly polling: Readonly<Record<string, Omit<PollFacts, "path" | "operationId">>>;
  /** The routes keys on the Free plan may call. */
  readonly freePlan: readonly string[];
  readonly notShown: readonly NotShownMarker[];
}

export function domainFacts(doc: OpenApiDocument): DomainFacts {
  const model = readServiceModel(doc);
  return {
    version: model.version,
    // The service model's create routes are the POSTs with a model label.
    models: model.createRoutes.map((create) => ({ label: create.label, route: `POST ${create.path}` })),
    prices: model.priceTables,
    limits: model.limits,
    polling: Object.fromEntries(
      model.areas.map(({ id, poll: { path: _path, operationId: _id, ...facts } }) => [id, facts]),
    ),
    freePlan: model.operations
      .filter((operation) => operation.freePlan)
      .map((operation) => `${operation.method.toUpperCase()} ${operation.path}`),
    notShown: collectNotShown(doc),
  };
}
