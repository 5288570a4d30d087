/**
 * What each operation answers once the rules let a request through. Create and poll operations
 * share one handler each, driven by the service model; the other operations are bound by
 * operationId, and startSandbox refuses to start if an operation of the description has none.
 */
import { deref, type JsonSchema, type ResponseObject } from "../model/document.ts";
import type { CreateRouteModel, OperationModel } from "../model/service-model.ts";
import { quoteRoute, type Quote } from "../runtime/costs/quote.ts";
import { QuoteError } from "../runtime/costs/quote-error.ts";
import type { PricingComponent, PricingExtension, RoutePricing } from "../runtime/costs/pricing.ts";
import type { Job } from "./jobs.ts";
import { outputCount, withOutputCount } from "./outputs.ts";
import type { Reply } from "./responses.ts";
import type { Call } from "./rules.ts";
import type { ServiceState } from "./state.ts";
import { describeProblems } from "./validation.ts";

export type Handler = (call: Call, state: ServiceState) => Reply;

/** The billed seconds of a per-second price: the quantity of its media-seconds line. */
function billedSeconds(quote: Quote | null, pricing: PricingExtension | null | undefined): number {
  const perSecond = new Set(
    (pricing?.components ?? [])
      .filter((component) => component.per && "mediaSeconds" in component.per)
      .map((c) => c.label),
  );
  return quote?.breakdown.find((line) => perSecond.has(line.label))?.quantity ?? 0;
}

const create: Handler = (call, state) => {
  const route = state.routes.get(call.op.path)!;
  const area = state.areas.get(route.areaId)!;
  const account = call.account!;
  const body = (call.body ?? {}) as Record<string, unknown>;
  const outcome = call.outcome && "status" in call.outcome ? call.outcome.status : account.config.outcome;
  const integer = route.idType === "integer";
  const id = state.jobs.nextId(area.jobIdPrefix ?? `${area.segment}_`, integer);
  const endAt = call.now + area.timing.runMs;
  const job: Job = {
    id,
    accountName: account.name,
    key: call.key!,
    route,
    createdAt: call.now,
    endAt,
    expireAt: endAt + area.timing.retentionMs,
    outcome,
    credits: call.quote?.credits ?? 0,
    held: route.priceHeld,
    outputs: outputCount(state, route, body),
    settled: false,
  };
  if (call.free) account.plan.takeFree(call.now);
  account.start(job);
  state.jobs.add(job);
  return state.responses.created(
    route,
    job,
    billedSeconds(call.quote, state.priceTables[route.path]?.pricing),
    state.model.jobStatus.initial,
  );
};

const poll: Handler = (call, state) => {
  const id = call.params.id ?? "";
  const job = state.jobs.get(id);
  const area = state.areas.get(call.op.areaId ?? "");
  // Unknown, expired and other accounts' jobs answer alike: 404 is not documented, 403 (ownership) is.
  if (!job || !area || job.accountName !== call.account!.name || job.route.areaId !== area.id) {
    return state.responses.forbidden(
      `No job ${id} of this account in ${area?.tag ?? call.op.path} (ids expire after the retention period).`,
    );
  }
  return state.responses.job(area, job, state.jobs.statusAt(job, call.now));
};

const credits: Handler = (call, state) => state.responses.credits(call.account!.ledger.balance());

/** `<field>_pricing` for each field a rate table is keyed by first (`resolution_pricing`, `size_pricing`). */
function pricingMaps(table: RoutePricing | undefined): Record<string, unknown> {
  const maps: Record<string, unknown> = {};
  for (const component of table?.pricing?.components ?? []) {
    const field = component.rateBy?.fields[0];
    // The first rate table keyed by the field: V-F's output seconds (its extensions' rates are in
    // `pricing`), V-G's by resolution, then by mode within each.
    if (field !== undefined && !(`${field}_pricing` in maps)) maps[`${field}_pricing`] = component.rateBy!.table;
  }
  return maps;
}

/** The model list's examples that carry a `type` beside price maps: the type of the model whose maps match. */
function typeOf(
  state: ServiceState,
  op: OperationModel,
  route: CreateRouteModel,
  maps: Record<string, unknown>,
): string {
  const ok = deref<ResponseObject>(state.model.doc, state.operation(op).responses["200"]!);
  for (const example of Object.values(ok.content?.["application/json"]?.examples ?? {})) {
    const value = deref<{ value?: unknown }>(state.model.doc, example).value as Record<string, unknown> | undefined;
    if (typeof value?.type !== "string") continue;
    const others = Object.keys(value).filter((key) => key !== "type");
    if (others.length && others.every((key) => JSON.stringify(value[key]) === JSON.stringify(maps[key])))
      return value.type;
  }
  return state.areas.get(route.areaId)!.segment;
}

const models: Handler = (call, state) => {
  const wanted = call.query.get("type");
  const list = state.model.createRoutes.map((route) => {
    const table = state.priceTables[route.path];
    const maps = pricingMaps(table);
    return {
      model: route.slug,
      label: route.label,
      type: typeOf(state, call.op, route, maps),
      path: route.path,
      pricing: table?.pricing ?? null,
      ...(table?.notShown ? { price_not_shown: table.notShown } : {}),
      ...maps,
    };
  });
  return { status: 200, body: { models: wanted === null ? list : list.filter((model) => model.type === wanted) } };
};

/** The media a quote by `seconds` alone stands for: the quote reads its seconds, never its text. */
const SECONDS_ONLY = "seconds given";

/**
 * The rate per second of a route's one per-second component for `body`, whatever the seconds: a
 * quote of one second of a placeholder input. Undefined where the body cannot give it (a rate by a
 * field the body leaves out with no default) or the input is a list.
 */
function perSecondRate(
  state: ServiceState,
  path: string,
  body: Readonly<Record<string, unknown>>,
  component: PricingComponent,
) {
  const field = (component.per as { mediaSeconds: string }).mediaSeconds;
  if (state.priceTables[path]!.media[field]?.list) return undefined;
  try {
    const probe = quoteRoute(
      state.priceTables,
      path,
      { ...body, [field]: body[field] ?? SECONDS_ONLY },
      { [field]: 1 },
    );
    return probe.breakdown.find((candidate) => candidate.label === component.label)?.rate;
  } catch (error) {
    if (error instanceof QuoteError) return undefined;
    throw error;
  }
}

/**
 * The quote request's shape is not shown. The sandbox's: `{ model: <slug>, body: <the create
 * request>, seconds?: <seconds of the one per-second media input>, media?: <durations by field> }`.
 */
const cost: Handler = (call, state) => {
  const request = call.body as { model?: unknown; body?: unknown; seconds?: unknown; media?: unknown };
  const slugs = state.model.createRoutes.map((candidate) => candidate.slug).join(", ");
  // The description's shape has no required field, so a request that names no model is valid: it gets no price.
  if (request.model === undefined)
    return {
      status: 200,
      body: { credits: null, reason: `Name the model to quote in body.model (${slugs}) and its request in body.body.` },
    };
  const route = state.model.createRoutes.find((candidate) => candidate.slug === request.model);
  if (!route) return state.responses.invalidRequest(`body.model: must be a model slug (${slugs})`);
  const body = (request.body ?? {}) as Record<string, unknown>;
  const schema = state.requestSchemas.get(route.operationId);
  if (schema && !schema.validate(body))
    return state.responses.invalidRequest(
      describeProblems("body.body", schema.validate.errors, schema.schema).join("; "),
    );
  const table = state.priceTables[route.path];
  if (!table) return { status: 200, body: { model: route.slug, credits: null } };
  const mediaFields = Object.keys(table.media);
  let media = request.media ?? state.priceInputs(body, table);
  // Quoted as the create is charged: for the results it makes, a count left out included (outputs.ts).
  let priced = withOutputCount(state, route, body);
  if (request.seconds !== undefined) {
    if (mediaFields.length !== 1)
      return state.responses.invalidRequest(
        `body.seconds: ${route.slug} has ${mediaFields.length} per-second media inputs; give body.media by field instead`,
      );
    const field = mediaFields[0]!;
    media = { ...(media as object), [field]: request.seconds };
    // "exact credits when seconds is sent": the seconds stand for the input, which a quote need not carry.
    if (body[field] === undefined && !table.media[field]!.list) priced = { ...priced, [field]: SECONDS_ONLY };
  }
  let quote: Quote;
  try {
    quote = quoteRoute(state.priceTables, route.path, priced, media);
  } catch (error) {
    if (error instanceof QuoteError)
      return state.responses.invalidRequest(`${error.field.replace(/^(body|media)\b/, "body.$1")}: ${error.rule}`);
    throw error;
  }
  const perSecond = (table.pricing?.components ?? []).filter(
    (component) => component.per && "mediaSeconds" in component.per,
  );
  const line = quote.breakdown.find((candidate) => perSecond.some((component) => component.label === candidate.label));
  const one = perSecond.length === 1 ? perSecond[0]! : undefined;
  const per = one?.per;
  // "returns credits_per_second ..., plus exact credits when seconds is sent": the rate without them too.
  const rate = line?.rate ?? (one ? perSecondRate(state, route.path, priced, one) : undefined);
  return {
    status: 200,
    body: {
      model: route.slug,
      // The plan's discounted price; the breakdown is the standard one.
      credits: quote.credits === null ? null : call.account!.plan.discounted(route.slug, quote.credits),
      charged: quote.charged,
      breakdown: quote.breakdown,
      ...(quote.reason ? { reason: quote.reason } : {}),
      ...(one && rate !== undefined ? { credits_per_second: rate } : {}),
      ...(one && line ? { seconds: line.quantity } : {}),
      ...(per && "minimum" in per && per.minimum !== undefined ? { min_seconds: per.minimum } : {}),
      ...pricingMaps(table),
    },
  };
};

/** The upload request's and response's shapes are not shown: any JSON body; the answer names the uploaded-file URL. */
const upload: Handler = (_call, state) => ({
  status: 200,
  body: { url: `https://files.sandbox.invalid/uploads/${state.jobs.nextId("upl_", false)}` },
});

/** The publish response is not shown: the post's id and its fields, defaults applied. */
const post: Handler = (call, state) => {
  const properties = (state.requestSchemas.get(call.op.operationId)?.schema.properties ?? {}) as Record<
    string,
    JsonSchema
  >;
  const defaults = Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => schema.default !== undefined)
      .map(([name, schema]) => [name, schema.default]),
  );
  return { status: 200, body: { id: state.jobs.nextId("post_", false), ...defaults, ...(call.body as object) } };
};

/** The search envelope is not shown: `{ results, page, per_page }`, a full page of placeholder results with their credit line. */
const stockSearch: Handler = (call, state) => {
  const perPage = state.model.limits.stockResultsPerPage;
  const query = call.query.get("query") ?? "";
  const results = Array.from({ length: perPage }, (_, index) => {
    const title = `Sandbox ${call.op.path.split("/").pop()} result ${index + 1}${query ? ` for "${query}"` : ""}`;
    return {
      id: `${call.op.operationId}-${index + 1}`,
      title,
      url: `https://files.sandbox.invalid${call.op.path}/${index + 1}`,
      attribution: {
        text: `"${title}", a sandbox placeholder`,
        html: `<a href="https://files.sandbox.invalid${call.op.path}/${index + 1}">${escapeHtml(title)}</a>, a sandbox placeholder`,
      },
    };
  });
  return { status: 200, body: { results, page: 1, per_page: perPage } };
};

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Handlers of the operations that are neither create nor poll, by operationId. */
const OTHER_HANDLERS: Readonly<Record<string, Handler>> = {
  getAccountCredits: credits,
  listModels: models,
  quoteCost: cost,
  createUpload: upload,
  createPost: post,
  searchStockImages: stockSearch,
  searchStockSoundEffects: stockSearch,
  searchStockMusic: stockSearch,
};

/** The handler of every operation of the model; throws naming the first operation it cannot serve. */
export function handlersFor(operations: readonly OperationModel[]): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  for (const op of operations) {
    const handler = op.kind === "create" ? create : op.kind === "poll" ? poll : OTHER_HANDLERS[op.operationId];
    if (!handler)
      throw new Error(`the sandbox has no handler for ${op.method.toUpperCase()} ${op.path} (${op.operationId})`);
    handlers.set(op.operationId, handler);
  }
  return handlers;
}
