/**
 * The typed client over openapi-fetch. generated/client.ts binds it to the generated `paths` and the
 * route table derived from the description; everything here is generic over both. Written with an
 * eye on the minified bundle every user ships: closures rather than classes and plan objects.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { ATTEMPT, attemptRequests, capped } from "./answer-cap.ts";
import { caller, type AnyPaths } from "./calling.ts";
import { InvalidInputError, InvalidResponseError, JobFailedError, JobTimedOutError } from "./errors.ts";
import { integer, oneOf } from "./option-values.ts";
import { resolveOptions, type ClientOptions, type RequestOptions } from "./options.ts";
import { retryAfterPause } from "./pause.ts";
import { pollUntilTerminal, type PolledJob, type PollOptions } from "./polling.ts";
import { carriesRateLimit, readRateLimit, retryAfterSeconds, type RateLimitInfo } from "./rate-limit.ts";
import { redact, redactBody } from "./redact.ts";
import {
  createPath,
  type AreaName,
  type AreaRoutes,
  type CreateBody,
  type CreateBodyArgument,
  type Created,
  type CreatePath,
  type Job,
  type KnownSlug,
  type OperationArguments,
  type OperationInputArgument,
  type OperationName,
  type OperationResult,
  type RouteTable,
  type SlugArgument,
  type SucceededJob,
  type WaitableSlug,
} from "./route-table.ts";

/** The `status` of a poll response (the description's JobStatus). */
type StatusOf<JobBody> = JobBody extends { status: infer Status } ? Status : string;

/** `signal` aborts the wait, in a poll request or in a sleep; `headers` go with each poll (and the create of `createAndWait`). */
export interface WaitOptions<JobBody> extends RequestOptions {
  /**
   * Called with each new status, and the poll response that carried it (null for the create
   * response's status, reported first by `createAndWait`).
   */
  onStatus?: (status: StatusOf<JobBody>, job: JobBody | null) => void;
  /** Overrides the area's polling interval, in milliseconds. */
  intervalMs?: number;
  /** Overrides the client's overall deadline for this wait, in milliseconds; then WaitDeadlineError. */
  deadlineMs?: number;
}

export interface CreateResult<Body> {
  /** The id to poll; null where the create response shows none. */
  jobId: string | null;
  created: Body;
}

export interface CreateAndWaitOptions<CreatedBody, JobBody> extends WaitOptions<JobBody> {
  /** Called as soon as the job exists, so a caller can store the id and resume with `wait` later. */
  onJob?: (jobId: string, created: CreatedBody) => void;
}

export interface JobResult<JobBody> {
  jobId: string;
  job: JobBody;
}

export interface AreaClient<Paths, T extends RouteTable, A extends AreaName<T>> {
  /** Sends the create request once: never resent after a lost response, since a duplicate is charged twice. */
  create<S extends string, B extends CreateBodyArgument<B, Paths, T, A, S>>(
    slug: SlugArgument<T, A, S>,
    body: B,
    options?: RequestOptions,
  ): Promise<CreateResult<Created<Paths, T, A, KnownSlug<T, A, S>>>>;
  /** Creates the job, hands its id to `onJob`, and waits for the terminal status (first poll one interval later). */
  createAndWait<S extends string, B extends CreateBodyArgument<B, Paths, T, A, S>>(
    slug: SlugArgument<T, A, S, WaitableSlug<T, A>>,
    body: B,
    options?: CreateAndWaitOptions<Created<Paths, T, A, KnownSlug<T, A, S>>, Job<Paths, T, A>>,
  ): Promise<JobResult<SucceededJob<Paths, T, A>> & { created: Created<Paths, T, A, KnownSlug<T, A, S>> }>;
  /** Polls the job once (transient failures are retried). */
  get(id: string, options?: RequestOptions): Promise<Job<Paths, T, A>>;
  /** Waits for the job's terminal status, polling at once: the result on success, JobFailedError / JobTimedOutError otherwise. */
  wait(id: string, options?: WaitOptions<Job<Paths, T, A>>): Promise<JobResult<SucceededJob<Paths, T, A>>>;
}

/**
 * An area's offline quote, present when the client was given `quote`: the standard price of a create
 * request, its body typed per route like `create` (fields the price does not read may be left out).
 * `Media` and `Result` are the price-table entry point's per-path media facts and quote result.
 */
export interface AreaQuote<Paths, T extends RouteTable, A extends AreaName<T>, Media, Result> {
  quote<S extends string>(
    slug: SlugArgument<T, A, S>,
    body: Partial<CreateBody<Paths, T, A, KnownSlug<T, A, S>>>,
    media?: CreatePath<T, A, KnownSlug<T, A, S>> extends keyof Media
      ? Media[CreatePath<T, A, KnownSlug<T, A, S>>]
      : never,
  ): Result;
}

/** One method per other operation of the description, named after its operationId. */
export type OperationMethods<Paths, T extends RouteTable> = {
  [O in OperationName<T>]: <I extends OperationInputArgument<I, Paths, T["operations"][O]>>(
    ...args: [...OperationArguments<I, Paths, T["operations"][O]>, options?: RequestOptions]
  ) => Promise<OperationResult<Paths, T["operations"][O]>>;
};

/** The client's members besides the areas and the operations. */
export interface ClientMembers<Paths extends {}, T extends RouteTable> {
  /** Waits for a job of `area`, e.g. one whose id an earlier `onJob` stored. */
  wait<A extends AreaName<T>>(
    area: A,
    id: string,
    options?: WaitOptions<Job<Paths, T, A>>,
  ): Promise<JobResult<SucceededJob<Paths, T, A>>>;
  /** The rate-limit headers of the last response that carried them. */
  readonly rateLimit: RateLimitInfo | null;
  /** Epoch milliseconds until which a `Retry-After` pause holds every request (0: none yet). */
  readonly pausedUntil: number;
  /**
   * The underlying openapi-fetch client: it shares the key, the headers and the `Retry-After` pause,
   * and its `use()` adds middleware that every typed method's requests pass as well.
   */
  readonly api: Client<Paths>;
}

export type MediaClient<Paths extends {}, T extends RouteTable> = {
  [A in AreaName<T>]: AreaClient<Paths, T, A>;
} & OperationMethods<Paths, T> &
  ClientMembers<Paths, T>;

/** The client given the offline quote: each area has `quote` as well. */
export type QuotingClient<Paths extends {}, T extends RouteTable, Media, Result> = MediaClient<Paths, T> & {
  [A in AreaName<T>]: AreaQuote<Paths, T, A, Media, Result>;
};

/**
 * The job id a create response names in `field` (an integer `job_id` in the legacy image shape).
 * An id that holds the API key is refused: every error and poll path that names the job would
 * carry the key.
 */
function jobIdOf(created: unknown, field: string, path: string, apiKey: string): string {
  const value = (created as Record<string, unknown> | null)?.[field];
  if ((typeof value === "string" && value) || Number.isFinite(value)) {
    if (redact(String(value), apiKey) === String(value)) return String(value);
    throw new InvalidResponseError(`POST ${path}: the job id in ${field} holds the API key; the job may exist`);
  }
  throw new InvalidResponseError(`POST ${path}: no job id in ${field}, though the job may exist`);
}

/**
 * The client: one `call` (calling.ts) per request, `pollUntilTerminal` (polling.ts) for the waits,
 * composed per area and operation of the route table.
 */
export function createMediaClient<Paths extends {}, T extends RouteTable>(
  table: T,
  clientOptions: ClientOptions<AreaName<T>>,
): MediaClient<Paths, T> {
  const { areas, operations, terminalStatuses, headers: headerNames } = table as RouteTable;
  const { apiKey, limiter, checkMediaInputs, quote } = clientOptions;
  const resolved = resolveOptions(clientOptions, areas);
  const pause = retryAfterPause(resolved.maxPauseMs);
  /** The headers of the last response that carried rate-limit headers (read only when asked for). */
  let rateLimitHeaders: Headers | null = null;

  const [AttemptRequest, handing] = attemptRequests();
  // The client hands it out typed with Paths as `api`; the typed methods send through it too.
  const api = createFetchClient<AnyPaths>({
    baseUrl: clientOptions.baseUrl,
    headers: { ...clientOptions.headers, Authorization: `Bearer ${apiKey}` },
    Request: AttemptRequest,
    // Every request passes this fetch, the typed methods' and the raw `api`'s alike (and after any
    // middleware): it waits out the pause (the specification: after a 429 with Retry-After the
    // client waits the full time before sending anything else), hears what the answer tells the
    // client (the rate-limit window, a 429's Retry-After) and bounds the reading of its body. A
    // fetch rather than openapi-fetch middleware, whose machinery costs a tenth of a bare call.
    async fetch(request) {
      // Reading request.signal makes the Request build one: only done when there is a pause to wait.
      // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent: with no pause left pause.wait resolves at once; the test only spares building the signal
      if (pause.until > Date.now()) await pause.wait(request.signal);
      // Looked up per request, so that a fetch replaced later (a test's mock) is the one used.
      const response = await (clientOptions.fetch ?? globalThis.fetch)(request);
      const { status, headers } = response;
      if (carriesRateLimit(headers, headerNames)) rateLimitHeaders = headers;
      const seconds = status === 429 ? retryAfterSeconds(headers, headerNames) : null;
      if (seconds !== null) pause.hold(seconds);
      return capped(response, resolved.maxResponseBytes, (request as InstanceType<typeof AttemptRequest>)[ATTEMPT]);
    },
    // A redirect is an error answer: followed, it would resend a create's body (and the key) elsewhere, or twice.
    redirect: "manual",
  });
  const call = caller(api, handing, table, apiKey, pause, resolved);

  const area = (name: string): AreaRoutes => oneOf("area", areas, name);

  /** A create route's job-id field and path. */
  function route(areaName: string, slug: string): [idField: string | null, path: string] {
    const { pollPath, routes } = area(areaName);
    return [oneOf("slug", routes, slug), createPath(pollPath, slug)];
  }

  /** `toWait`: refuse a route whose create response names no job id before sending (charged) anything. */
  async function create(
    areaName: string,
    slug: string,
    body: unknown,
    requestOptions?: RequestOptions,
    toWait?: boolean,
  ): Promise<CreateResult<unknown>> {
    const [idField, path] = route(areaName, slug);
    if (toWait && idField === null)
      throw new InvalidInputError("slug", `${slug}'s create response names no job id to wait on`);
    checkMediaInputs?.(path, body);
    const send = async (): Promise<[unknown, string | null]> => {
      const created = await call("post", path, { body }, requestOptions, false);
      return [created, idField === null ? null : jobIdOf(created, idField, path, apiKey)];
    };
    const [created, jobId] = await (limiter
      ? limiter.create(send, resolved.maxRetries, requestOptions?.signal)
      : send());
    return { jobId, created };
  }

  /** One poll; a terminal status frees the job's limiter slot. */
  async function get(areaName: string, jobId: string, requestOptions?: RequestOptions): Promise<PolledJob> {
    const { pollPath } = area(areaName);
    const job = (await call("get", pollPath, { params: { path: { id: jobId } } }, requestOptions, true)) as
      | PolledJob
      | null
      | undefined;
    // An empty body or `null` would otherwise fail below as a bare TypeError.
    if (typeof job !== "object" || job === null)
      throw new InvalidResponseError(`GET ${createPath(pollPath, jobId)}: the answer holds no job`);
    if (terminalStatuses.includes(job.status)) limiter?.release(jobId);
    return job;
  }

  /** Polls until a terminal status; `created`: the create response of a job created a moment ago. */
  async function wait(
    created: { status?: string } | undefined,
    areaName: string,
    jobId: string,
    waitOptions: WaitOptions<unknown> = {},
  ): Promise<JobResult<unknown>> {
    const { resultFields } = area(areaName);
    const job = (await pollUntilTerminal(
      (signal) => get(areaName, jobId, { signal, headers: waitOptions.headers }),
      jobId,
      integer("intervalMs", waitOptions.intervalMs, resolved.pollIntervalMs[areaName] as number),
      integer("deadlineMs", waitOptions.deadlineMs, resolved.deadlineMs),
      (status) => terminalStatuses.includes(status),
      created,
      waitOptions as PollOptions<PolledJob>,
    )) as PolledJob & Record<string, unknown>;
    const { status } = job;
    if (status === table.successStatus) {
      const missing = resultFields.filter((field) => job[field] == null);
      if (missing.length) throw new InvalidResponseError(`job ${jobId} ${status} but lacks ${missing}`);
      return { jobId, job };
    }
    throw new (status === table.timeoutStatus ? JobTimedOutError : JobFailedError)(jobId, redactBody(job, apiKey));
  }

  async function createAndWait(
    areaName: string,
    slug: string,
    body: unknown,
    waitOptions: CreateAndWaitOptions<unknown, unknown> = {},
  ): Promise<JobResult<unknown> & { created: unknown }> {
    const { jobId, created } = (await create(areaName, slug, body, waitOptions, true)) as {
      jobId: string;
      created: { status?: string };
    };
    waitOptions.onJob?.(jobId, created);
    return { ...(await wait(created, areaName, jobId, waitOptions)), created };
  }

  const client: Record<string, unknown> = {
    wait: wait.bind(null, undefined),
    api,
    get rateLimit() {
      return rateLimitHeaders && readRateLimit(rateLimitHeaders, headerNames);
    },
    get pausedUntil() {
      return pause.until;
    },
  };
  for (const name in areas) {
    client[name] = {
      create: create.bind(null, name),
      createAndWait: createAndWait.bind(null, name),
      get: get.bind(null, name),
      wait: wait.bind(null, undefined, name),
      ...(quote && {
        quote: (slug: string, body: unknown, media?: unknown) => quote(route(name, slug)[1], body, media),
      }),
    };
  }
  for (const [name, [method, path, input, resend]] of Object.entries(operations)) {
    // The first argument is the body or the query; an operation that takes neither has only the request options.
    client[name] =
      input === "none"
        ? (requestOptions?: RequestOptions) => call(method, path, {}, requestOptions, resend)
        : (argument: unknown, requestOptions?: RequestOptions) =>
            call(
              method,
              path,
              input === "body" ? { body: argument } : { params: { query: argument as Record<string, unknown> } },
              requestOptions,
              resend,
            );
  }
  return client as MediaClient<Paths, T>;
}
