/**
 * The types of the service model, apart from the code that reads it, so that the readers
 * (read-*.ts) and the model that calls them both import them from here.
 */
import type { PriceTables } from "../runtime/costs/pricing.ts";
import type { InputForm } from "../runtime/client/route-table.ts";
import type { OpenApiDocument } from "./document.ts";

export type { InputForm };

export interface ServiceModel {
  readonly doc: OpenApiDocument;
  /** info.version, the interface version string. */
  readonly version: string;
  readonly areas: readonly AreaModel[];
  /** Every create route (an operation with x-model-label), in document order. */
  readonly createRoutes: readonly CreateRouteModel[];
  /** Every operation of the description, in document order. */
  readonly operations: readonly OperationModel[];
  readonly jobStatus: JobStatusModel;
  readonly errors: ErrorModel;
  readonly limits: LimitsModel;
  readonly rateLimitHeaders: { readonly limit: string; readonly remaining: string; readonly reset: string };
  readonly retryAfterHeader: string;
  /** The price tables of every priced route (x-pricing, x-not-shown.price), keyed by path. */
  readonly priceTables: PriceTables;
  readonly account: AccountModel;
}

export interface AccountModel {
  /** The operation that reads the account's balance. */
  readonly creditsOperationId: string;
  /** Its response field of the credits the account can spend now (prices held for running jobs subtracted). */
  readonly availableField: string;
  /** The create response field stating the job's price, where a create response has it. */
  readonly priceField: string;
  /** The create response field stating the seconds billed, where a create response has it. */
  readonly billedSecondsField: string;
}

export type OperationKind = "create" | "poll" | "other";

export interface OperationModel {
  readonly path: string;
  readonly method: "get" | "post";
  readonly operationId: string;
  /** The operation's (single) tag. */
  readonly tag: string;
  /** The id of the area whose tag it carries, or null outside the model areas. */
  readonly areaId: string | null;
  readonly kind: OperationKind;
  /** Keys on the Free plan may call it (x-free-plan); every other operation answers 403 to them. */
  readonly freePlan: boolean;
  /** The documented success status: 200 for create routes, null where it is not shown. */
  readonly successStatus: number | null;
  /** The names of the query parameters it documents. */
  readonly queryParameters: readonly string[];
  /** It takes a JSON request body. */
  readonly requestBody: boolean;
}

export interface PollFacts {
  readonly path: string;
  readonly operationId: string;
  /** The specification's words for the cadence (x-polling.cadence), or null. */
  readonly cadence: string | null;
  /** Polling interval in seconds, or null where the specification gives no number. */
  readonly intervalSeconds: { readonly min: number; readonly max: number } | null;
  readonly typicalDurationSeconds: { readonly min: number; readonly max: number } | null;
  /** How long result files are kept, or null where not stated. */
  readonly retention: { readonly hours: number; readonly approximate: boolean } | null;
}

export interface AreaModel {
  /** The client's name of the area (`image`, `model3d`): x-area.name in lowerCamel. */
  readonly id: string;
  /** x-area.name: the area's name in operationIds and shared components (`Image`, `Model3d`). */
  readonly name: string;
  readonly tag: string;
  readonly labelPrefix: string;
  /** The path segment after /v1/ (`images`). */
  readonly segment: string;
  readonly poll: PollFacts;
  /** Poll-response fields the schema requires once the job has succeeded ([] where not shown). */
  readonly resultFields: readonly string[];
  /** The job id prefix the create responses' `id` pattern states, or null where it is not shown. */
  readonly jobIdPrefix: string | null;
  readonly createRoutes: readonly CreateRouteModel[];
}

export interface MediaField {
  readonly kind: string;
  /** The body field is an array of media. */
  readonly list: boolean;
  /** Accepted input forms, or null where the specification does not state them. */
  readonly forms: readonly InputForm[] | null;
}

export interface CreateRouteModel {
  readonly slug: string;
  /** The model's label in the specification (x-model-label). */
  readonly label: string;
  readonly areaId: string;
  readonly path: string;
  readonly operationId: string;
  /** The create-response field holding the job id (its poll link's parameter), or null where none is shown. */
  readonly idField: string | null;
  readonly idType: "string" | "integer" | null;
  /** The fields the create response requires. */
  readonly responseFields: readonly string[];
  /** Media input fields (x-media). */
  readonly media: Readonly<Record<string, MediaField>>;
  /** The price is reserved when the job is created and held until it ends (x-pricing.held). */
  readonly priceHeld: boolean;
  /** The model family (x-model-family), or null. */
  readonly family: string | null;
}

export interface JobStatusModel {
  /** JobStatus's values, in order. */
  readonly values: readonly string[];
  readonly terminal: readonly string[];
  /** The terminal status whose poll response carries the result (from the poll schemas' if/then). */
  readonly success: string;
  /** The terminal status of a job the service gave up on. */
  readonly timeout: string;
  /** The status of every create response's example. */
  readonly initial: string;
  /** Terminal statuses other than success: nothing is charged. */
  readonly failure: readonly string[];
  /** Each status's meaning (x-enumDescriptions). */
  readonly descriptions: Readonly<Record<string, string>>;
}

export type TooManyCondition = "rate-limited" | "queue-full" | "spend-limit" | "cooldown";

export interface TooManyVariant {
  /** The variant's schema name in components/schemas. */
  readonly schema: string;
  /** The x-limits entry that names this variant. */
  readonly condition: TooManyCondition;
  /** Whether a 429 with this body carries Retry-After (x-retry-after). */
  readonly retryAfter: boolean;
  /** The fixed `error.type` and `error.code`, or null where not shown. */
  readonly type: string | null;
  readonly code: string | null;
  /** The body field holding the seconds to wait (at the top of the body or in `error`), or null. */
  readonly secondsField: string | null;
}

export interface ErrorModel {
  /** The fields of the error body's `error` object, all required. */
  readonly bodyFields: readonly string[];
  readonly invalidRequest: { readonly status: 400; readonly type: string; readonly code: string };
  readonly moderation: {
    readonly status: 400;
    readonly messageField: string;
    readonly reasonField: string;
    readonly reasons: readonly string[];
    /** The reason enum's description and each reason's meaning (x-enumDescriptions). */
    readonly description: string;
    readonly reasonDescriptions: Readonly<Record<string, string>>;
  };
  readonly unauthorized: { readonly status: 401 };
  readonly forbidden: { readonly status: 403 };
  readonly retired: { readonly status: 410; readonly code: string };
  readonly tooManyRequests: { readonly status: 429; readonly variants: readonly TooManyVariant[] };
}

export interface LimitsModel {
  readonly requests: {
    readonly perKey: number;
    readonly perSourceIp: number;
    readonly windowSeconds: number;
    readonly window: "fixed";
    readonly rejectedRequestsCount: boolean;
  };
  readonly uploads: {
    readonly perAccount: number;
    readonly windowSeconds: number;
    readonly window: "rolling";
    readonly operationId: string;
  };
  readonly concurrency: { readonly maxOnUltra: number; readonly pollingCounts: boolean };
  readonly spendLimit: { readonly period: "month" };
  readonly cooldown: {
    readonly family: string;
    readonly consecutiveFailures: number;
    readonly withinSeconds: number;
    readonly pauseSeconds: number;
    readonly growthSeconds: number;
  };
  readonly stockResultsPerPage: number;
}
