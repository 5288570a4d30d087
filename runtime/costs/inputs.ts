/** What a quote reads: the request body, the caller's media facts, and the route's pricing. */
import type { RoutePricing, Scalar } from "./pricing.ts";

export type Body = Readonly<Record<string, unknown>>;
/** Durations in seconds keyed by media field (one per item for arrays), and facts keyed by name. */
export type MediaInputs = Readonly<Record<string, number | readonly number[] | Scalar | undefined>>;

export interface Inputs {
  readonly route: RoutePricing;
  readonly body: Body;
  readonly media: MediaInputs;
}
