/**
 * The shape of the per-route data generators/client.ts derives from the description and writes into
 * generated/client.ts, and the types computed from it and from generated/types.ts's `paths`. The
 * table holds only what the runtime reads, since every client bundle ships it: a create route's path
 * follows from its area's poll path, and the media input forms are the optional check's
 * (generated/media-inputs.ts).
 */

export type InputForm = "public-url" | "data-uri" | "raw-base64" | "uploaded-file-url";

export interface AreaRoutes {
  /** `/v1/<segment>/{id}`; the area's create routes are `/v1/<segment>/<slug>` (see `createPath`). */
  readonly pollPath: string;
  /** Polling interval, x-polling's minimum in milliseconds; absent where the specification gives no number. */
  readonly intervalMs?: number;
  /** Poll-response fields the schema requires once the job has succeeded. */
  readonly resultFields: readonly string[];
  /**
   * The create routes by slug, each with its create response's field holding the job id (from its
   * poll link), or null where none is shown.
   */
  readonly routes: Readonly<Record<string, string | null>>;
}

/**
 * An operation outside the areas' create and poll routes, served by a client method named after its
 * operationId (a tuple: the table's most repeated shape, written compactly). `input`: what the
 * method's first argument is, the JSON request body, the query parameters, or nothing; `resend`:
 * whether it is resent after a transient failure (no response, 5xx), as it neither creates anything
 * nor is charged per request.
 */
export type OperationRoute = readonly [
  method: "get" | "post",
  path: string,
  input: "body" | "query" | "none",
  resend: boolean,
];

/** How the error bodies the client branches on are told apart, from their schemas. */
export interface ErrorShapes {
  /** The ModerationBlock field holding the reason, and the reasons its enum lists. */
  readonly moderation: { readonly field: string; readonly reasons: readonly string[] };
  /** The `error.code` of the rate-limited 429 (the variant that sends Retry-After and has a fixed code). */
  readonly rateLimitedCode: string;
  /** The cooldown 429's body field holding the seconds to wait (at the top of the body or in `error`). */
  readonly cooldownField: string;
}

/** The names of the headers that report the rate-limit window and the wait after a 429, as the description spells them. */
export interface RateLimitHeaderNames {
  readonly limit: string;
  readonly remaining: string;
  readonly reset: string;
  readonly retryAfter: string;
}

export interface RouteTable {
  readonly errors: ErrorShapes;
  readonly headers: RateLimitHeaderNames;
  /** JobStatus's x-terminal-values. */
  readonly terminalStatuses: readonly string[];
  /** The status whose poll response carries the result. */
  readonly successStatus: string;
  /** The terminal status of a job the service gave up on; every other non-success terminal status is a failure. */
  readonly timeoutStatus: string;
  readonly areas: Readonly<Record<string, AreaRoutes>>;
  /** Every other operation, keyed by operationId. */
  readonly operations: Readonly<Record<string, OperationRoute>>;
}

/** The create path of `slug`: its area's poll path with the slug for the id, as the description lays them out. */
export const createPath = (pollPath: string, slug: string): string => pollPath.replace("{id}", slug);

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type PathItem<Paths, P> = P extends keyof Paths ? Paths[P] : never;
type OperationOf<Paths, P, Method extends "get" | "post"> =
  PathItem<Paths, P> extends { [M in Method]: infer Op } ? Op : never;

/** The JSON request body of POST `P`. */
export type RequestBodyOf<Paths, P> =
  OperationOf<Paths, P, "post"> extends { requestBody?: infer Body } ? JsonContent<NonNullable<Body>> : never;
/** The JSON 200 body of `Method` `P`. */
export type ResponseOf<Paths, P, Method extends "get" | "post"> =
  OperationOf<Paths, P, Method> extends { responses: { 200: infer Ok } } ? JsonContent<Ok> : never;
/** The query parameters of GET `P`. */
export type QueryOf<Paths, P> =
  OperationOf<Paths, P, "get"> extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;
/** The query parameters of GET `P` as an argument; optional unless one of them is required. */
type QueryArgument<Paths, P> =
  OperationOf<Paths, P, "get"> extends { parameters: { query: infer Query } }
    ? [query: Query]
    : OperationOf<Paths, P, "get"> extends { parameters: { query?: infer Query } }
      ? [query?: Query]
      : [];

export type AreaName<T extends RouteTable> = keyof T["areas"] & string;
export type Area<T extends RouteTable, A extends AreaName<T>> = T["areas"][A];
export type Slug<T extends RouteTable, A extends AreaName<T>> = keyof Area<T, A>["routes"] & string;
/** `createPath` as a type: `/v1/images/{id}` and `i-a` make `/v1/images/i-a`. */
export type CreatePath<T extends RouteTable, A extends AreaName<T>, S extends Slug<T, A>> = Area<
  T,
  A
>["pollPath"] extends `${infer Head}{id}`
  ? `${Head}${S}`
  : never;
/** Slugs whose create response names a job id, so the job can be waited on. */
export type WaitableSlug<T extends RouteTable, A extends AreaName<T>> = {
  [S in Slug<T, A>]: Area<T, A>["routes"][S] extends string ? S : never;
}[Slug<T, A>];

/*
 * Arguments as the compiler checks them. A slug or a body field that is wrong becomes a one-line
 * message naming it (`'i-zz' is not a slug of client.image`), where a plain parameter type would
 * print the whole route table or body type in the error.
 */

/** The slug written, `S`, when it is one of `Allowed`; else a message naming it and the area. */
export type SlugArgument<
  T extends RouteTable,
  A extends AreaName<T>,
  S extends string,
  Allowed extends string = Slug<T, A>,
> = S extends Allowed
  ? S
  : S extends Slug<T, A>
    ? `'${S}': its create response shows no job id to wait on; use client.${A}.create`
    : `'${S}' is not a slug of client.${A}`;
/** The slug written, once checked (never for a wrong one). */
export type KnownSlug<T extends RouteTable, A extends AreaName<T>, S extends string> = Extract<S, Slug<T, A>>;

/** The keys of Body a value may not leave out: those the empty object (no fields) does not satisfy. */
type RequiredKeys<Body> = keyof { [K in keyof Body as Record<never, never> extends Pick<Body, K> ? never : K]: 0 };
/**
 * The constraint of a body (or query) `B` written for `Body`, flattened so that an error prints it and
 * not the types it is made of: each field of B has its type in Body; a field Body does not have, and
 * a required field B lacks, is a message naming it and the route.
 */
export type BodyArgument<B, Body, Route extends string, Part extends "body" | "query" = "body"> = {
  [K in keyof B | RequiredKeys<Body>]: K extends keyof B
    ? K extends keyof Body
      ? Body[K]
      : `'${K & string}' is not a ${Part extends "body" ? "field" : "parameter"} of the ${Part} of ${Route}`
    : `'${K & string}' is required in the ${Part} of ${Route}`;
};
/**
 * The body constraint of a create request: its route's body, named `POST <path>` in messages. Read
 * through `infer` so that an error prints the flattened fields, not this alias and the route table.
 */
export type CreateBodyArgument<B, Paths, T extends RouteTable, A extends AreaName<T>, S extends string> =
  BodyArgument<
    B,
    CreateBody<Paths, T, A, KnownSlug<T, A, S>>,
    `POST ${CreatePath<T, A, KnownSlug<T, A, S>>}`
  > extends infer Fields
    ? { [K in keyof Fields]: Fields[K] }
    : never;

export type CreateBody<Paths, T extends RouteTable, A extends AreaName<T>, S extends Slug<T, A>> = RequestBodyOf<
  Paths,
  CreatePath<T, A, S>
>;
export type Created<Paths, T extends RouteTable, A extends AreaName<T>, S extends Slug<T, A>> = ResponseOf<
  Paths,
  CreatePath<T, A, S>,
  "post"
>;
export type Job<Paths, T extends RouteTable, A extends AreaName<T>> = ResponseOf<Paths, Area<T, A>["pollPath"], "get">;

/** A succeeded poll response: its result fields are present. */
export type SucceededJob<Paths, T extends RouteTable, A extends AreaName<T>> = Job<Paths, T, A> & {
  status: T["successStatus"];
} & {
  [F in Area<T, A>["resultFields"][number] & keyof Job<Paths, T, A>]-?: NonNullable<Job<Paths, T, A>[F]>;
};

export type OperationName<T extends RouteTable> = keyof T["operations"] & string;

export type OperationResult<Paths, O extends OperationRoute> = ResponseOf<Paths, O[1], O[0]>;
/** The body or query an operation takes (never for none). */
type OperationInput<Paths, O extends OperationRoute> = O[2] extends "body"
  ? RequestBodyOf<Paths, O[1]>
  : O[2] extends "query"
    ? QueryOf<Paths, O[1]>
    : never;
/**
 * The constraint of an operation's body or query `I`, checked as a create's body is (messages name
 * `GET /v1/stock/images`). A body whose shape is not shown at all (`unknown`) takes any value.
 */
export type OperationInputArgument<I, Paths, O extends OperationRoute> =
  unknown extends OperationInput<Paths, O>
    ? unknown
    : BodyArgument<
          I,
          OperationInput<Paths, O>,
          `${Uppercase<O[0]>} ${O[1]}`,
          O[2] & ("body" | "query")
        > extends infer Fields
      ? { [K in keyof Fields]: Fields[K] }
      : never;
/** The arguments of an operation's method before its request options, `I` being its body or query as written. */
export type OperationArguments<I, Paths, O extends OperationRoute> = O[2] extends "body"
  ? [body: I]
  : O[2] extends "query"
    ? QueryArgument<Paths, O[1]> extends [unknown]
      ? [query: I]
      : [query?: I]
    : [];
