/**
 * The figures of every accepted create response agree with the description: the initial status,
 * and, where the account pays the standard prices, `credits` with the request's quote (with
 * `seconds` as the billed duration where the response names one).
 */
import type { Check } from "../check.ts";
import { priceOf, quotedBody } from "../cost.ts";
import { accepted } from "../http.ts";

const GROUP = "create-response";

export const createResponse: Check = {
  group: GROUP,
  rules: {
    "the create response's status is the initial status": [
      "resources.create-response.status-initial",
      "states.pending",
    ],
    "{price} with the price": [
      "resources.create-response.3d-credits",
      "resources.create-response.credits-and-seconds",
      "route:motion-control.price",
      "route:lip-sync.price",
      "route:3d.*.price",
    ],
  },
  summary:
    "Every accepted create answers with the initial status and, at standard prices, `credits` (and `seconds`) agreeing with the request's quote.",
  observe(session, { op, exchange }) {
    const body = exchange.json as Record<string, unknown> | undefined;
    if (op.facts.kind !== "create" || !accepted(exchange) || typeof body !== "object" || body === null) return;
    const { results, contract, config } = session;
    const curl = session.curl(exchange.request);
    const initial = contract.model.jobStatus.initial;
    if ("status" in body) {
      results.expect(
        GROUP,
        op.route,
        "the create response's status is the initial status",
        body.status === initial ? [] : [`status is "${String(body.status)}", not "${initial}"`],
        curl,
      );
    }
    const { priceField, billedSecondsField } = contract.model.account;
    if (!(priceField in body)) return;
    const billedSeconds = billedSecondsField in body;
    const name = `${priceField}${billedSeconds ? ` and ${billedSecondsField} agree` : " agrees"} with the price`;
    if (!config.stateful || !config.standardPrices) {
      results.skip(
        GROUP,
        op.route,
        name,
        config.stateful
          ? "the account's prices are not declared standard (standardPrices)"
          : "the mock answers with a fixed example",
      );
      return;
    }
    const request = quotedBody(exchange.request);
    const table = contract.model.priceTables[op.path];
    const media = Object.keys(table?.media ?? {});
    // The billed seconds stand for the duration of the one medium the price is per second of.
    const seconds =
      billedSeconds && media.length === 1 ? { [media[0] as string]: Number(body[billedSecondsField]) } : undefined;
    const price = priceOf(contract, op, request, seconds);
    if (price.credits === null || price.atMost) {
      results.skip(
        GROUP,
        op.route,
        name,
        price.credits === null
          ? `the request has no shown price (${price.reason})`
          : "the price depends on a media duration the response does not state",
      );
      return;
    }
    const problems =
      body[priceField] === price.credits
        ? []
        : [
            `${priceField} is ${String(body[priceField])}, the quote ${price.credits}${seconds ? ` for ${String(body[billedSecondsField])} seconds` : ""}`,
          ];
    // `seconds` is the billed duration: the quote bills exactly it, already rounded and at least the minimum.
    const perSecond = new Set(
      (table?.pricing?.components ?? [])
        .filter((component) => component.per && "mediaSeconds" in component.per)
        .map((component) => component.label),
    );
    const billed = price.breakdown?.find((line) => perSecond.has(line.label));
    if (seconds && billed && billed.quantity !== body[billedSecondsField])
      problems.push(
        `${billedSecondsField} is ${String(body[billedSecondsField])}, but the price bills ${billed.quantity} seconds for it (rounded up, with the minimum)`,
      );
    results.expect(GROUP, op.route, name, problems, curl);
  },
};
