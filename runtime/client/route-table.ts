/**
 * The shape of the per-route data generators/client.ts derives from the description and writes into
 * generated/client.ts, and the types computed from it and from generated/types.ts's `paths`.
 */

export type InputForm = "public-url" | "data-uri" | "raw-base64" | "uploaded-file-url";

export interface CreateRoute {
  readonly path: string;
  /** The model's label in the seed (x-model-label). */
  readonly label: string;
  /** The create response's field holding the job id (from its poll link), or null when none is shown. */
  readonly idField: string | null;
  /** Media input fields (x-media) and their accepted forms; null where the forms are not shown. */
  readonly media: Readonly<Record<string, readonly InputForm[] | null>>;
}

export interface AreaRoutes {
  readonly pollPath: string;
  /** Polling cadence from x-polling; null where the seed gives no number. */
  readonly intervalSeconds: { readonly min: number; readonly max: number } | null;
  /** Poll-response fields the schema requires once the job has succeeded. */
  readonly resultFields: readonly string[];
  readonly routes: Readonly<Record<string, CreateRoute>>;
}

/** How the error bodies the client branches on are told apart, from their schemas. */
export interface ErrorShapes {
  /** The ModerationBlock field holding the reason, and the reasons its enum lists. */
  readonly moderation: { readonly field: string; readonly reasons: readonly string[] };
  /** The `error.code` of the rate-limited 429 (the variant that sends Retry-After and has a fixed code). */
  readonly rateLimitedCode: string;
  /** The cooldown 429's body field holding the seconds to wait (at the top of the body or in `error`). */
  readonly cooldownField: string;
}

export interface RouteTable {
  readonly errors: ErrorShapes;
  /** JobStatus's x-terminal-values. */
  readonly terminalStatuses: readonly string[];
  /** The status whose poll response carries the result. */
  readonly successStatus: string;
  /** The terminal status of a job the service gave up on; every other non-success terminal status is a failure. */
  readonly timeoutStatus: string;
  readonly costPath: string;
  readonly areas: Readonly<Record<string, AreaRoutes>>;
}

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type PathItem<Paths, P> = P extends keyof Paths ? Paths[P] : never;

/** The JSON request body of POST `P`. */
export type RequestBodyOf<Paths, P> =
  PathItem<Paths, P> extends { post: { requestBody?: infer Body } } ? JsonContent<NonNullable<Body>> : never;
/** The JSON 200 body of `Method` `P`. */
export type ResponseOf<Paths, P, Method extends "get" | "post"> =
  PathItem<Paths, P> extends { [M in Method]: { responses: { 200: infer Ok } } } ? JsonContent<Ok> : never;

export type AreaName<T extends RouteTable> = keyof T["areas"] & string;
export type Area<T extends RouteTable, A extends AreaName<T>> = T["areas"][A];
export type Slug<T extends RouteTable, A extends AreaName<T>> = keyof Area<T, A>["routes"] & string;
/** Slugs whose create response names a job id, so the job can be waited on. */
export type WaitableSlug<T extends RouteTable, A extends AreaName<T>> = {
  [S in Slug<T, A>]: Area<T, A>["routes"][S]["idField"] extends string ? S : never;
}[Slug<T, A>];

export type CreateBody<Paths, T extends RouteTable, A extends AreaName<T>, S extends Slug<T, A>> = RequestBodyOf<
  Paths,
  Area<T, A>["routes"][S]["path"]
>;
export type Created<Paths, T extends RouteTable, A extends AreaName<T>, S extends Slug<T, A>> = ResponseOf<
  Paths,
  Area<T, A>["routes"][S]["path"],
  "post"
>;
export type Job<Paths, T extends RouteTable, A extends AreaName<T>> = ResponseOf<Paths, Area<T, A>["pollPath"], "get">;

/** A succeeded poll response: its result fields are present. */
export type SucceededJob<Paths, T extends RouteTable, A extends AreaName<T>> = Job<Paths, T, A> & {
  status: T["successStatus"];
} & {
  [F in Area<T, A>["resultFields"][number] & keyof Job<Paths, T, A>]-?: NonNullable<Job<Paths, T, A>[F]>;
};
