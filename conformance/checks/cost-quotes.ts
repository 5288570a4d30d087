/**
 * Quotes of `POST /v1/cost`, at no cost. How a quote request names the model and the request to
 * quote is not shown, so the declaration gives its shape (`costRequest`: `"{model}"` and
 * `"{request}"` stand for them); `seconds` is the description's own field. A depth-map quote with
 * `seconds` carries `credits_per_second`, `size_pricing`, `min_seconds` and `credits`, and one
 * without `seconds` the first three all the same (only the exact `credits` need `seconds`); where the
 * account pays standard prices they are the standard ones, and on a plan that discounts the model
 * (planDiscounts) `credits` is the discounted price, rounded either way (the rounding is not
 * shown). Only depth-map quotes name the field of their price, so only they are judged. The JSON
 * types of the figures are not shown: a number written as a string counts as that number.
 */
import { isDeepStrictEqual } from "node:util";
import { needing, type Check } from "../check.ts";
import type { Client } from "../client.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { priceOf } from "../cost.ts";
import { accepted, type Exchange, type RequestSpec } from "../http.ts";
import type { Session } from "../session.ts";
import { discounted } from "./plan-prices.ts";

const GROUP = "cost-quotes";

/** The seconds a depth-map quote is asked for: above the minimum, a whole number (the field's JSON type is not shown). */
const SECONDS = 7;

const FIELDS =
  "a depth-map quote with seconds carries credits_per_second, size_pricing, min_seconds and credits{example}";
const WITHOUT_SECONDS =
  "a depth-map quote without seconds still carries credits_per_second, size_pricing and min_seconds{example}";
const STANDARD = "a depth-map quote's figures are the standard prices{example}";
const DISCOUNTED = "a depth-map quote on a discounted plan is the standard price less the discount{example}";

/** `POST /v1/cost`, the route the specification names for quotes. */
const costOp = (session: Session): ContractOperation | undefined =>
  session.selected().find((op) => op.method === "post" && op.path === "/v1/cost");

/** The implemented depth-map create routes (the specification names the quote's fields for depth maps only). */
const depthMaps = (session: Session): ContractOperation[] =>
  session.selected().filter((op) => op.create !== undefined && op.area === "depth-maps");

/** The declared template with `"{model}"` and `"{request}"` put in, and `seconds` where given. */
function quoteBody(
  template: Record<string, unknown>,
  slug: string,
  request: unknown,
  seconds: number | undefined,
): Record<string, unknown> {
  const fill = (value: unknown): unknown =>
    value === "{model}"
      ? slug
      : value === "{request}"
        ? request
        : Array.isArray(value)
          ? value.map(fill)
          : typeof value === "object" && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]))
            : value;
  return { ...(fill(template) as Record<string, unknown>), ...(seconds === undefined ? {} : { seconds }) };
}

/** A figure of a quote as a number (its JSON type is not shown), or NaN. */
const figure = (value: unknown): number =>
  typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;

/** What the description's price table says a depth-map quote of `request` for SECONDS holds. */
function standardQuote(session: Session, op: ContractOperation, request: Record<string, unknown>) {
  const table = session.contract.model.priceTables[op.path];
  const component = table?.pricing?.components.find((candidate) => candidate.per && "mediaSeconds" in candidate.per);
  const per = component?.per && "mediaSeconds" in component.per ? component.per : undefined;
  if (!component || !per) return undefined;
  const price = priceOf(session.contract, op, request, { [per.mediaSeconds]: SECONDS });
  const line = price.breakdown?.find((candidate) => candidate.label === component.label);
  if (price.credits === null || !line) return undefined;
  return {
    credits: price.credits,
    credits_per_second: line.rate,
    ...(component.rateBy?.fields.length === 1 ? { size_pricing: component.rateBy.table } : {}),
    ...(per.minimum !== undefined ? { min_seconds: per.minimum } : {}),
  };
}

async function quote(
  session: Session,
  client: Client,
  cost: ContractOperation,
  op: ContractOperation,
  request: unknown,
  seconds: number | undefined,
): Promise<{ spec: RequestSpec; exchange: Exchange; json: Record<string, unknown> | undefined }> {
  const spec: RequestSpec = {
    method: cost.method,
    path: cost.path,
    headers: client.authorized(),
    body: quoteBody(session.config.costRequest!, op.create!.slug, request, seconds),
  };
  const exchange = await client.send(cost, spec, { positive: true });
  const json = exchange.json;
  return {
    spec,
    exchange,
    // Stryker disable next-line ConditionalExpression: a null body is refused by run() as no quote either way (!answered.json, other.json?.credits)
    json: typeof json === "object" && json !== null ? (json as Record<string, unknown>) : undefined,
  };
}

export const costQuotes: Check = {
  group: GROUP,
  rules: {
    [FIELDS]: ["depth-maps.cost-fields"],
    [WITHOUT_SECONDS]: ["depth-maps.cost-fields"],
    [STANDARD]: ["depth-maps.cost-fields", "service.cost-quotes-discounted-price"],
    [DISCOUNTED]: ["service.cost-quotes-discounted-price"],
  },
  summary:
    "With costRequest: a depth-map quote with seconds carries credits_per_second, size_pricing, min_seconds and credits, and one without seconds the first three; with standardPrices they are the standard prices, and on a plan that discounts the model (planDiscounts) credits is the discounted price.",
  blockedBy: needing(
    {
      declared: [
        {
          field: "costRequest",
          gives: "the shape of a POST /v1/cost request, which is not shown (how it names the model and the request)",
        },
      ],
    },
    (session) =>
      !costOp(session)
        ? "the target does not implement POST /v1/cost"
        : depthMaps(session).length === 0
          ? "the target implements no depth-map model, the only quotes whose fields are shown"
          : null,
  ),
  async run({ session }) {
    const cost = costOp(session)!;
    const discounts = session.config.planDiscounts;
    for (const op of depthMaps(session)) {
      const percent = discounts?.models[op.create!.label];
      if (!session.config.standardPrices)
        session.results.skip(
          GROUP,
          op.route,
          STANDARD.replace("{example}", ""),
          "the account's prices are not declared standard (standardPrices)",
        );
      if (percent === undefined)
        session.results.skip(
          GROUP,
          op.route,
          DISCOUNTED.replace("{example}", ""),
          `not declared: a key whose plan discounts ${op.create!.label} (planDiscounts)`,
        );
      for (const example of op.requestExamples) {
        const request = example.value as Record<string, unknown>;
        const named = (template: string): string => template.replace("{example}", ` ("${example.name}")`);
        const expected = standardQuote(session, op, request);
        const answered = await quote(session, session.main, cost, op, request, SECONDS);
        const curl = session.curl(answered.spec);
        if (!accepted(answered.exchange) || !answered.json) {
          session.results.fail(
            GROUP,
            op.route,
            named(FIELDS),
            `the declared quote request answered ${answered.exchange.status}: ${answered.exchange.text.slice(0, 200)}`,
            curl,
          );
          continue;
        }
        const json = answered.json;
        const fields = ["credits_per_second", "size_pricing", "min_seconds", "credits"];
        session.results.expect(
          GROUP,
          op.route,
          named(FIELDS),
          fields.filter((field) => json[field] === undefined).map((field) => `the quote has no ${field}`),
          curl,
        );
        const bare = await quote(session, session.main, cost, op, request, undefined);
        const rate = figure(bare.json?.credits_per_second);
        session.results.expect(
          GROUP,
          op.route,
          named(WITHOUT_SECONDS),
          !accepted(bare.exchange) || !bare.json
            ? [`the quote without seconds answered ${bare.exchange.status}: ${bare.exchange.text.slice(0, 200)}`]
            : [
                ...fields
                  .filter((field) => field !== "credits" && bare.json![field] === undefined)
                  .map((field) => `the quote has no ${field}`),
                // The rate is the request's, whatever the seconds: the one the quote with seconds gave.
                ...(bare.json.credits_per_second !== undefined &&
                json.credits_per_second !== undefined &&
                rate !== figure(json.credits_per_second)
                  ? [
                      `credits_per_second is ${JSON.stringify(bare.json.credits_per_second)}, where the same request with seconds gave ${JSON.stringify(json.credits_per_second)}`,
                    ]
                  : []),
              ],
          session.curl(bare.spec),
        );
        if (session.config.standardPrices && expected) {
          const problems = Object.entries(expected).flatMap(([field, value]) => {
            const same =
              typeof value === "number"
                ? figure(json[field]) === value
                : isDeepStrictEqual(
                    Object.fromEntries(
                      Object.entries((json[field] ?? {}) as Record<string, unknown>).map(([key, rate]) => [
                        key,
                        figure(rate),
                      ]),
                    ),
                    value,
                  );
            return same ? [] : [`${field} is ${JSON.stringify(json[field])}, not ${JSON.stringify(value)}`];
          });
          session.results.expect(GROUP, op.route, named(STANDARD), problems, curl);
        }
        if (discounts && percent !== undefined && expected) {
          const other = await quote(session, session.client(discounts.apiKey), cost, op, request, SECONDS);
          const credits = figure(other.json?.credits);
          const allowed = discounted(expected.credits, percent);
          session.results.expect(
            GROUP,
            op.route,
            named(DISCOUNTED),
            allowed.includes(credits)
              ? []
              : [
                  `credits is ${JSON.stringify(other.json?.credits ?? other.exchange.text.slice(0, 200))}; the standard price is ${expected.credits}, less ${percent} % ${allowed.join(" or ")}`,
                ],
            session.curl(other.spec),
          );
        }
      }
    }
  },
};
