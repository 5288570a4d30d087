/**
 * generated/client.ts: the typed client, bound to generated/types.ts's `paths` and to the per-route
 * data derived here from the service model (area, slug, poll route, cadence, id field, media inputs,
 * terminal and success statuses, and every other operation). The table holds only what the runtime
 * reads, since every client bundle ships it: no labels, and no create paths, which follow from the
 * poll paths. The runtime is the hand-written runtime/client/; the offline quote is
 * generated/costs.ts, a separate entry point that the client only names in types.
 */
import extensions from "../model/extensions.schema.json" with { type: "json" };
import type { ServiceModel } from "../model/service-model.ts";
import type { MediaInputs } from "../runtime/client/media-inputs.ts";
import { CLIENT_MEMBERS } from "../runtime/client/members.ts";
import type { AreaRoutes, ErrorShapes, InputForm, OperationRoute, RouteTable } from "../runtime/client/route-table.ts";

/** x-media's input forms, read from its definition. */
const INPUT_FORMS = extensions.$defs["x-media"].properties.forms.items.enum as readonly InputForm[];

function fail(message: string): never {
  throw new Error(`generators/client.ts: ${message}`);
}

/** What tells the error bodies the client branches on apart. */
function errorShapes(model: ServiceModel): ErrorShapes {
  const variants = model.errors.tooManyRequests.variants;
  const rateLimited = variants.find((variant) => variant.condition === "rate-limited");
  const cooldown = variants.find((variant) => variant.condition === "cooldown");
  const { reasonField, reasons } = model.errors.moderation;
  return {
    moderation: { field: reasonField, reasons },
    rateLimitedCode: rateLimited?.code ?? fail("the rate-limited 429 variant fixes no error.code"),
    cooldownField: cooldown?.secondsField ?? fail("the cooldown 429 variant carries no seconds field"),
  };
}

/** The operations outside the areas' create and poll routes: one client method each, named by operationId. */
function otherOperations(model: ServiceModel, taken: ReadonlySet<string>): Record<string, OperationRoute> {
  const operations: Record<string, OperationRoute> = {};
  for (const { path, method, operationId, kind, requestBody, queryParameters } of model.operations) {
    if (kind !== "other") continue;
    if (taken.has(operationId)) fail(`operationId ${operationId} would shadow the client member of the same name`);
    const input = requestBody ? "body" : queryParameters.length > 0 ? "query" : "none";
    // A lost response to a request that is charged per request, or that may have changed something, is not resent.
    const charged = model.priceTables[path]?.pricing?.charged;
    operations[operationId] = [method, path, input, method === "get" && charged !== "per-request"];
  }
  return operations;
}

/** A create route as derived. */
interface DerivedRoute {
  readonly path: string;
  /** The model's label in the specification (x-model-label). */
  readonly label: string;
  /** The create response's field holding the job id (from its poll link), or null where none is shown. */
  readonly idField: string | null;
  /** Media input fields (x-media) that accept only some input forms, and those forms. */
  readonly media: Readonly<Record<string, readonly InputForm[]>>;
}

export interface DerivedRouteTable extends Omit<RouteTable, "areas"> {
  readonly areas: Readonly<
    Record<string, Omit<AreaRoutes, "routes"> & { readonly routes: Readonly<Record<string, DerivedRoute>> }>
  >;
}

/** The client's per-route table: the service model's facts that the runtime in runtime/client/ reads, and each route's path and label. */
export function deriveRouteTable(model: ServiceModel): DerivedRouteTable {
  const areas: Record<string, DerivedRouteTable["areas"][string]> = {};
  for (const area of model.areas) {
    const routes: Record<string, DerivedRoute> = {};
    for (const route of area.createRoutes) {
      const media: Record<string, readonly InputForm[]> = {};
      // A field that accepts every form, or whose forms are not shown, has nothing to check.
      for (const [field, { forms }] of Object.entries(route.media))
        if (forms && !INPUT_FORMS.every((form) => forms.includes(form))) media[field] = forms;
      routes[route.slug] = { path: route.path, label: route.label, idField: route.idField, media };
    }
    const seconds = area.poll.intervalSeconds;
    areas[area.id] = {
      pollPath: area.poll.path,
      ...(seconds && { intervalMs: seconds.min * 1000 }),
      resultFields: area.resultFields,
      routes,
    };
  }
  return {
    errors: errorShapes(model),
    headers: { ...model.rateLimitHeaders, retryAfter: model.retryAfterHeader },
    terminalStatuses: model.jobStatus.terminal,
    successStatus: model.jobStatus.success,
    timeoutStatus: model.jobStatus.timeout,
    areas,
    operations: otherOperations(model, new Set([...CLIENT_MEMBERS, ...Object.keys(areas)])),
  };
}

const mapValues = <V, W>(record: Readonly<Record<string, V>>, map: (value: V) => W): Record<string, W> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

/** The route table generated/client.ts holds for this model (the docs' client samples read it too). */
export function clientRouteTable(model: ServiceModel): RouteTable {
  return runtimeTable(deriveRouteTable(model));
}

/** What generated/client.ts holds: only what the client reads, since every client bundle ships it. */
function runtimeTable(derived: DerivedRouteTable): RouteTable {
  return {
    ...derived,
    areas: mapValues(derived.areas, ({ routes, ...area }) => ({
      ...area,
      routes: mapValues(routes, (route) => route.idField),
    })),
  };
}

/** What generated/models.ts holds: each create route's area and slug, by its model's label. */
function modelsByLabel(derived: DerivedRouteTable): Record<string, { area: string; slug: string }> {
  const models: Record<string, { area: string; slug: string }> = {};
  for (const [area, { routes }] of Object.entries(derived.areas)) {
    for (const [slug, { label }] of Object.entries(routes)) models[label] = { area, slug };
  }
  return models;
}

/** What generated/media-inputs.ts holds: the media forms of the create routes that restrict any. */
function mediaInputs(derived: DerivedRouteTable): MediaInputs {
  const routes = Object.values(derived.areas).flatMap((area) => Object.values(area.routes));
  return Object.fromEntries(
    routes.filter((route) => Object.keys(route.media).length > 0).map((route) => [route.path, route.media]),
  );
}

export function generate(model: ServiceModel): Record<string, string> {
  const derived = deriveRouteTable(model);
  const table = JSON.stringify(runtimeTable(derived), null, 2);
  return {
    "generated/media-inputs.ts": `// Generated by generators/client.ts from generated/openapi.json. Do not edit.
/**
 * The client's optional media-input check: \`createClient({ ..., checkMediaInputs })\` refuses a create
 * whose media fields hold a form their x-media does not accept (a data URI where only URLs are),
 * before anything is sent. An entry point of its own, so that a client without it ships neither the
 * check nor these forms.
 */
import { mediaInputCheck } from "../runtime/client/media-inputs.ts";

/** Per create path, the media input fields that accept only some input forms, and those forms. */
export const checkMediaInputs = mediaInputCheck(${JSON.stringify(mediaInputs(derived), null, 2)});
`,
    "generated/models.ts": `// Generated by generators/client.ts from generated/openapi.json. Do not edit.
/**
 * Each create route's model by its label in the specification (\`I-A\`), which a slug map leaves as it
 * is: its area of the client (\`client.image\`) and its slug, which a deployment's slug map may
 * change. Code that names a model by its label compiles and runs against any build. An entry point
 * of its own, so that a client that does not import it does not ship it.
 */
export const models = ${JSON.stringify(modelsByLabel(derived), null, 2)} as const;
`,
    "generated/client.ts": `// Generated by generators/client.ts from generated/openapi.json. Do not edit.
import { createMediaClient, type MediaClient, type QuotingClient } from "../runtime/client/media-client.ts";
import { ModerationBlockError as AnyModerationBlockError, type ModerationBlockErrorClass } from "../runtime/client/errors.ts";
import type { ClientOptions } from "../runtime/client/options.ts";
import type { RouteTable } from "../runtime/client/route-table.ts";
// Types only: the price tables stay out of a bundle that does not import "./costs.ts" itself.
import type { quote, Quote, QuoteMedia } from "./costs.ts";
import type { paths } from "./types.ts";

export * from "../runtime/client/errors.ts";
export type { ClientOptions, RequestOptions } from "../runtime/client/options.ts";
export type { CreateAndWaitOptions, CreateResult, JobResult, WaitOptions } from "../runtime/client/media-client.ts";
export type { RateLimitInfo } from "../runtime/client/rate-limit.ts";
export type { Middleware } from "openapi-fetch";
export type { components, operations, paths } from "./types.ts";

/** Why moderation blocked a request: the reasons the route table's moderation shape lists. */
export type RestrictionReason = (typeof routeTable)["errors"]["moderation"]["reasons"][number];
/** 400 with the moderation-block body; \`restrictionReason\` is the description's enum. */
export const ModerationBlockError: ModerationBlockErrorClass<RestrictionReason> = AnyModerationBlockError;
export type ModerationBlockError = AnyModerationBlockError<RestrictionReason>;

/** Per-route data derived from the description: what the client reads at run time (runtime/client/route-table.ts). */
export const routeTable = ${table} as const satisfies RouteTable;

/** The client's areas: \`client.image\`, \`client.video\`, ... */
export type AreaName = keyof typeof routeTable.areas;
/**
 * The typed client: one property per area (create, createAndWait, get, wait) and one method per
 * other operation, named after its operationId.
 */
export type MediaServiceClient = MediaClient<paths, typeof routeTable>;
/** The typed client given the offline quote: each area also has \`quote(slug, body, media)\`. */
export type QuotingMediaServiceClient = QuotingClient<paths, typeof routeTable, QuoteMedia, Quote>;

/**
 * Creates the typed client. Every request carries \`Authorization: Bearer <apiKey>\`; the key never
 * appears in an error or a message. Throws InvalidInputError, naming the option, on a bad option.
 * Given \`quote\` (from the price-table entry point), each area quotes offline as well.
 */
export function createClient(options: ClientOptions<AreaName> & { quote: typeof quote }): QuotingMediaServiceClient;
export function createClient(options: ClientOptions<AreaName>): MediaServiceClient;
export function createClient(options: ClientOptions<AreaName>): MediaServiceClient {
  return createMediaClient<paths, typeof routeTable>(routeTable, options);
}
`,
  };
}
