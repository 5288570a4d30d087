/**
 * The model list's prices and its `type` filter, read at no cost (a few GETs, no job). The list's
 * shape is not shown, so an entry is known only by what the description shows of it: the fragments
 * of the list's documented examples (the depth-map model's `type: "video-depth"` with its
 * `size_pricing`, V-A's `resolution_pricing`), each the rate table of one create route's standard
 * price. Where the account pays standard prices, the list holds the fragment of each implemented
 * route as shown, wherever in the list; the `type` filter, for each of its documented values, lists
 * no entry of another documented type and keeps the fragments of its own. Quotes of `POST /v1/cost`
 * are not sent: how a quote request names the model and the request to quote is not shown.
 */
import { isDeepStrictEqual } from "node:util";
import { needing, type Check } from "../check.ts";
import type { ContractOperation, NamedExample } from "../../contract/contract.ts";
import type { Exchange } from "../http.ts";
import type { Session } from "../session.ts";

const GROUP = "model-prices";

/** A price map's name in the list: `<field>_pricing` for a rate table by one body field. */
const PRICING_SUFFIX = "_pricing";

type Fragment = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The operation whose documented answers show price maps: the model list. */
function listOp(session: Session): ContractOperation | undefined {
  return session.selected().find((op) => op.method === "get" && fragmentsOf(session, op).length > 0);
}

function fragmentsOf(session: Session, op: ContractOperation): Fragment[] {
  const ok = op.responses["200"];
  const examples: NamedExample[] = ok ? session.contract.responseExamples(ok) : [];
  return examples
    .map((example) => example.value)
    .filter(
      (value): value is Fragment => isObject(value) && Object.keys(value).some((key) => key.endsWith(PRICING_SUFFIX)),
    );
}

/** The create operation whose standard price has, for each price map of `fragment`, that rate table. */
function routeOf(session: Session, fragment: Fragment): ContractOperation | undefined {
  const maps = Object.entries(fragment).filter(([key]) => key.endsWith(PRICING_SUFFIX));
  return session.contract.operations.find((op) => {
    const components = (op.create && session.contract.model.priceTables[op.path]?.pricing?.components) || [];
    return maps.every(([key, table]) =>
      components.some(
        (component) =>
          !component.when &&
          isDeepStrictEqual(component.rateBy?.fields, [key.slice(0, -PRICING_SUFFIX.length)]) &&
          isDeepStrictEqual(component.rateBy?.table, table),
      ),
    );
  });
}

/** Every object of a JSON value, itself included. */
function objectsIn(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  return isObject(value) ? [value, ...Object.values(value).flatMap(objectsIn)] : [];
}

/** Some object of the answer holds every field of the fragment, with its value. */
const holds = (answer: unknown, fragment: Fragment): boolean =>
  objectsIn(answer).some((object) =>
    Object.entries(fragment).every(([key, value]) => isDeepStrictEqual(object[key], value)),
  );

/** The documented values of the list's `type` filter. */
function typeValues(session: Session, op: ContractOperation): string[] {
  const parameter = op.parameters.find((candidate) => candidate.in === "query" && candidate.name === "type");
  return Object.values(parameter?.examples ?? {})
    .map((example) => session.contract.deref(example).value)
    .filter((value): value is string => typeof value === "string");
}

async function list(session: Session, op: ContractOperation, type?: string): Promise<Exchange> {
  const path = type === undefined ? op.path : `${op.path}?type=${encodeURIComponent(type)}`;
  return session.main.send(op, { method: op.method, path, headers: session.main.authorized() }, { positive: true });
}

const answered = (exchange: Exchange): string[] =>
  exchange.status === 200 && exchange.json !== undefined
    ? []
    : [`${exchange.request.path} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`];

const keysOf = (fragment: Fragment): string => Object.keys(fragment).join(" and ");

export const modelPrices: Check = {
  group: GROUP,
  rules: {
    "the model list shows {model}'s {fields} at the standard prices": [
      "service.models-list-current-prices",
      "versioning.prices-from-models",
    ],
    "the model list shows {model}'s type and size_pricing at the standard prices": [
      "service.models-list-current-prices",
      "versioning.prices-from-models",
      "depth-maps.models-entry",
    ],
    "the model list shows {model}'s resolution_pricing at the standard prices": [
      "service.models-list-current-prices",
      "versioning.prices-from-models",
      "videos.priced-per-second",
    ],
    "the type filter {type} lists only models of type {type}": ["depth-maps.models-entry"],
    "the type filter 3d lists only models of type 3d": ["3d.models-type-filter"],
    "the model list answers": [],
    "POST /v1/cost quotes each priced field": [],
  },
  summary:
    "The model list (no cost): with standardPrices, the price maps its documented examples show (depth-map size_pricing and type, V-A resolution_pricing) as the standard prices; its type filter lists no model of another documented type.",
  blockedBy: needing({ stateful: true }, (session) =>
    listOp(session) ? null : "the target does not implement the model list",
  ),
  async run({ session, status }) {
    const { results } = session;
    results.skip(
      GROUP,
      "*",
      "POST /v1/cost quotes each priced field",
      "the field of a quote's price is shown only for depth maps, whose quotes the cost-quotes check reads (with costRequest: the shape of a quote request is not shown)",
    );
    const op = listOp(session)!;
    status("reading the model list");
    const whole = await list(session, op);
    const curl = session.curl(whole.request);
    if (answered(whole).length)
      // Stryker disable next-line StringLiteral: answered() gives one problem at most, so its join's separator never shows
      return void results.fail(GROUP, op.route, "the model list answers", answered(whole).join("; "), curl);
    // Each documented fragment, with the implemented route whose standard price it shows.
    const shown = fragmentsOf(session, op).flatMap((fragment) => {
      const route = routeOf(session, fragment);
      return route && session.implements(route) ? [{ fragment, route }] : [];
    });
    for (const { fragment, route } of shown) {
      const name = `the model list shows ${route.create!.label}'s ${keysOf(fragment)} at the standard prices`;
      if (!session.config.standardPrices)
        results.skip(GROUP, op.route, name, "the account's prices are not declared standard (standardPrices)");
      else
        results.expect(
          GROUP,
          op.route,
          name,
          holds(whole.json, fragment)
            ? []
            : [`no entry of ${op.path} holds ${JSON.stringify(fragment)}: ${whole.text.slice(0, 300)}`],
          curl,
        );
    }
    const types = typeValues(session, op);
    for (const type of types) {
      const name = `the type filter ${type} lists only models of type ${type}`;
      const others = types.filter((other) => other !== type);
      // A filter that lists everything is seen only where the whole list has a model of another type.
      const typed = (answer: unknown) => objectsIn(answer).filter((object) => others.includes(object.type as string));
      if (typed(whole.json).length === 0) {
        results.skip(
          GROUP,
          op.route,
          name,
          `the model list shows no entry of another documented type (${others.join(", ")}) to leave out`,
        );
        continue;
      }
      status(`reading the model list of type ${type}`);
      const filtered = await list(session, op, type);
      const kept = shown.filter(({ fragment }) => fragment.type === type && !holds(filtered.json, fragment));
      const problems = answered(filtered).length
        ? answered(filtered)
        : [
            ...typed(filtered.json)
              .map((object) => `it lists an entry of type ${JSON.stringify(object.type)}`)
              .slice(0, 3),
            ...kept.map(({ fragment, route }) => `it leaves out ${route.create!.label}'s ${JSON.stringify(fragment)}`),
          ];
      results.expect(GROUP, op.route, name, problems, session.curl(filtered.request));
    }
  },
};
