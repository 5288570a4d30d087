/**
 * The service model: the facts of the service, read once from the bundled description into typed
 * data. Generators, lint rules, docs, the conformance suite and the sandbox read their facts here,
 * so that no fact is derived in two places. Every reader throws, naming the spot, when the
 * description no longer holds what it looks for; facts the description marks as not shown stay
 * null, never filled in.
 */
import { BUNDLE_JSON, loadBundle, type OpenApiDocument } from "./document.ts";
import { readAreas, readOperations } from "./read-routes.ts";
import { readAccount } from "./read-account.ts";
import { readErrors } from "./read-errors.ts";
import { readJobStatus } from "./read-job-status.ts";
import { readLimits, readRateLimitHeaders } from "./read-limits.ts";
import { priceTables } from "./price-tables.ts";
import { fail } from "./schema-parts.ts";
import type { AreaModel, ServiceModel } from "./types.ts";

export type * from "./types.ts";

const models = new WeakMap<OpenApiDocument, ServiceModel>();

/** The service model of a document, read once per document object. */
export function readServiceModel(doc: OpenApiDocument): ServiceModel {
  let model = models.get(doc);
  if (!model) models.set(doc, (model = buildServiceModel(doc)));
  return model;
}

function buildServiceModel(doc: OpenApiDocument): ServiceModel {
  const jobStatus = readJobStatus(doc);
  const areas = readAreas(doc);
  const limits = readLimits(doc);
  const createRoutes = areas.flatMap((area) => area.createRoutes);
  const labelled = new Map<string, string>();
  for (const { label, path } of createRoutes) {
    const earlier = labelled.get(label);
    if (earlier !== undefined)
      fail(`x-model-label ${label} labels both POST ${earlier} and POST ${path}; every model has its own label`);
    labelled.set(label, path);
  }
  const order = new Map(Object.keys(doc.paths).map((path, index) => [path, index]));
  return {
    doc,
    version: doc.info.version,
    areas,
    createRoutes: createRoutes.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0)),
    operations: readOperations(doc, areas),
    jobStatus,
    errors: readErrors(doc, limits.variants),
    limits: limits.limits,
    ...readRateLimitHeaders(doc),
    priceTables: priceTables(doc),
    account: readAccount(doc),
  };
}

const loaded = new Map<string, ServiceModel>();

/** The service model of a bundle file (generated/openapi.json by default), read once per file. */
export function loadServiceModel(file: string = BUNDLE_JSON): ServiceModel {
  let model = loaded.get(file);
  if (!model) loaded.set(file, (model = readServiceModel(loadBundle(file))));
  return model;
}

export function areaById(model: ServiceModel, id: string): AreaModel {
  const area = model.areas.find((candidate) => candidate.id === id);
  if (!area) throw new Error(`the description has no area ${id}`);
  return area;
}
