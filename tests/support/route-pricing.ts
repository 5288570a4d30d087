import type { PricingExtension, RoutePricing } from "../../runtime/costs/pricing.ts";

/** A create route's price table with nothing but `pricing` stated: the quote engine and the changelog read no more. */
export function routePricing(pricing: PricingExtension | null, extra: Partial<RoutePricing> = {}): RoutePricing {
  return {
    method: "post",
    operationId: "op",
    summary: "fixture",
    pricing,
    notShown: null,
    bodyIn: "body",
    fields: {},
    crossFieldRules: [],
    knownFields: null,
    media: {},
    facts: {},
    ...extra,
  };
}
