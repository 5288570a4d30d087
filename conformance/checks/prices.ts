/**
 * Prices, rate by rate: for each implemented create route whose standard price the description
 * shows (`x-pricing`), jobs whose bodies cover every rate of its price tables, every unit the price
 * is per (an image beyond the first), every surcharge on items beyond the free ones, and the inputs
 * of its named examples, which the price does not name. Bodies are the named examples with each
 * priced field's values put in, kept only where the description holds them valid and their quote
 * exact. A media input whose seconds the price reads, which only the target measures, is sent only
 * where the declaration gives inputs of its kind with their measured seconds (`mediaInputs`), the
 * declared inputs in turn; elsewhere it is left out, and its charge is skipped, naming the field.
 *
 * The jobs are pledged to the billing check's measurement and run there side by side, within the
 * cap; where the balance fell by every quote, each passes. Where it did not, the jobs are measured
 * again in a measurement of this check's own: each route's together, and where a route's disagree,
 * each job alone, so that the failure names the route, the priced fields' values, the quote and the
 * credits charged. A held price (3D) is read from the create response instead, its job outlasting
 * the run: the surcharges its examples do not show are sent once, as the run's last creates.
 */
import { isDeepStrictEqual } from "node:util";
import { needing, STAGE, type Check } from "../check.ts";
import type { Client } from "../client.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { priceOf, type PlannedSpend, type Price } from "../cost.ts";
import type { MediaInput } from "../config.ts";
import { accepted, type RequestSpec } from "../http.ts";
import { createJob, type Created } from "../jobs.ts";
import { balanceOf, creditsOp, followable, validRequests } from "../requests.ts";
import type { Session } from "../session.ts";
import { unstatedAcceptance } from "../unstated.ts";
import type { FieldRule, PricingComponent, RateTable, Scalar } from "../../runtime/costs/pricing.ts";
import { billing, STANDARD_PRICES } from "./billing.ts";

const GROUP = "prices";

const RATES = "{model}: each rate of the price table is charged its quote";
const PER_UNIT = "{model}: the price is charged per {field}";
const BEYOND_FREE = "{model}: each of {field} beyond the first {free} is charged";
const FREE_INPUTS = "{model}: the inputs the price does not name are free";
const HELD_SURCHARGES = "{model}: the held price adds {fields}";
const MEDIA_SECONDS = "{model}: each second of {field} is charged";

type Body = Record<string, unknown>;

/** One job of the sweep: a body of exact price, and what of the price table it covers. */
interface PricedJob {
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  readonly price: Price & { credits: number };
  /** `size 2K, num_images 2`: the priced fields' values, for the reports. */
  readonly what: string;
  /** The results this job bears on (their names). */
  readonly bears: readonly string[];
}

/** Where a job's charge stands once the run has seen it. */
interface Outcome {
  readonly job: PricedJob;
  readonly created: Created;
  /** The billing measurement found the balance agreeing with every quote (false: not known to). */
  readonly agreed: boolean;
}

const label = (op: ContractOperation): string => op.create?.label ?? op.route;

/** A rate table's key as the body field's value. */
function fieldValueOf(key: string, rule: FieldRule | undefined): Scalar {
  if (rule?.type === "boolean") return key === "true";
  if (rule?.type === "integer" || rule?.type === "number") return Number(key);
  return key;
}

/** Each leaf of a rate table by `fields`, as the body values that select it. */
function leaves(table: RateTable, fields: readonly string[], rules: Readonly<Record<string, FieldRule>>): Body[] {
  const [field, ...rest] = fields;
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: price tables hold a rate exactly at their last field (model/price-tables.ts, supplied-rates.ts), so this is reached only for a table by no field, where one empty leaf or none alike leave the job count to the bases
  if (field === undefined) return [{}];
  return Object.entries(table).flatMap(([key, node]) => {
    const here = { [field]: fieldValueOf(key, rules[field]) };
    // Stryker disable next-line ConditionalExpression,StringLiteral,ArrayDeclaration: a rate sits exactly at the last field (model/price-tables.ts, supplied-rates.ts), where recursing gives the same single leaf
    if (typeof node === "number") return rest.length === 0 ? [here] : [];
    return leaves(node, rest, rules).map((below) => ({ ...here, ...below }));
  });
}

/** A field whose media's duration the price reads, which only the target measures, and the declared inputs it can be sent. */
interface MeasuredField {
  readonly field: string;
  /** The declared inputs of the field's kind whose quote is exact (whole seconds, unless the price says how it rounds). */
  readonly inputs: readonly MediaInput[];
}

/** The duration limits of a media field (`x-media`). */
interface MediaRule {
  readonly kind?: string;
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxCombinedDurationSeconds?: number;
}

/** The fields a route's price reads a media duration of, each with the declared inputs (`mediaInputs`) it may be sent. */
function measuredMedia(
  session: Session,
  op: ContractOperation,
  components: readonly PricingComponent[],
): MeasuredField[] {
  const properties = (op.requestSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return components.flatMap((component) => {
    const per = component.per;
    if (!per || !("mediaSeconds" in per)) return [];
    const media = (properties[per.mediaSeconds]?.["x-media"] ?? {}) as MediaRule;
    // Within the field's limits: the media-limits check sends the inputs past them.
    // Stryker disable next-line ArrayDeclaration: an item that is no input has no kind or seconds, so the filter drops it
    const inputs = (session.config.mediaInputs ?? []).filter(
      ({ kind, seconds }) =>
        kind === media.kind &&
        // Stryker disable next-line ConditionalExpression: undefined seconds fail the comparisons below all the same
        seconds !== undefined &&
        seconds >= (media.minDurationSeconds ?? 0) &&
        seconds <= Math.min(media.maxDurationSeconds ?? Infinity, media.maxCombinedDurationSeconds ?? Infinity) &&
        (per.rounding !== undefined || Number.isInteger(seconds)),
    );
    return [{ field: per.mediaSeconds, inputs }];
  });
}

/** `body` with each measured field it holds sent the `index`th declared input (one item of a list), or left out where none is declared. */
function withInputs(body: Body, measured: readonly MeasuredField[], index: number): Body {
  const sent = { ...body };
  for (const { field, inputs } of measured) {
    if (sent[field] === undefined) continue;
    const input = inputs[index % Math.max(inputs.length, 1)];
    if (!input) delete sent[field];
    else sent[field] = Array.isArray(sent[field]) ? [input.url] : input.url;
  }
  return sent;
}

/** The measured seconds of a body's media inputs, as the quote takes them (a list's per item); undefined where it sends none. */
function secondsOf(body: Body, measured: readonly MeasuredField[]): Record<string, number | number[]> | undefined {
  const seconds: Record<string, number | number[]> = {};
  for (const { field, inputs } of measured) {
    const value = body[field];
    const of = (url: unknown): number => inputs.find((input) => input.url === url)?.seconds ?? Number.NaN;
    if (value !== undefined) seconds[field] = Array.isArray(value) ? value.map(of) : of(value);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: no seconds and undefined quote alike: exact where the body sends no measured input, not exact (null or a bound) where it does
  return Object.keys(seconds).length > 0 ? seconds : undefined;
}

/** A component whose rate the description does not show and the declaration's `rates` did not fill in. */
const unfilled = (component: PricingComponent): boolean =>
  // Stryker disable next-line ConditionalExpression: a rate following another follows a rate not shown (model/price-tables.ts) and is filled with it, so it is unfilled only beside one
  component.rateNotShown !== undefined || component.rateTimes !== undefined;

/** The route's price, when charged on success and not held, if the description or the declared rates give every rate. */
function pricingOf(session: Session, op: ContractOperation): readonly PricingComponent[] | undefined {
  const pricing = session.contract.model.priceTables[op.path]?.pricing;
  if (!op.create || op.create.priceHeld || !followable(session, op) || pricing?.charged !== "on-success") return;
  return pricing.components;
}

/** The route's price, when the description shows it (or the declared rates fill it in), is charged on success and not held. */
function sweptPricing(session: Session, op: ContractOperation): readonly PricingComponent[] | undefined {
  const components = pricingOf(session, op);
  return components?.some(unfilled) ? undefined : components;
}

/** The routes whose rates the description does not show and the declaration does not give (`rates`). */
const undeclaredRates = (session: Session): ContractOperation[] =>
  session.selected().filter((op) => pricingOf(session, op)?.some(unfilled));

/** The body fields a route's price reads: its rates' fields, the units it is per, the lists it charges beyond their free items, the media it charges by the second. */
const pricedFields = (components: readonly PricingComponent[]): Set<string> =>
  new Set(
    components.flatMap((component) => [
      // Stryker disable next-line ArrayDeclaration: a field named like no body field changes neither the free inputs nor the fields shown
      ...(component.rateBy?.fields ?? []),
      // Stryker disable next-line ArrayDeclaration: a field named like no body field changes neither the free inputs nor the fields shown
      ...(component.per && "field" in component.per ? [component.per.field] : []),
      // Stryker disable next-line ArrayDeclaration: a field named like no body field changes neither the free inputs nor the fields shown
      ...(component.per && "itemsBeyond" in component.per ? [component.per.itemsBeyond.field] : []),
      // Stryker disable next-line ArrayDeclaration: a field named like no body field changes neither the free inputs nor the fields shown
      ...(component.per && "mediaSeconds" in component.per ? [component.per.mediaSeconds] : []),
    ]),
  );

/** The media inputs of a body that the price does not name (an image to edit, reference images within the free ones). */
function freeInputs(op: ContractOperation, components: readonly PricingComponent[], body: Body): string[] {
  const properties = (op.requestSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const priced = pricedFields(components);
  return Object.keys(body).filter((field) => !priced.has(field) && properties[field]?.["x-media"] !== undefined);
}

/** The lists of a body charged beyond their free items that go beyond them, with how many are free. */
const beyondFree = (components: readonly PricingComponent[], body: Body): Array<{ field: string; free: number }> =>
  components.flatMap((component) => {
    const per = component.per;
    if (!per || !("itemsBeyond" in per)) return [];
    const items = body[per.itemsBeyond.field];
    return Array.isArray(items) && items.length > per.itemsBeyond.free ? [per.itemsBeyond] : [];
  });

/** The measured fields a body sends a declared input in. */
const measuredIn = (measured: readonly MeasuredField[], body: Body): string[] =>
  measured.filter(({ field }) => body[field] !== undefined).map(({ field }) => field);

/** What a body shows of the price beyond its rates: its free inputs, its lists beyond their free items, its measured media. */
const shows = (
  op: ContractOperation,
  components: readonly PricingComponent[],
  measured: readonly MeasuredField[],
  body: Body,
): string[] => [
  ...freeInputs(op, components, body),
  ...beyondFree(components, body).map(({ field }) => `${field} beyond`),
  ...measuredIn(measured, body).map((field) => `${field} measured`),
];

/**
 * The fewest named examples of `op` that together show all its examples show of the price beyond
 * its rates (`shows`), their measured media sent a declared input or left out, where still valid;
 * then the other valid ones, for a rate none of those holds validly (V-C's `4k`, not in video-edit mode).
 */
function bases(
  session: Session,
  op: ContractOperation,
  components: readonly PricingComponent[],
  measured: readonly MeasuredField[],
): { chosen: Body[]; others: Body[] } {
  const candidates = op.requestExamples
    .map((example) => withInputs(example.value as Body, measured, 0))
    .filter((body) => session.contract.validBody(op, body));
  const chosen: Body[] = [];
  const covered = new Set<string>();
  for (;;) {
    const gain = (body: Body): number =>
      shows(op, components, measured, body).filter((item) => !covered.has(item)).length;
    const best = candidates.reduce<Body | undefined>(
      (top, body) => (gain(body) > (top ? gain(top) : 0) ? body : top),
      undefined,
    );
    if (!best) break;
    for (const item of shows(op, components, measured, best)) covered.add(item);
    chosen.push(best);
  }
  // A chosen body tried again among the others fails again: the first that fits is the same.
  // Stryker disable next-line MethodExpression: as above
  if (chosen.length === 0) return { chosen: candidates.slice(0, 1), others: candidates.slice(1) };
  // Stryker disable next-line MethodExpression: as above
  return { chosen, others: candidates.filter((body) => !chosen.includes(body)) };
}

/** A route's rates no valid body of exact price holds (a rate only a left-out media input allows). */
interface Unplaced {
  readonly op: ContractOperation;
  readonly rates: Body;
}

/** The jobs that cover every rate, unit and surcharge of one route's price, and the rates none can. */
function planRoute(
  session: Session,
  op: ContractOperation,
  components: readonly PricingComponent[],
): { jobs: PricedJob[]; unplaced: Unplaced[] } {
  const { contract } = session;
  const rules = contract.model.priceTables[op.path]?.fields ?? {};
  const measured = measuredMedia(session, op, components);
  const { chosen: starts, others } = bases(session, op, components, measured);
  if (starts.length === 0) return { jobs: [], unplaced: [] };
  const tiers = components.map((component) =>
    component.rateBy ? leaves(component.rateBy.table, component.rateBy.fields, rules) : [],
  );
  const count = Math.max(starts.length, ...tiers.map((leaf) => leaf.length));
  const perUnit = components.flatMap((component) =>
    component.per && "field" in component.per ? [component.per.field] : [],
  );
  const jobs: PricedJob[] = [];
  const unplaced: Unplaced[] = [];
  const exact = (body: Body): (Price & { credits: number }) | undefined => {
    if (!contract.validBody(op, body)) return undefined;
    const price = priceOf(contract, op, body, secondsOf(body, measured));
    return price.credits !== null && !price.atMost ? (price as Price & { credits: number }) : undefined;
  };
  // A body an earlier job sends covers nothing more: a base that needed the same stand-in as another.
  const sent = new Set<string>();
  for (let index = 0; index < count; index++) {
    // This job's rate of each table; the bases in turn, the next one where a rate does not fit one.
    const rates: Body = Object.assign({}, ...tiers.map((leaf) => leaf[index % leaf.length] ?? {}));
    const tried = [...starts.map((_, shift) => starts[(index + shift) % starts.length]!), ...others];
    let placed = false;
    for (const start of tried) {
      // The declared media inputs in turn, one job after another.
      let body: Body = withInputs({ ...start, ...rates }, measured, index);
      // One image more than one, once, where no job so far is priced for more than one.
      for (const field of perUnit) {
        const more = { ...body, [field]: 2 };
        if (
          !jobs.some((job) => Number((job.spec.body as Body)[field] ?? 1) > 1) &&
          Number(body[field] ?? 1) <= 1 &&
          exact(more)
        )
          body = more;
      }
      const price = exact(body);
      if (!price) continue;
      placed = true;
      const key = JSON.stringify(body);
      if (!sent.has(key)) jobs.push(pricedJob(session, op, body, price, components, measured));
      sent.add(key);
      break;
    }
    if (!placed) unplaced.push({ op, rates });
  }
  return { jobs, unplaced };
}

function pricedJob(
  session: Session,
  op: ContractOperation,
  body: Body,
  price: Price & { credits: number },
  components: readonly PricingComponent[],
  measured: readonly MeasuredField[],
): PricedJob {
  const model = label(op);
  const bears = [RATES.replace("{model}", model)];
  for (const component of components) {
    const per = component.per;
    if (per && "field" in per && Number(body[per.field] ?? 1) > 1)
      bears.push(PER_UNIT.replace("{model}", model).replace("{field}", per.field));
  }
  for (const { field, free } of beyondFree(components, body))
    bears.push(BEYOND_FREE.replace("{model}", model).replace("{field}", field).replace("{free}", String(free)));
  const free = freeInputs(op, components, body);
  if (free.length > 0) bears.push(FREE_INPUTS.replace("{model}", model));
  const seconds = secondsOf(body, measured);
  for (const field of measuredIn(measured, body))
    bears.push(MEDIA_SECONDS.replace("{model}", model).replace("{field}", field));
  const what = [
    ...[...pricedFields(components)]
      .filter((field) => body[field] !== undefined)
      .map((field) =>
        seconds?.[field] !== undefined
          ? // Stryker disable next-line StringLiteral: a list is sent one declared input (withInputs): one number is joined
            `${field} of ${[seconds[field]].flat().join(" + ")} s`
          : `${field} ${Array.isArray(body[field]) ? `[${(body[field] as unknown[]).length} items]` : String(body[field])}`,
      ),
    ...free.map((field) => `with ${field}`),
  ].join(", ");
  // Stryker disable next-line StringLiteral: the request's name is not used, only its spec
  const request = validRequests(session, op, session.main, [{ name: "", value: body }])[0]!;
  return { op, spec: request.spec, price, what: what || "the example", bears };
}

/** Every job of the sweep, route by route, and the rates no job can hold. */
function plan(session: Session): { jobs: PricedJob[]; unplaced: Unplaced[] } {
  const routes = session.selected().flatMap((op) => {
    const components = sweptPricing(session, op);
    if (!components) return [];
    // A route priced by facts the body does not hold (the upscale's mode and result size): the declared creates.
    const declared = upscaleJobs(session, op, components);
    return [declared.length > 0 ? { jobs: declared, unplaced: [] } : planRoute(session, op, components)];
  });
  return { jobs: routes.flatMap((route) => route.jobs), unplaced: routes.flatMap((route) => route.unplaced) };
}

/** The result size whose upscale rates the description shows (its price's `result_resolution` fact), which the declared creates yield. */
const shownResult = (session: Session, op: ContractOperation): string | undefined =>
  session.contract.model.priceTables[op.path]?.facts.result_resolution?.map(String)[0];

/**
 * The declared upscale creates (upscaleRequests) of a route whose price reads the mode and the
 * result's resolution as facts: each quoted with its mode, a 1080p result and its input's seconds.
 */
function upscaleJobs(session: Session, op: ContractOperation, components: readonly PricingComponent[]): PricedJob[] {
  const table = session.contract.model.priceTables[op.path];
  const result = shownResult(session, op);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,OptionalChaining: a quote refuses the facts of a route whose price reads none (result_resolution), and a shown result comes from the table
  if (!result || !table?.facts.mode) return [];
  const [field] = Object.keys(table.media);
  return (session.config.upscaleRequests ?? []).flatMap(({ body, mode, seconds }) => {
    // Stryker disable next-line ConditionalExpression: the quote below refuses a body whose input is absent or not a string all the same
    if (!field || typeof body[field] !== "string") return [];
    // Its own input alone: two declared upscales may send one URL with different seconds.
    // Stryker disable next-line StringLiteral: the kind of these inputs is not read
    const measured: MeasuredField[] = [{ field, inputs: [{ kind: "video", url: body[field] as string, seconds }] }];
    const price = priceOf(session.contract, op, body, { [field]: seconds, result_resolution: result, mode });
    if (price.credits === null || price.atMost) return [];
    const job = pricedJob(session, op, body, price as Price & { credits: number }, components, measured);
    return [{ ...job, what: `mode ${mode}, a ${result} result, ${job.what}` }];
  });
}

/** Each measured media field no job sends a declared input in, with why. */
function unmeasured(
  session: Session,
  jobs: readonly PricedJob[],
): Array<{ op: ContractOperation; name: string; why: string }> {
  return session.selected().flatMap((op) => {
    const components = sweptPricing(session, op);
    if (!components) return [];
    // One result per field: two components priced by the seconds of one field (an upscale's precise and creative) share it.
    const byField = new Map(measuredMedia(session, op, components).map((media) => [media.field, media]));
    return [...byField.values()].flatMap(({ field, inputs }) => {
      const name = MEDIA_SECONDS.replace("{model}", label(op)).replace("{field}", field);
      // Stryker disable next-line ConditionalExpression: the name holds the route's model label, which no other route has (the paths rule puts a create at its label's slug)
      if (jobs.some((job) => job.op === op && job.bears.includes(name))) return [];
      const why = !session.config.mediaInputs
        ? `not declared: media inputs the target can fetch, with the seconds it measures for them (mediaInputs); no answer states the seconds it billed for ${field}`
        : inputs.length === 0
          ? `mediaInputs gives no input of ${field}'s kind with an exact quote (whole seconds, where the description does not show how the seconds are rounded)`
          : `no named example of ${op.route} sends ${field} validly with a declared input at an exact quote`;
      return [{ op, name, why }];
    });
  });
}

/** A held price's surcharges that its examples never send (conditioned on a field being present), with a body sending them. */
function heldSurcharges(
  session: Session,
): Array<{ op: ContractOperation; spec: RequestSpec; fields: string[]; price: Price }> {
  return session.selected().flatMap((op) => {
    const pricing = session.contract.model.priceTables[op.path]?.pricing;
    if (!op.create?.priceHeld || !pricing) return [];
    const shown = op.requestExamples.map((example) => example.value as Body);
    const fields = pricing.components.flatMap((component) =>
      (component.when ?? []).flatMap((condition) =>
        "field" in condition &&
        "present" in condition &&
        condition.present &&
        !shown.some((body) => condition.field in body)
          ? [condition.field]
          : [],
      ),
    );
    const base = shown[0];
    if (fields.length === 0 || !base) return [];
    // The fields' type is not shown: a quote charges them whenever they are sent.
    const body = { ...base, ...Object.fromEntries(fields.map((field) => [field, true])) };
    // Stryker disable next-line StringLiteral: the request's name is not used, only its spec
    const spec = validRequests(session, op, session.main, [{ name: "", value: body }])[0]!.spec;
    return [{ op, spec, fields, price: priceOf(session.contract, op, body) }];
  });
}

export const prices: Check = {
  group: GROUP,
  rules: {
    [RATES]: [
      "route:images.*.price",
      "route:videos.v-a.price",
      "route:videos.v-b.price",
      "route:videos.v-c.price",
      "route:audios.price",
      "route:video-upscales.price",
      "route:videos.priced-per-second",
      "service.standard-prices",
    ],
    [PER_UNIT]: ["route:images.billed-per-image"],
    [BEYOND_FREE]: ["route:videos.*.reference-image-surcharge"],
    [FREE_INPUTS]: ["route:images.*.input-image-free", "route:videos.v-b.price"],
    [HELD_SURCHARGES]: ["route:3d.*.rigging-animation", "route:3d.*.price"],
    [MEDIA_SECONDS]: [
      "route:videos.v-a.input-video-price",
      "route:videos.v-a.reference-video-price",
      "route:videos.v-c.video-edit-input-price",
      "route:audios.price",
      "route:video-upscales.price",
      "route:depth-maps.price",
      "route:motion-control.price",
    ],
    "{model}: the job of {what} is created": [],
    "{model}: the job of {what} succeeds": [],
  },
  summary:
    "With standardPrices: jobs covering every rate, per-unit charge, surcharge and free input of each shown price (and, with rates, of the models whose rates it does not show; with mediaInputs, the seconds of a media input it charges by the second; with upscaleRequests, the upscale rates), run in the billing measurement, make the balance fall by their quotes (else each is measured alone and named); the surcharges of a held price that its examples never send are read off the create response.",
  blockedBy: needing(
    {
      stateful: true,
      declared: [STANDARD_PRICES],
    },
    (session) => {
      if (!creditsOp(session)) return "the target does not implement the credits route";
      if (session.config.skipGroups.includes(billing.group))
        return "its jobs run in the billing check's measurement, and the billing group is skipped";
      return plan(session).jobs.length > 0 || heldSurcharges(session).length > 0
        ? (billing.blockedBy?.(session) ?? null)
        : "no implemented create route has a shown price to charge rate by rate";
    },
  ),
  spend: (session) => [
    ...plan(session).jobs.map(
      (job): PlannedSpend => ({ key: session.main.name, what: `${job.op.route} (${job.what})`, price: job.price }),
    ),
    ...heldSurcharges(session).map(
      (held): PlannedSpend => ({
        key: session.main.name,
        what: `${held.op.route} (${held.fields.join(", ")})`,
        price: held.price,
      }),
    ),
  ],
  async run({ session, stage, status }) {
    const client = session.main;
    const { jobs, unplaced } = plan(session);
    for (const { op, rates } of unplaced)
      session.results.skip(
        GROUP,
        op.route,
        RATES.replace("{model}", label(op)),
        shownResult(session, op)
          ? `not declared: ${op.route} creates with their mode and a ${shownResult(session, op)} result (upscaleRequests), which its price reads and no body the description shows holds`
          : Object.keys(rates).length > 0
            ? `no named example of ${op.route} holds ${JSON.stringify(rates)} validly at an exact quote (a media input whose seconds only the target measures is left out)`
            : `no named example of ${op.route} has an exact quote without a media input whose seconds only the target measures`,
      );
    for (const { op, name, why } of unmeasured(session, jobs)) session.results.skip(GROUP, op.route, name, why);
    for (const op of undeclaredRates(session))
      session.results.skip(
        GROUP,
        op.route,
        RATES.replace("{model}", label(op)),
        `not declared: the target's own rates of ${label(op)} (rates), which the description does not show`,
      );
    status(`${jobs.length} jobs in the billing measurement`);
    const verdicts = new Verdicts();
    const outcomes = await sweep(session, client, jobs);
    const suspects = outcomes.filter((outcome) => !outcome.agreed);
    for (const outcome of outcomes) if (outcome.agreed) verdicts.add(outcome.job);
    if (suspects.length > 0) {
      status(`measuring ${suspects.length} jobs again, route by route`);
      await isolate(session, client, suspects, verdicts, status);
    }
    verdicts.write(session);
    const held = heldSurcharges(session);
    if (held.length === 0) return;
    // Its job outlasts the run, holding a slot: it goes with the creates whose jobs are not followed.
    await stage(STAGE.late);
    for (const surcharge of held) await heldPrice(session, client, surcharge);
  },
};

/** Runs the jobs in the billing measurement; each with whether the balance there agreed with every quote. */
async function sweep(session: Session, client: Client, jobs: PricedJob[]): Promise<Outcome[]> {
  const pledge = client.charges.pledge(jobs.length);
  try {
    const ran = await Promise.all(
      jobs.map((job) =>
        pledge.charge(async (report, measured) => {
          const created = await createJob(client, job.op, job.spec, "accept");
          let verdict: Promise<boolean | null> = Promise.resolve(null);
          const started = created.job;
          if (started && measured)
            verdict = new Promise((resolve) =>
              report({
                what: `${job.op.route} (${started.id})`,
                credits: job.price.credits,
                charged: () => started.terminal === session.contract.model.jobStatus.success,
                op: job.op,
                spec: job.spec,
                verdict: resolve,
              }),
            );
          await started?.ended;
          return { job, created, verdict };
        }),
      ),
    );
    const outcomes: Outcome[] = [];
    for (const { job, created, verdict } of ran) {
      if (!succeeded(session, job, created)) continue;
      outcomes.push({ job, created, agreed: (await verdict) === true });
    }
    return outcomes;
  } finally /* Stryker disable next-line BlockStatement: every pledged job joins the measurement (all at once, when it opens) before any can fail: no pledge is left to give up */ {
    pledge.release();
  }
}

/** Whether the job was created and succeeded; where not, the result says why its charge cannot be judged. */
function succeeded(session: Session, job: PricedJob, created: Created): boolean {
  const model = label(job.op);
  const curl = session.curl(job.spec);
  if (!created.job) {
    const name = `${model}: the job of ${job.what} is created`;
    const unstated = unstatedAcceptance(job.op, job.spec.body, session.config.describedShapes);
    const detail = `the create answered ${created.exchange.status}: ${created.exchange.text.slice(0, 200)}`;
    if (unstated && created.exchange.status === 400)
      session.results.skip(GROUP, job.op.route, name, `${detail}, which the description allows: ${unstated}`);
    else session.results.fail(GROUP, job.op.route, name, created.unfollowed ?? detail, curl);
    return false;
  }
  if (created.job.terminal === session.contract.model.jobStatus.success) return true;
  session.results.fail(
    GROUP,
    job.op.route,
    `${model}: the job of ${job.what} succeeds`,
    `the job ended ${created.job.terminal ?? created.job.stoppedBy}, so its charge cannot be judged`,
    curl,
  );
  return false;
}

/** One result per route and name, whatever the number of jobs bearing on it. */
class Verdicts {
  private readonly byResult = new Map<string, { job: PricedJob; name: string; problems: string[] }>();

  /** `job` was charged its quote, or not (`problem`), for every result it bears on (or `names`). */
  add(job: PricedJob, problem?: string, names: readonly string[] = job.bears): void {
    for (const name of names) {
      const key = `${job.op.route} ${name}`;
      const entry = this.byResult.get(key) ?? { job, name, problems: [] };
      if (problem) entry.problems.push(problem);
      // The curl line shows a job charged otherwise, where one was.
      if (problem && entry.problems.length === 1) entry.job = job;
      this.byResult.set(key, entry);
    }
  }

  write(session: Session): void {
    for (const { job, name, problems } of this.byResult.values())
      session.results.expect(GROUP, job.op.route, name, problems, session.curl(job.spec));
  }
}

/** A job's quote for a report, with its lines: `38 (output image 19 x 2)`. */
const quoted = (job: PricedJob): string =>
  `${job.price.credits}${
    job.price.breakdown?.length
      ? ` (${job.price.breakdown.map((line) => `${line.label} ${line.rate} x ${line.quantity}`).join(" + ")})`
      : // Stryker disable next-line StringLiteral: no job priced here lacks lines; an exact on-success quote of the description always has one (a rate it applies)
        ""
  }`;

/** Runs `jobs` side by side and reads what the balance fell by; a string where it cannot be read. */
async function fallOf(
  session: Session,
  client: Client,
  jobs: PricedJob[],
): Promise<{ fell: number; ran: Outcome[] } | string> {
  const before = await balanceOf(session, client);
  if (typeof before === "string") return before;
  const created = await Promise.all(
    jobs.map(async (job) => {
      const made = await createJob(client, job.op, job.spec, "accept");
      await made.job?.ended;
      // Stryker disable next-line BooleanLiteral: a job measured again is judged by the balance here, not by this flag
      return { job, created: made, agreed: false };
    }),
  );
  const after = await balanceOf(session, client);
  if (typeof after === "string") return after;
  return { fell: before - after, ran: created.filter((outcome) => succeeded(session, outcome.job, outcome.created)) };
}

/**
 * Measures the jobs again in a measurement of this check's own: each route's together, and where a
 * route's disagree with their quotes, each job alone, naming those charged otherwise.
 */
async function isolate(
  session: Session,
  client: Client,
  suspects: Outcome[],
  verdicts: Verdicts,
  status: (text: string) => void,
): Promise<void> {
  const routes = [...new Set(suspects.map((outcome) => outcome.job.op))];
  const { availableField } = session.contract.model.account;
  await client.charges.measure(async () => {
    for (const op of routes) {
      const jobs = suspects.filter((outcome) => outcome.job.op === op).map((outcome) => outcome.job);
      status(`measuring the ${jobs.length} jobs of ${op.route}`);
      const together = await fallOf(session, client, jobs);
      if (typeof together === "string")
        return void session.results.fail(GROUP, op.route, RATES.replace("{model}", label(op)), together);
      const quote = together.ran.reduce((sum, outcome) => sum + outcome.job.price.credits, 0);
      if (together.fell === quote) {
        for (const outcome of together.ran) verdicts.add(outcome.job);
        continue;
      }
      let named = 0;
      for (const job of together.ran.map((outcome) => outcome.job)) {
        status(`measuring ${op.route} (${job.what}) alone`);
        const alone = await fallOf(session, client, [job]);
        if (typeof alone === "string") return void session.results.fail(GROUP, op.route, job.bears[0]!, alone);
        if (alone.ran.length === 0) continue;
        if (alone.fell === job.price.credits) verdicts.add(job);
        else {
          // Stryker disable next-line UpdateOperator: only whether any job was named is read
          named++;
          verdicts.add(
            job,
            `measured alone, ${op.route} with ${job.what} made ${availableField} fall by ${alone.fell}; its quote is ${quoted(job)}`,
          );
        }
      }
      const first = together.ran[0]?.job;
      if (named === 0 && first)
        verdicts.add(
          first,
          `${availableField} fell by ${together.fell} for jobs quoted ${quote} in all (${together.ran.map((outcome) => `${outcome.job.what}: ${quoted(outcome.job)}`).join("; ")}), yet each, measured alone, was charged its quote`,
          [first.bears[0]!],
        );
    }
  });
}

/** One create sending a held price's surcharges; its create response's price against the quote. */
async function heldPrice(
  session: Session,
  client: Client,
  held: { op: ContractOperation; spec: RequestSpec; fields: string[]; price: Price },
): Promise<void> {
  const name = HELD_SURCHARGES.replace("{model}", label(held.op)).replace("{fields}", held.fields.join(" and "));
  const { priceField } = session.contract.model.account;
  const curl = session.curl(held.spec);
  if (held.price.credits === null || held.price.atMost)
    return void session.results.skip(
      GROUP,
      held.op.route,
      name,
      `the request has no exact quote (${held.price.reason ?? "a media duration"})`,
    );
  // Not followed to its end (it takes minutes); the price is reserved when the job is created.
  const created = await client.charges.charge(null, async () => {
    const made = await createJob(client, held.op, held.spec, "accept", {
      when: Promise.resolve(),
      // Stryker disable next-line StringLiteral: the reason a held job is given up is not reported
      reason: "a held price's job outlasts the run; its price is read off the create response",
    });
    await made.job?.ended;
    return made;
  });
  const body = created.exchange.json as Body | undefined;
  if (!created.job && !accepted(created.exchange)) {
    const unstated = unstatedAcceptance(held.op, held.spec.body, session.config.describedShapes);
    const detail = `the create answered ${created.exchange.status}: ${created.exchange.text.slice(0, 200)}`;
    if (unstated && created.exchange.status === 400)
      return void session.results.skip(
        GROUP,
        held.op.route,
        name,
        `${detail}, which the description allows: ${unstated}`,
      );
    return void session.results.fail(GROUP, held.op.route, name, detail, curl);
  }
  const credits = body?.[priceField];
  session.results.expect(
    GROUP,
    held.op.route,
    name,
    isDeepStrictEqual(credits, held.price.credits)
      ? []
      : [
          `${priceField} is ${JSON.stringify(credits)}; the quote with ${held.fields.join(" and ")} is ${held.price.credits}`,
        ],
    curl,
  );
}
