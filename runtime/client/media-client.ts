/**
 * The typed client over openapi-fetch. generated/client.ts binds it to the generated `paths` and the
 * route table derived from the description; everything here is generic over both.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { errorFromResponse } from "./classify.ts";
import { InvalidInputError, JobFailedError, JobTimedOutError, MediaServiceError, TransportError, WaitDeadlineError } from "./errors.ts";
import { inFlightLimiter } from "./limiter.ts";
import { checkMediaInputs } from "./media-inputs.ts";
import { serviceMiddleware, type ServiceState } from "./middleware.ts";
import { integer, oneOf, resolveOptions, type ClientOptions, type RequestOptions } from "./options.ts";
import { readRateLimit, type RateLimitInfo } from "./rate-limit.ts";
import { redact, redactBody } from "./redact.ts";
import { retryDecision, type Resend } from "./retry-policy.ts";
import {
  createPath,
  type AreaName,
  type AreaRoutes,
  type CreateBody,
  type Created,
  type CreatePath,
  type Job,
  type OperationArguments,
  type OperationName,
  type OperationResult,
  type RouteTable,
  type Slug,
  type SucceededJob,
  type WaitableSlug,
} from "./route-table.ts";
import { sleep } from "./sleep.ts";

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
  create<S extends Slug<T, A>>(
    slug: S,
    body: CreateBody<Paths, T, A, S>,
    options?: RequestOptions,
  ): Promise<CreateResult<Created<Paths, T, A, S>>>;
  /** Creates the job, hands its id to `onJob`, and waits for the terminal status (first poll one interval later). */
  createAndWait<S extends WaitableSlug<T, A>>(
    slug: S,
    body: CreateBody<Paths, T, A, S>,
    options?: CreateAndWaitOptions<Created<Paths, T, A, S>, Job<Paths, T, A>>,
  ): Promise<JobResult<SucceededJob<Paths, T, A>> & { created: Created<Paths, T, A, S> }>;
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
  quote<S extends Slug<T, A>>(
    slug: S,
    body: Partial<CreateBody<Paths, T, A, S>>,
    media?: CreatePath<T, A, S> extends keyof Media ? Media[CreatePath<T, A, S>] : never,
  ): Result;
}

/** One method per other operation of the description, named after its operationId. */
export type OperationMethods<Paths, T extends RouteTable> = {
  [O in OperationName<T>]: (
    ...args: [...OperationArguments<Paths, T["operations"][O]>, options?: RequestOptions]
  ) => Promise<OperationResult<Paths, T["operations"][O]>>;
};

export type MediaClient<Paths extends {}, T extends RouteTable> = { [A in AreaName<T>]: AreaClient<Paths, T, A> } & OperationMethods<Paths, T> & {
  /** Waits for a job of `area`, e.g. one whose id an earlier `onJob` stored. */
  wait<A extends AreaName<T>>(area: A, id: string, options?: WaitOptions<Job<Paths, T, A>>): Promise<JobResult<SucceededJob<Paths, T, A>>>;
  /** The rate-limit headers of the last response that carried them. */
  readonly rateLimit: RateLimitInfo | null;
  /** Epoch milliseconds until which a `Retry-After` pause holds every request (0: none yet). */
  readonly pausedUntil: number;
  /** Job ids of this client's limiter not yet seen terminal (empty without `maxInFlight`). */
  readonly runningJobs: readonly string[];
  /**
   * The underlying openapi-fetch client: it shares the key, the headers and the `Retry-After` pause,
   * and its `use()` adds middleware that every typed method's requests pass as well.
   */
  readonly api: Client<Paths>;
};

/** The client given the offline quote: each area has `quote` as well. */
export type QuotingClient<Paths extends {}, T extends RouteTable, Media, Result> = MediaClient<Paths, T> & {
  [A in AreaName<T>]: AreaQuote<Paths, T, A, Media, Result>;
};

/** What the typed methods send, as openapi-fetch sees an operation it knows nothing about. */
interface AnyOperation {
  parameters: { path?: Record<string, string>; query?: Record<string, unknown> };
  requestBody?: { content: { "application/json": unknown } };
  responses: { default: { content: { "application/json": unknown } } };
}
type AnyPaths = Record<string, Record<"get" | "post", AnyOperation>>;

// A type literal, not an interface: openapi-fetch's init type has an index signature.
type Init = {
  body?: unknown;
  params?: { path?: Record<string, string>; query?: Record<string, unknown> };
  signal?: AbortSignal | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
};

type Method = "get" | "post";

/** A failure before a usable response: the connection failed, or dropped while the body streamed. */
function lostResponse(method: Method, path: string, init: Init, cause: unknown, apiKey: string): TransportError {
  const reason = cause instanceof Error ? cause.message + (cause.cause instanceof Error ? ` (${cause.cause.message})` : "") : String(cause);
  const sent = method === "post";
  const effect = sent ? "; it may have taken effect (a create's job may exist), so it is not resent" : "";
  // Only a poll has a path parameter: its id.
  const where = `${method.toUpperCase()} ${path.replace("{id}", init.params?.path?.id as string)}`;
  return new TransportError(redact(`${where}: no usable response (${reason})${effect}`, apiKey), sent);
}

/** The job id a create response names in `field` (an integer `job_id` in the legacy image shape). */
function jobIdOf(created: unknown, field: string, path: string): string {
  const value = (created as Record<string, unknown> | null)?.[field];
  if ((typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value))) return String(value);
  throw new MediaServiceError(`POST ${path}: the response names no job id in ${field}; the job may exist, so it is not resent`);
}

export function createMediaClient<Paths extends {}, T extends RouteTable>(table: T, clientOptions: ClientOptions<AreaName<T>>): MediaClient<Paths, T> {
  const { areas, operations, terminalStatuses } = table as RouteTable;
  const options = resolveOptions(clientOptions, areas);
  const { apiKey, maxRetries } = options;
  const limiter = options.maxInFlight ? inFlightLimiter(options.maxInFlight) : null;
  const state: ServiceState = { pausedUntil: 0, rateLimitHeaders: null };

  const api = createFetchClient<Paths>({
    baseUrl: options.baseUrl,
    headers: { ...options.headers, Authorization: `Bearer ${apiKey}` },
    fetch: options.fetch,
  });
  api.use(serviceMiddleware(state));
  // The same client seen through route-agnostic paths: code generic over Paths cannot name a typed route.
  const untyped = api as unknown as Client<AnyPaths>;

  /**
   * Sends under the retry policy (retry-policy.ts); throws the typed error of an error response, or a
   * TransportError when no usable response came.
   */
  async function call(method: Method, path: string, route: Init, requestOptions: RequestOptions | undefined, resend: Resend): Promise<unknown> {
    // Only the request options' own keys reach openapi-fetch, and only when given: absent keys cost nothing per call.
    const init: Init = requestOptions ? { ...route, signal: requestOptions.signal, headers: requestOptions.headers } : route;
    for (let resends = 0; ; resends += 1) {
      let failure: unknown;
      try {
        // openapi-fetch reads the body inside: a connection dropped while it streams fails here too.
        const { data, error, response } = await (method === "get" ? untyped.GET(path, init) : untyped.POST(path, init));
        if (response.ok) return data;
        failure = errorFromResponse(response.status, response.headers, error, table.errors, apiKey);
      } catch (error) {
        if (init.signal?.aborted) throw init.signal.reason;
        failure = lostResponse(method, path, init, error, apiKey);
      }
      const decision = retryDecision(failure, resends, maxRetries, resend, !!limiter?.jobs.size);
      if (decision === null) throw failure;
      await (decision === "own-job-finished" ? limiter?.nextRelease(init.signal) : sleep(decision, init.signal));
    }
  }

  const area = (name: string): AreaRoutes => oneOf("area", areas, name);

  function route(areaName: string, slug: string) {
    const { pollPath, routes } = area(areaName);
    return { ...oneOf("slug", routes, slug), path: createPath(pollPath, slug) };
  }

  function checkId(id: unknown): string {
    if (typeof id !== "string" || id === "") throw new InvalidInputError("id", "must be a non-empty string");
    return id;
  }

  async function create(areaName: string, slug: string, body: unknown, requestOptions?: RequestOptions): Promise<CreateResult<unknown>> {
    const { idField, media, path } = route(areaName, slug);
    checkMediaInputs(body, media);
    await limiter?.acquire(requestOptions?.signal);
    let jobId: string | null = null;
    try {
      const created = await call("post", path, { body }, requestOptions, "create");
      jobId = idField === null ? null : jobIdOf(created, idField, path);
      return { jobId, created };
    } finally {
      // A created job holds its slot until it is seen terminal; a failed create, or one that names no job, none.
      if (jobId === null) limiter?.release();
      else limiter?.jobs.add(jobId);
    }
  }

  async function get(areaName: string, id: string, requestOptions?: RequestOptions): Promise<{ status: string }> {
    const jobId = checkId(id);
    const job = (await call("get", area(areaName).pollPath, { params: { path: { id: jobId } } }, requestOptions, true)) as { status: string };
    if (terminalStatuses.includes(job.status)) limiter?.release(jobId);
    return job;
  }

  /** Polls until a terminal status; `created`: the create response of a job created a moment ago (then the first poll waits one interval). */
  async function wait(created: { status?: unknown } | undefined, areaName: string, id: string, waitOptions: WaitOptions<unknown> = {}): Promise<JobResult<unknown>> {
    const { intervalSeconds, resultFields } = area(areaName);
    const jobId = checkId(id);
    const { signal, onStatus } = waitOptions;
    const intervalMs = integer(
      "intervalMs",
      waitOptions.intervalMs,
      options.pollIntervalMs[areaName] ?? (intervalSeconds ? intervalSeconds.min * 1000 : options.defaultPollIntervalMs),
    );
    const deadlineMs = integer("deadlineMs", waitOptions.deadlineMs, options.deadlineMs);
    let lastStatus = typeof created?.status === "string" ? created.status : null;
    // The deadline and the caller's signal abort whatever is under way, a poll request or a sleep.
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(new WaitDeadlineError(jobId, lastStatus, deadlineMs)), deadlineMs);
    const forward = () => controller.abort(signal?.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener("abort", forward, { once: true });
    try {
      for (let sleepFirst = created !== undefined; ; sleepFirst = true) {
        if (sleepFirst) await sleep(intervalMs, controller.signal);
        const job = (await get(areaName, jobId, { signal: controller.signal, headers: waitOptions.headers })) as { status: string } & Record<string, unknown>;
        if (job.status !== lastStatus) {
          lastStatus = job.status;
          onStatus?.(lastStatus, job);
        }
        if (!terminalStatuses.includes(job.status)) continue;
        if (job.status === table.timeoutStatus) throw new JobTimedOutError(jobId, redactBody(job, apiKey));
        if (job.status !== table.successStatus) throw new JobFailedError(jobId, redactBody(job, apiKey));
        const missing = resultFields.filter((field) => job[field] == null);
        if (missing.length > 0) throw new MediaServiceError(`job ${jobId} ${job.status} but its poll response lacks ${missing.join(", ")}`);
        return { jobId, job };
      }
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener("abort", forward);
    }
  }

  async function createAndWait(
    areaName: string,
    slug: string,
    body: unknown,
    waitOptions: CreateAndWaitOptions<unknown, unknown> = {},
  ): Promise<JobResult<unknown> & { created: unknown }> {
    if (route(areaName, slug).idField === null) {
      throw new InvalidInputError("slug", `${slug}'s create response shows no job id, so its job cannot be waited on`);
    }
    const { jobId, created } = await create(areaName, slug, body, waitOptions);
    const id = jobId as string;
    const { status } = created as { status?: unknown };
    waitOptions.onJob?.(id, created);
    if (typeof status === "string") waitOptions.onStatus?.(status, null);
    return { ...(await wait(created as { status?: unknown }, areaName, id, waitOptions)), created };
  }

  const { quote } = clientOptions;
  const client: Record<string, unknown> = {
    wait: wait.bind(null, undefined),
    api,
    get rateLimit() {
      return state.rateLimitHeaders && readRateLimit(state.rateLimitHeaders);
    },
    get pausedUntil() {
      return state.pausedUntil;
    },
    get runningJobs() {
      return [...(limiter?.jobs ?? [])];
    },
  };
  for (const name in areas) {
    client[name] = {
      create: create.bind(null, name),
      createAndWait: createAndWait.bind(null, name),
      get: get.bind(null, name),
      wait: wait.bind(null, undefined, name),
      ...(quote && { quote: (slug: string, body: unknown, media?: unknown) => quote(route(name, slug).path, body, media) }),
    };
  }
  for (const [name, { method, path, input, resend }] of Object.entries(operations)) {
    // The first argument is the body or the query; an operation that takes neither has only the request options.
    client[name] =
      input === "none"
        ? (requestOptions?: RequestOptions) => call(method, path, {}, requestOptions, resend)
        : (argument: unknown, requestOptions?: RequestOptions) =>
            call(method, path, input === "body" ? { body: argument } : { params: { query: argument as Record<string, unknown> } }, requestOptions, resend);
  }
  return client as MediaClient<Paths, T>;
}
