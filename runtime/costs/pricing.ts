/**
 * The shape of the `x-pricing` extension (model/extensions.schema.json, docs/extensions.md)
 * and of the per-route price tables that generated/costs.ts holds.
 */

export type Scalar = string | number | boolean;

/** A condition on a body field (defaults apply) or on a fact the caller supplies. */
export type Condition =
  | { readonly field: string; readonly equals: Scalar }
  | { readonly field: string; readonly present: boolean }
  | { readonly fact: string; readonly equals: Scalar };

/** A condition on a body field. */
export type FieldCondition = Extract<Condition, { readonly field: string }>;

export interface RateTable {
  readonly [value: string]: number | RateTable;
}

export type Quantity =
  | { readonly field: string }
  | {
      readonly mediaSeconds: string;
      readonly rounding?: "up" | "none";
      readonly minimum?: number;
      readonly maximum?: number;
    }
  | { readonly itemsBeyond: { readonly field: string; readonly free: number } };

export interface PricingComponent {
  readonly label: string;
  readonly rate?: number;
  readonly rateBy?: { readonly fields: readonly string[]; readonly table: RateTable };
  /** The rate is not shown: a quote takes it from supplied rates (supplied-rates.ts), by these fields' values. */
  readonly rateNotShown?: { readonly by: readonly string[] };
  /** The rate is `factor` times the rate of the component labelled `component`. */
  readonly rateTimes?: { readonly component: string; readonly factor: number };
  readonly per?: Quantity;
  readonly when?: readonly Condition[];
}

export interface PricingExtension {
  readonly charged: "on-success" | "per-request" | "free";
  /** The price is reserved when the job is created and held until it ends. */
  readonly held?: boolean;
  readonly components: readonly PricingComponent[];
  readonly notes?: string;
}

/** What the request schema says about a body field the pricing reads. */
export interface FieldRule {
  readonly type?: "string" | "integer" | "number" | "boolean" | "array";
  readonly enum?: readonly Scalar[];
  readonly default?: Scalar;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly required: boolean;
}

/** The limits a cross-field rule can put on a field. */
export type FieldLimits = Pick<FieldRule, "enum" | "minimum" | "maximum" | "minItems" | "maxItems">;

/**
 * A cross-field rule of the request schema (an `if`/`then` or `dependentRequired` of its `allOf`)
 * that involves a field the pricing reads: a body that breaks it is invalid, not a price.
 */
export interface CrossFieldRule {
  /** The rule's `description` in the request schema, which quotes the specification. */
  readonly description: string;
  /** The rule holds when each of these fields is given (with this value, where `equals`). */
  readonly when: readonly FieldCondition[];
  readonly required?: readonly string[];
  /** At least one of these fields must be given. */
  readonly requiredOneOf?: readonly string[];
  readonly forbidden?: readonly string[];
  readonly limits?: { readonly [field: string]: FieldLimits };
}

/** Duration limits of a media field whose seconds the pricing reads (from `x-media`). */
export interface MediaRule {
  /** The body field is an array: the caller gives one duration per item. */
  readonly list: boolean;
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxCombinedDurationSeconds?: number;
  readonly conditionalLimits?: ReadonlyArray<{
    readonly when: Condition;
    readonly limits: { readonly maxDurationSeconds?: number };
  }>;
}

/** Everything a quote of one route needs, read off the bundled description. */
export interface RoutePricing {
  readonly method: "get" | "post";
  readonly operationId: string;
  /** The model's label in the specification (`I-A`), absent on routes that are not a model. */
  readonly model?: string;
  readonly summary: string;
  /** `x-pricing`, or null where the specification shows no price at all. */
  readonly pricing: PricingExtension | null;
  /** The `x-not-shown.price` sentence, where the price is not shown, or shown only in part. */
  readonly notShown: string | null;
  /** Where the body (or query) goes: request body fields, or query parameters. */
  readonly bodyIn: "body" | "query";
  /** The fields the pricing reads. */
  readonly fields: { readonly [name: string]: FieldRule };
  /** The request schema's cross-field rules that involve a field the pricing reads. */
  readonly crossFieldRules: readonly CrossFieldRule[];
  /** All field names when the schema is closed (`additionalProperties: false`); null when open. */
  readonly knownFields: readonly string[] | null;
  /** The media fields whose durations the pricing reads. */
  readonly media: { readonly [field: string]: MediaRule };
  /** Facts the caller supplies (they are not in the body), with the values the pricing names. */
  readonly facts: { readonly [fact: string]: readonly Scalar[] };
}

export type PriceTables = { readonly [path: string]: RoutePricing };
